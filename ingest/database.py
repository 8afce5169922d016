"""Postgres connections: `DATABASE_URL` when set, else an embedded server in the data dir."""

from functools import lru_cache
from pathlib import Path

import psycopg

from ingest.migrations import apply_migrations
from ingest.settings import Settings


class DatabaseUnavailableError(RuntimeError):
    """Postgres could not be reached or started."""


@lru_cache(maxsize=4)
def embedded_server_url(folder: Path) -> str:
    """Start (or join) the pgserver PostgreSQL in `folder`; it stops when no process uses it."""
    import pgserver

    folder.mkdir(parents=True, exist_ok=True)
    try:
        server = pgserver.get_server(folder, cleanup_mode="stop")
    except Exception as error:  # pgserver raises bare exceptions with the server's log
        raise DatabaseUnavailableError(
            f"could not start embedded PostgreSQL in {folder}: {error}"
        ) from error
    return str(server.get_uri())


def database_url(settings: Settings) -> str:
    """The Postgres URL this process uses."""
    if settings.database_url:
        return settings.database_url
    return embedded_server_url(settings.postgres_dir.resolve())


def connect(settings: Settings) -> psycopg.Connection:
    """An autocommit connection with every migration applied."""
    url = database_url(settings)
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(f"cannot connect to Postgres: {error}".strip()) from error
    apply_migrations(conn)
    return conn


async def aconnect(settings: Settings) -> psycopg.AsyncConnection:
    """An autocommit async connection with every migration applied."""
    connect(settings).close()  # applies pending migrations (once per process is cheap)
    try:
        return await psycopg.AsyncConnection.connect(
            database_url(settings), autocommit=True, connect_timeout=10
        )
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(f"cannot connect to Postgres: {error}".strip()) from error
