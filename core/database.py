"""Postgres connections: `DATABASE_URL` when set, else an embedded server in the data dir."""

import asyncio
import logging
from pathlib import Path

import psycopg
from psycopg_pool import AsyncConnectionPool

from core.embedded_postgres import EmbeddedServerError, embedded_postgres
from core.migrations import apply_migrations
from core.settings import Settings

log = logging.getLogger("bookrag.database")


class DatabaseUnavailableError(RuntimeError):
    """Postgres could not be reached or started."""


def embedded_server_url(folder: Path) -> str:
    """Start (or join) the embedded PostgreSQL in `folder`; it stops when no process uses it."""
    try:
        return embedded_postgres(folder.resolve()).url()
    except EmbeddedServerError as error:
        raise DatabaseUnavailableError(str(error)) from error


def database_url(settings: Settings) -> str:
    """The Postgres URL this process uses."""
    if settings.database_url:
        return settings.database_url
    return embedded_server_url(settings.postgres_dir.resolve())


async def keep_embedded_server_running(settings: Settings, every_seconds: float = 1.0) -> None:
    """Restart the embedded server whenever it dies, until cancelled (nothing to do when
    `DATABASE_URL` is set: that server is its operator's to run)."""
    if settings.database_url:
        return
    server = embedded_postgres(settings.postgres_dir.resolve())
    while True:
        await asyncio.sleep(every_seconds)
        try:
            await asyncio.to_thread(server.ensure_running)
        except EmbeddedServerError as error:  # try again next time; requests answer 503
            log.warning("%s", error)


def stop_embedded_server(settings: Settings) -> None:
    """Let go of the embedded server (it stops unless another live process uses it)."""
    if not settings.database_url:
        embedded_postgres(settings.postgres_dir.resolve()).stop()


def connect(settings: Settings) -> psycopg.Connection:
    """An autocommit connection to the database (nothing else: migrating is `migrate`)."""
    try:
        return psycopg.connect(database_url(settings), autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as error:
        raise DatabaseUnavailableError(f"cannot connect to Postgres: {error}".strip()) from error


def migrate(settings: Settings) -> list[str]:
    """Bring the database up to the newest migration; returns the names applied."""
    with connect(settings) as conn:
        return apply_migrations(conn)


async def open_pool(settings: Settings, max_size: int | None = None) -> AsyncConnectionPool:
    """An async pool of autocommit connections, opened in the background.

    Connections are checked before use; waiting longer than `db_pool_timeout_seconds` for one
    raises `PoolTimeout`, so an unreachable database fails fast instead of hanging a request.
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
