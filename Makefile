# Two commands on a fresh machine: `make run` (ingest the sample book, serve the chat on
# http://127.0.0.1:8000) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEPS_HASH := $(shell cat pyproject.toml | sha256sum | cut -c1-16)
STAMP := $(VENV)/.deps-$(DEPS_HASH)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup run site test check-citations widget-test lint bench bench-quality bench-scale clean

setup: $(STAMP)

# Re-creates the environment only when pyproject.toml changed.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.deps-*
	@touch $@

# The server serves the built book itself, so its citations link there unless SITE_URL (in
# the environment or .env) says where the book is published.
run: setup site
	@$(BIN)/bookrag ingest
	@if [ -z "$${SITE_URL:-}" ] && ! grep -qs '^SITE_URL=' .env; then \
		export SITE_URL=http://$(HOST):$(PORT); fi; \
		$(BIN)/bookrag serve --host $(HOST) --port $(PORT) --log-level warning

# The book as a Docusaurus site (needs Node.js >= 20); rebuilt only when its sources change.
BOOK_SOURCES := $(shell find book/docs book/src -type f 2>/dev/null) book/docusaurus.config.js book/sidebars.js
site:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory book/build/index.html; \
	else echo "Node.js is not installed, so only the API is served; install Node.js >= 20 and run make run again to read the book with its chat at http://$(HOST):$(PORT)/"; fi

# The chat plugin is installed into the book as a copy, so a change to it reinstalls.
book/node_modules/.installed: book/package-lock.json docusaurus-plugin-bookrag/package.json $(shell find docusaurus-plugin-bookrag/lib -type f)
	cd book && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

book/build/index.html: book/node_modules/.installed $(BOOK_SOURCES)
	cd book && BOOKRAG_API_URL=http://$(HOST):$(PORT) npm run build >/dev/null

# The reader's chat (docusaurus-plugin-bookrag): types, unit tests, then browser tests on Debian's
# Chromium against the built book and real `bookrag serve` processes.
widget-test: setup
	cd docusaurus-plugin-bookrag && npm ci --no-audit --no-fund --loglevel=error && npm run check-lib && npm run typecheck && npm run test:unit
	cd book && npm ci --no-audit --no-fund --loglevel=error
	@if [ -n "$${BOOKRAG_E2E_DATABASE_URL:-}" ] || pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then \
		cd docusaurus-plugin-bookrag && npm run test:e2e; \
	else echo "skipped the chat's browser tests: they need PostgreSQL at 127.0.0.1:5432 or BOOKRAG_E2E_DATABASE_URL"; fi

# With Node.js, the book's npm packages are installed first (from the lockfile), so the tests
# can build the book with Docusaurus and check every citation against the build.
test: setup
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory book/node_modules/.installed; fi
	$(BIN)/python -m pytest -q
	bash tests/installed_package.sh
	@if command -v npm >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1; then $(MAKE) --no-print-directory widget-test; \
	else echo "skipped the chat widget's tests: they need Node.js >= 20 and Debian's chromium"; fi

# Every citation URL of the sample book, checked against its Docusaurus build.
check-citations: setup site
	$(BIN)/bookrag check-citations book/build --docs book/docs

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
	$(BIN)/python -m bench.safety

# The long ones, on the shared corpora next to the checkout: quality on three books, every
# fitted weight fitted on the other two books, beside the naive baseline (about 30 minutes),
# and the 1k/10k/50k-chunk scale comparison of the embedded engines (about 40).
bench-quality: setup
	$(BIN)/python -m bench.quality

bench-scale: setup
	$(BIN)/python -m bench.scale

clean:
	rm -rf $(VENV) .data book/node_modules book/build
