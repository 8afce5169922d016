"""Readers' ratings of assistant answers: one per message, the latest vote wins."""

from psycopg import AsyncConnection


class FeedbackTargetError(LookupError):
    """The message does not exist, or it is not an answer of this book's assistant."""


async def record_feedback(
    conn: AsyncConnection, book_id: str, message_id: int, score: int, comment: str | None
) -> int:
    """Store (or replace) the rating of an assistant message; returns the feedback id."""
    cursor = await conn.execute(
        "INSERT INTO feedback (message_id, score, comment)"
        " SELECT m.id, %s, %s FROM messages m JOIN sessions s ON s.id = m.session_id"
        " WHERE m.id = %s AND m.role = 'assistant' AND s.book_id = %s"
        " ON CONFLICT (message_id) DO UPDATE"
        " SET score = EXCLUDED.score, comment = EXCLUDED.comment, updated_at = now()"
        " RETURNING id",
        (score, comment, message_id, book_id),
    )
    row = await cursor.fetchone()
    if row is None:
        raise FeedbackTargetError(f"no assistant message {message_id} to rate")
    return int(row[0])
