"""Readers' ratings of assistant answers: one per message, the latest vote wins.

A vote names the session that owns the message (whose token the caller has shown), so nobody
can rate, or learn of, another reader's messages.
"""

import uuid

from psycopg import AsyncConnection


class FeedbackTargetError(LookupError):
    """The session has no assistant message with that id."""


async def record_feedback(
    conn: AsyncConnection,
    session_id: uuid.UUID,
    message_id: int,
    score: int,
    comment: str | None,
) -> int:
    """Store (or replace) the rating of one of the session's answers; returns the feedback id.

    The caller has authorized the session (`sessions.authorize_session`).
    """
    cursor = await conn.execute(
        "INSERT INTO feedback (message_id, score, comment)"
        " SELECT m.id, %s, %s FROM messages m"
        " WHERE m.id = %s AND m.role = 'assistant' AND m.session_id = %s"
        " ON CONFLICT (message_id) DO UPDATE"
        " SET score = EXCLUDED.score, comment = EXCLUDED.comment, updated_at = now()"
        " RETURNING id",
        (score, comment, message_id, session_id),
    )
    row = await cursor.fetchone()
    if row is None:
        raise FeedbackTargetError(f"this session has no answer {message_id} to rate")
    return int(row[0])
