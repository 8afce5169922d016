# Two commands on a fresh machine: `make run` (ingest the sample book, serve the chat on
# http://127.0.0.1:8000) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEPS_HASH := $(shell cat pyproject.toml | sha256sum | cut -c1-16)
STAMP := $(VENV)/.deps-$(DEPS_HASH)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup run test lint bench clean

setup: $(STAMP)

# Re-creates the environment only when pyproject.toml changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.deps-*
	@touch $@

run: setup
	$(BIN)/bookrag ingest
	$(BIN)/bookrag serve --host $(HOST) --port $(PORT)

test: setup
	$(BIN)/python -m pytest -q

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: setup
	$(BIN)/python -m bench.retrieval
	$(BIN)/python -m bench.ingest
	$(BIN)/python -m bench.search
	$(BIN)/python -m bench.agent
	$(BIN)/python -m bench.service
	$(BIN)/python -m bench.webhook

clean:
	rm -rf $(VENV) .data
