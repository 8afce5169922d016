"""Conversation history in Postgres: the window of recent messages that feeds the graph."""

import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

SESSION_NAMESPACE = uuid.UUID("0b7d2f0e-5c41-4d7a-9a55-3f1f7b0c2a6e")


def session_uuid(name: str) -> uuid.UUID:
    """A session id from a UUID string, or a stable UUID made from any other name."""
    try:
        return uuid.UUID(name)
    except ValueError:
        return uuid.uuid5(SESSION_NAMESPACE, name)


async def open_session(conn: AsyncConnection, session_id: uuid.UUID, book_id: str) -> None:
    """Create the session if it is new, and mark it active."""
    await conn.execute(
        "INSERT INTO sessions (id, book_id) VALUES (%s, %s)"
        " ON CONFLICT (id) DO UPDATE SET last_active_at = now()",
        (session_id, book_id),
    )


async def recent_messages(
    conn: AsyncConnection, session_id: uuid.UUID, limit: int
) -> list[AnyMessage]:
    """The session's last `limit` complete messages, oldest first."""
    cursor = await conn.execute(
        "SELECT role, content FROM ("
        "  SELECT id, role, content FROM messages"
        "  WHERE session_id = %s AND status = 'complete' ORDER BY id DESC LIMIT %s"
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
    sources: Sequence[dict[str, Any]],
    status: str = "complete",
) -> None:
    """Store a question and its answer (or a failed turn) together."""
    async with conn.transaction():
        await conn.execute(
            "INSERT INTO messages (session_id, role, content, status) VALUES (%s, 'user', %s, %s)",
            (session_id, question, status),
        )
        await conn.execute(
            "INSERT INTO messages (session_id, role, content, sources, status)"
            " VALUES (%s, 'assistant', %s, %s, %s)",
            (session_id, answer, Jsonb(list(sources)), status),
        )
