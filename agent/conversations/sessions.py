"""Conversations in Postgres: sessions, their messages, and the window that feeds the graph.

A session that has been inactive longer than its expiry keeps its id and its stored messages,
but its context window restarts: the next turn sees none of the earlier messages.

A session made over HTTP belongs to whoever holds its token, a secret separate from its id
that is returned once, when the session is made; only its sha256 is stored. Without the
right token a session is indistinguishable from a missing one. Sessions of the command line
have no token, so no HTTP request can reach them, however computable their id.
"""

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from psycopg import AsyncConnection
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from agent.state import Source

SESSION_NAMESPACE = uuid.UUID("0b7d2f0e-5c41-4d7a-9a55-3f1f7b0c2a6e")


class UnknownSessionError(LookupError):
    """No session of this book has that id."""


@dataclass(frozen=True)
class SessionTurnStart:
    """A session about to take a turn."""

    id: uuid.UUID
    expired: bool
    """The session had been inactive past its expiry, so its context window restarted."""


def session_uuid(name: str) -> uuid.UUID:
    """A session id from a UUID string, or a stable UUID made from any other name."""
    try:
        return uuid.UUID(name)
    except ValueError:
        return uuid.uuid5(SESSION_NAMESPACE, name)


def token_hash(token: str) -> bytes:
    """What is stored of a session token."""
    return hashlib.sha256(token.encode()).digest()


async def create_session(conn: AsyncConnection, book_id: str) -> dict[str, Any]:
    """A new empty session: its id, its token (the only time it is shown) and timestamps."""
    token = secrets.token_urlsafe(32)
    cursor = conn.cursor(row_factory=dict_row)
    await cursor.execute(
        "INSERT INTO sessions (id, book_id, token_hash) VALUES (%s, %s, %s)"
        " RETURNING id, created_at, last_active_at",
        (uuid.uuid4(), book_id, token_hash(token)),
    )
    row = await cursor.fetchone()
    assert row is not None  # INSERT ... RETURNING always returns the row
    return {**row, "token": token}


async def authorize_session(
    conn: AsyncConnection, session_id: uuid.UUID, book_id: str, token: str | None
) -> None:
    """Raise `UnknownSessionError` unless the token is this session's (same error as for a
    session that does not exist, so a wrong token tells nothing)."""
    cursor = await conn.execute(
        "SELECT token_hash FROM sessions WHERE id = %s AND book_id = %s", (session_id, book_id)
    )
    row = await cursor.fetchone()
    stored = row[0] if row else None
    given = token_hash(token) if token else b""
    if stored is None or not hmac.compare_digest(bytes(stored), given):
        raise UnknownSessionError(f"no session {session_id}; create one with POST /sessions")


async def open_session(conn: AsyncConnection, session_id: uuid.UUID, book_id: str) -> None:
    """Create the session if it is new (named sessions of the command line)."""
    await conn.execute(
        "INSERT INTO sessions (id, book_id) VALUES (%s, %s) ON CONFLICT (id) DO NOTHING",
        (session_id, book_id),
    )


async def start_turn(
    conn: AsyncConnection, session_id: uuid.UUID, book_id: str, expiry: timedelta
) -> SessionTurnStart:
    """Mark the session active, restarting its window if it expired; unknown: an error."""
    cursor = await conn.execute(
        "WITH previous AS ("
        "  SELECT id, last_active_at < now() - %s AS expired FROM sessions"
        "  WHERE id = %s AND book_id = %s FOR UPDATE"
        ") UPDATE sessions SET last_active_at = now(),"
        "  window_started_at = CASE WHEN previous.expired THEN now() ELSE window_started_at END"
        " FROM previous WHERE sessions.id = previous.id RETURNING previous.expired",
        (expiry, session_id, book_id),
    )
    row = await cursor.fetchone()
    if row is None:
        raise UnknownSessionError(f"no session {session_id}; create one with POST /sessions")
    return SessionTurnStart(session_id, bool(row[0]))


async def recent_messages(
    conn: AsyncConnection, session_id: uuid.UUID, limit: int
) -> list[AnyMessage]:
    """The last `limit` complete messages of the session's current window, oldest first."""
    cursor = await conn.execute(
        "SELECT role, content FROM ("
        "  SELECT m.id, m.role, m.content FROM messages m JOIN sessions s ON s.id = m.session_id"
        "  WHERE m.session_id = %s AND m.status = 'complete'"
        "    AND m.created_at >= s.window_started_at"
        "  ORDER BY m.id DESC LIMIT %s"
        ") AS recent ORDER BY id",
        (session_id, limit),
    )
    rows = await cursor.fetchall()
    return [HumanMessage(text) if role == "user" else AIMessage(text) for role, text in rows]


async def record_turn(
    conn: AsyncConnection,
    session_id: uuid.UUID,
    question: str,
    answer: str,
    sources: Sequence[Source],
    status: str = "complete",
) -> int:
    """Store a question and its answer (or a failed turn) together; returns the answer's id."""
    async with conn.transaction():
        await conn.execute(
            "INSERT INTO messages (session_id, role, content, status) VALUES (%s, 'user', %s, %s)",
            (session_id, question, status),
        )
        answered = await conn.execute(
            "INSERT INTO messages (session_id, role, content, sources, status)"
            " VALUES (%s, 'assistant', %s, %s, %s) RETURNING id",
            (session_id, answer, Jsonb(list(sources)), status),
        )
        row = await answered.fetchone()
    assert row is not None  # INSERT ... RETURNING always returns the row
    return int(row[0])


async def session_view(
    conn: AsyncConnection, session_id: uuid.UUID, book_id: str, expiry: timedelta
) -> dict[str, Any]:
    """The session with all its messages (newest last) and any feedback on them."""
    cursor = conn.cursor(row_factory=dict_row)
    await cursor.execute(
        "SELECT id AS session_id, created_at, last_active_at,"
        " last_active_at < now() - %s AS expired FROM sessions WHERE id = %s AND book_id = %s",
        (expiry, session_id, book_id),
    )
    session = await cursor.fetchone()
    if session is None:
        raise UnknownSessionError(f"no session {session_id}")
    await cursor.execute(
        "SELECT m.id, m.role, m.content, m.sources, m.status, m.created_at,"
        " f.score AS feedback_score FROM messages m LEFT JOIN feedback f ON f.message_id = m.id"
        " WHERE m.session_id = %s ORDER BY m.id",
        (session_id,),
    )
    return {**session, "messages": await cursor.fetchall()}


async def delete_session(conn: AsyncConnection, session_id: uuid.UUID, book_id: str) -> None:
    """Delete the session and (by cascade) its messages and their feedback."""
    cursor = await conn.execute(
        "DELETE FROM sessions WHERE id = %s AND book_id = %s", (session_id, book_id)
    )
    if cursor.rowcount == 0:
        raise UnknownSessionError(f"no session {session_id}")
