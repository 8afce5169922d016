"""Shared fixtures: real Postgres, Qdrant local mode in a temp folder, the sample book."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from core.database import embedded_server_url
from core.migrations import apply_migrations
from core.settings import Settings
from core.store import close_qdrant
from tests.loopback import free_port

REPO = Path(__file__).resolve().parents[1]
SAMPLE_BOOK = REPO / "book" / "docs"
CORPORA = REPO.parent / "shared" / "corpora"


@pytest.fixture(scope="session")
def database_url() -> str:
    """`DATABASE_URL` when set (CI), else an embedded server kept in `.data/test-pg`.

    The embedding cache lives there, so a second test run embeds nothing. Migrations are applied
    once here, as `bookrag migrate` would.
    """
    url = os.environ.get("DATABASE_URL") or embedded_server_url(REPO / ".data" / "test-pg")
    with psycopg.connect(url, autocommit=True) as conn:
        apply_migrations(conn)
    return url


@pytest.fixture(scope="session", autouse=True)
def _close_stores() -> Iterator[None]:
    """Each test opens its own embedded store; release them all when the session ends."""
    yield
    close_qdrant()


def settings_for(folder: Path, database_url: str, **overrides: object) -> Settings:
    """Settings for an isolated store under `folder`, sharing the test database."""
    values: dict[str, object] = {
        "data_dir": folder / "data",
        "database_url": database_url,
        "book_docs_dir": folder / "docs",
        "book_id": "test-book",
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
def make_settings(tmp_path: Path, database_url: str):
    """Build settings for an isolated store in `tmp_path`."""
    return lambda **overrides: settings_for(tmp_path, database_url, **overrides)


@pytest.fixture
def sample_docs(tmp_path: Path) -> Path:
    """A private copy of the sample book that a test may edit."""
    target = tmp_path / "docs"
    shutil.copytree(SAMPLE_BOOK, target)
    return target


def corpus(name: str) -> Path:
    """A shared real-book corpus, or a clean skip when the checkout has none beside it."""
    path = CORPORA / name / "docs"
    if not path.is_dir():
        pytest.skip(f"shared corpus {name} is not next to this checkout")
    return path


@pytest.fixture(scope="module")
def book(tmp_path_factory, database_url):
    """Graph resources over a private, ingested copy of the sample book (one per module)."""
    from agent.resources import build_resources
    from ingest.recorded import run_ingest

    folder = tmp_path_factory.mktemp("book")
    shutil.copytree(SAMPLE_BOOK, folder / "docs")
    settings = settings_for(folder, database_url)
    run_ingest(settings)
    return build_resources(settings)


def _test_app(resources, overrides: dict[str, object]):  # type: ignore[no-untyped-def]
    """The API over `resources`; rate limits and ingest workflows off unless `overrides` say."""
    from agent.resources import Resources
    from agent.service.app import create_app

    updates = {
        "rate_limit_client_per_minute": 0,
        "rate_limit_session_per_minute": 0,
        "ingest_workflows": False,
        **overrides,
    }
    settings = resources.settings.model_copy(update=updates)
    return create_app(settings, Resources(settings, resources.searcher, resources.chat_model))


SESSION_PATH = re.compile(r"/sessions/([0-9a-fA-F-]{36})")


class ReaderClient(httpx.AsyncClient):
    """An HTTP client that keeps each session's token, as the reader's chat does, and sends it
    (`Authorization: Bearer`) whenever a request names that session. `tokens` may be edited."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tokens: dict[str, str] = {}

    async def request(self, method: str, url: Any, **kwargs: Any) -> httpx.Response:  # type: ignore[override]
        session = _named_session(str(url), kwargs.get("json"))
        headers = httpx.Headers(kwargs.pop("headers", None))
        if session in self.tokens and "authorization" not in headers:
            headers["authorization"] = f"Bearer {self.tokens[session]}"
        response = await super().request(method, url, headers=headers, **kwargs)
        for found in re.finditer(
            r'"session_id": ?"([0-9a-f-]{36})"[^{}]*?"session_token": ?"([^"]+)"'
            r'|"session_token": ?"([^"]+)"[^{}]*?"session_id": ?"([0-9a-f-]{36})"',
            response.text,
        ):
            session_id = found.group(1) or found.group(4)
            self.tokens[session_id] = found.group(2) or found.group(3)
        return response


def _named_session(url: str, body: Any) -> str | None:
    path = SESSION_PATH.search(url)
    if path:
        return path.group(1)
    if isinstance(body, dict):
        inner = body.get("input") if isinstance(body.get("input"), dict) else body
        return str(inner.get("session_id")) if inner.get("session_id") else None
    return None


@asynccontextmanager
async def serving(resources, **overrides: object) -> AsyncIterator[ReaderClient]:  # type: ignore[no-untyped-def]
    """A reader's HTTP client of the API over `resources`, started and stopped around it."""
    from asgi_lifespan import LifespanManager

    async with LifespanManager(_test_app(resources, overrides), startup_timeout=60) as manager:
        transport = httpx.ASGITransport(manager.app, raise_app_exceptions=False)  # as uvicorn
        async with ReaderClient(transport=transport, base_url="http://bookrag.test") as client:
            yield client


@contextmanager
def running_server(resources, **overrides: object) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A real uvicorn server of the API on a free loopback port; yields its base URL."""
    import threading
    import time

    import uvicorn

    app = _test_app(resources, overrides)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the API server did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def bookrag_serve(
    folder: Path, env: dict[str, str], stop: signal.Signals = signal.SIGTERM
) -> Iterator[str]:
    """`bookrag serve` in a child process with `env`, its output in `folder/serve.log`;
    yields its base URL once `/health` answers, and stops it with `stop` at the end."""
    port = free_port()
    with (folder / "serve.log").open("a") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "serve", "--port", str(port)],
            cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if server.poll() is not None:
                raise RuntimeError(f"bookrag serve exited: {(folder / 'serve.log').read_text()}")
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        server.send_signal(stop)
        server.wait(timeout=30)


def sse_events(text: str) -> list[tuple[str, dict | None]]:
    """(event, data) pairs of a server-sent event stream."""
    events = []
    for block in text.strip().split("\r\n\r\n" if "\r\n" in text else "\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        data = fields.get("data")
        events.append((fields["event"], json.loads(data) if data else None))
    return events
