"""Records of ingest runs: who asked, which steps ran how often, and how each run ended.

Requests and run starts take the same per-book advisory lock, so a request either joins the run
that is still waiting (the requests collapse into it, and it ingests the newest commit) or,
once that run has started, gets a run of its own. A request id (a webhook delivery id) maps to
exactly one run, however often it is sent.
"""

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from core.database import connect
from core.settings import Settings
from ingest.pipeline import STEPS

T = TypeVar("T")
LOCK = "SELECT pg_advisory_xact_lock(hashtext('bookrag-ingest:' || %s))"


@dataclass(frozen=True)
class RunRequest:
    """The run that serves a request."""

    run_id: str
    status: str


@dataclass(frozen=True)
class RunTarget:
    """What a run ingests, read when it starts (a waiting run may have been retargeted)."""

    book_id: str
    trigger: str
    branch: str | None
    commit: str | None
    full: bool


async def request_run(
    conn: AsyncConnection,
    book_id: str,
    request_id: str,
    trigger: str,
    *,
    branch: str | None = None,
    commit: str | None = None,
    full: bool = False,
) -> RunRequest:
    """The run serving `request_id`: its earlier run, the waiting run it joins, or a new one."""
    async with conn.transaction():
        await conn.execute(LOCK, (book_id,))
        cursor = await conn.execute(
            "SELECT r.id, r.status FROM ingest_requests q JOIN ingest_runs r ON r.id = q.run_id"
            " WHERE q.request_id = %s",
            (request_id,),
        )
        earlier = await cursor.fetchone()
        if earlier is not None:
            return RunRequest(earlier[0], earlier[1])
        cursor = await conn.execute(
            "UPDATE ingest_runs SET branch = coalesce(%s, branch),"
            " commit_sha = coalesce(%s, commit_sha), full_rebuild = full_rebuild OR %s"
            " WHERE id = (SELECT id FROM ingest_runs WHERE book_id = %s AND status = 'queued'"
            "             ORDER BY requested_at LIMIT 1)"
            " RETURNING id",
            (branch, commit, full, book_id),
        )
        waiting = await cursor.fetchone()
        run_id = waiting[0] if waiting else request_id
        if waiting is None:
            await conn.execute(
                "INSERT INTO ingest_runs (id, book_id, trigger, branch, commit_sha, full_rebuild)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (run_id, book_id, trigger, branch, commit, full),
            )
        await conn.execute(
            "INSERT INTO ingest_requests (request_id, run_id) VALUES (%s, %s)",
            (request_id, run_id),
        )
    return RunRequest(run_id, "queued")


async def list_runs(conn: AsyncConnection, book_id: str, limit: int = 20) -> list[dict[str, Any]]:
    """The book's latest runs, newest first, with their steps."""
    cursor = conn.cursor(row_factory=dict_row)
    await cursor.execute(
        f"{RUN_COLUMNS} WHERE book_id = %s ORDER BY requested_at DESC LIMIT %s", (book_id, limit)
    )
    runs = await cursor.fetchall()
    for run in runs:
        run["steps"] = await _steps(conn, run["run_id"])
    return runs


async def get_run(conn: AsyncConnection, book_id: str, run_id: str) -> dict[str, Any] | None:
    """One run with its steps, or None."""
    cursor = conn.cursor(row_factory=dict_row)
    await cursor.execute(f"{RUN_COLUMNS} WHERE book_id = %s AND id = %s", (book_id, run_id))
    run = await cursor.fetchone()
    if run is not None:
        run["steps"] = await _steps(conn, run_id)
    return run


RUN_COLUMNS = (
    "SELECT id AS run_id, status, trigger, branch, commit_sha AS commit, full_rebuild AS full,"
    " requested_at, started_at, ended_at, error, summary FROM ingest_runs"
)


async def _steps(conn: AsyncConnection, run_id: str) -> list[dict[str, Any]]:
    cursor = conn.cursor(row_factory=dict_row)
    await cursor.execute(
        "SELECT name, status, attempts, started_at, ended_at, error FROM ingest_steps"
        " WHERE run_id = %s ORDER BY position",
        (run_id,),
    )
    return await cursor.fetchall()


def begin_run(conn: psycopg.Connection, run_id: str) -> RunTarget:
    """Mark a run running (under the book's lock, so no request joins it any more)."""
    with conn.transaction():
        row = conn.execute("SELECT book_id FROM ingest_runs WHERE id = %s", (run_id,)).fetchone()
        if row is None:
            raise LookupError(f"no ingest run {run_id}")
        conn.execute(LOCK, (row[0],))
        target = conn.execute(
            "UPDATE ingest_runs SET status = 'running', started_at = coalesce(started_at, now())"
            " WHERE id = %s RETURNING book_id, trigger, branch, commit_sha, full_rebuild",
            (run_id,),
        ).fetchone()
    assert target is not None
    return RunTarget(*target)


def start_cli_run(conn: psycopg.Connection, book_id: str, full: bool) -> str:
    """Record a run of `bookrag ingest`, already running in that process."""
    run_id = f"cli-{uuid.uuid4()}"
    conn.execute(
        "INSERT INTO ingest_runs (id, book_id, trigger, status, full_rebuild, started_at)"
        " VALUES (%s, %s, 'cli', 'running', %s, now())",
        (run_id, book_id, full),
    )
    return run_id


def end_run(
    conn: psycopg.Connection,
    run_id: str,
    summary: dict[str, Any] | None = None,
    error: str | None = None,
) -> None:
    """Record how a run ended: its summary, or the error that stopped it."""
    conn.execute(
        "UPDATE ingest_runs SET status = %s, ended_at = now(), summary = %s, error = %s"
        " WHERE id = %s",
        ("failed" if error else "completed", Jsonb(summary) if summary else None, error, run_id),
    )


def recorded(
    settings: Settings, run_id: str, name: str, step: Callable[..., T]
) -> Callable[..., T]:
    """`step` with each call recorded as an attempt of the run's step `name`: its start, then
    its success or its error (on one connection held for the attempt)."""

    def attempt(*args: Any) -> T:
        with connect(settings) as conn:
            conn.execute(
                "INSERT INTO ingest_steps (run_id, name, position, status, attempts, started_at)"
                " VALUES (%s, %s, %s, 'running', 1, now())"
                " ON CONFLICT (run_id, name) DO UPDATE"
                " SET status = 'running', attempts = ingest_steps.attempts + 1, ended_at = NULL",
                (run_id, name, STEPS.index(name)),
            )
            try:
                result = step(*args)
            except Exception as error:
                _end_step(conn, run_id, name, "failed", describe(error))
                raise
            _end_step(conn, run_id, name, "completed", None)
            return result

    return attempt


def _end_step(
    conn: psycopg.Connection, run_id: str, name: str, status: str, error: str | None
) -> None:
    conn.execute(
        "UPDATE ingest_steps SET status = %s, ended_at = now(), error = %s"
        " WHERE run_id = %s AND name = %s",
        (status, error, run_id, name),
    )


def describe(error: BaseException) -> str:
    """An error as one line for people."""
    return f"{type(error).__name__}: {error}".strip()
