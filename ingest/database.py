"""Postgres connections: `DATABASE_URL` when set, else an embedded server in the data dir."""

import asyncio
from functools import lru_cache
from pathlib import Path

import psycopg
from psycopg_pool import AsyncConnectionPool

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


_migrated: set[str] = set()
"""Database URLs this process has already brought up to date."""


def connect(settings: Settings) -> psycopg.Connection:
    """An autocommit connection with every migration applied (checked once per process)."""
    url = database_url(settings)
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(f"cannot connect to Postgres: {error}".strip()) from error
    if url not in _migrated:
        apply_migrations(conn)
        _migrated.add(url)
    return conn


async def open_pool(settings: Settings, max_size: int | None = None) -> AsyncConnectionPool:
    """An async pool of autocommit connections, opened in the background.

    Connections are checked before use; waiting longer than `db_pool_timeout_seconds` for one
    raises `PoolTimeout`, so an unreachable database fails fast instead of hanging a request.
    Migrations are not applied here (see `connect`).
    """
    url = await asyncio.to_thread(database_url, settings)  # may start the embedded server
    pool = AsyncConnectionPool(
        url,
        min_size=1,
        max_size=max_size or settings.db_pool_max_size,
        timeout=settings.db_pool_timeout_seconds,
        kwargs={"autocommit": True, "connect_timeout": 10},
        check=AsyncConnectionPool.check_connection,
        open=False,
    )
    await pool.open(wait=False)
    return pool
