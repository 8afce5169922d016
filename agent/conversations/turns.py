"""One chat turn end to end: load the session's window, run the graph, store the turn.

The command line and the HTTP service both answer through `stream_turn`, so a turn is stored
the same way everywhere: the question and the final answer (with its sources) when the graph
completes, or both marked `failed` when it does not (an error, a dropped client). Failed
messages never enter a later context window.
"""

import asyncio
import contextvars
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar, cast

from langchain_core.messages import AnyMessage, HumanMessage
from psycopg_pool import AsyncConnectionPool

from agent.context import Context
from agent.conversations.sessions import recent_messages, record_turn, start_turn
from agent.graph import graph
from agent.resources import Resources
from agent.state import InputState, Source

T = TypeVar("T")


@dataclass
class Turn:
    """What a reader asks in one turn."""

    question: str
    session_id: uuid.UUID | None = None
    """An existing session; None for a one-off question with no history."""
    selected_text: str | None = None
    filters: dict[str, Any] = field(default_factory=dict)
    page_title: str | None = None
    """The page the reader is on (see `InputState.page_title`)."""


@dataclass(frozen=True)
class TurnResult:
    """The outcome of a completed turn."""

    answer: str
    sources: list[Source]
    refusal_reason: str | None
    chunks_used: int
    source_context: str | None
    session_id: uuid.UUID | None
    message_id: int | None
    """The stored assistant message (the target of feedback); None without a session."""
    session_expired: bool
    """The session had expired, so this turn started a fresh context window."""
    extractive: bool
    """Answered from the book's own sentences, without a language model."""
    degraded: bool
    """A language model is configured but failed during the turn (the answer says so)."""

    @property
    def refused(self) -> bool:
        """The book does not cover the question."""
        return self.refusal_reason is not None


async def stream_turn(
    turn: Turn,
    resources: Resources,
    pool: AsyncConnectionPool | None = None,
    context: Context | None = None,
) -> AsyncIterator[str | TurnResult]:
    """Answer a turn: yields answer text as it is produced, then one `TurnResult`.

    With a session, `pool` must be given; an unknown session raises `UnknownSessionError`.
    A connection is held only while reading or writing the session, never while answering.
    """
    context = context or Context()
    history: list[AnyMessage] = []
    expired = False
    session = turn.session_id if pool is not None else None
    if pool is not None and session is not None:
        expiry = timedelta(hours=resources.settings.session_expiry_hours)
        async with pool.connection() as conn:
            started = await start_turn(conn, session, resources.settings.book_id, expiry)
            history = await recent_messages(conn, session, context.history_window)
        expired = started.expired
    state: InputState = {
        "messages": [*history, HumanMessage(turn.question)],
        "selected_text": turn.selected_text,
        "filters": turn.filters,
        "page_title": turn.page_title,
    }
    shown: list[str] = []
    final: dict[str, Any] = {}
    try:
        stream = in_own_context(
            graph.astream(
                state,
                {"configurable": {"resources": resources}},
                context=context,
                stream_mode=["custom", "values"],
            )
        )
        async for mode, payload in stream:  # (mode, event) pairs: two stream modes
            payload = cast(dict[str, Any], payload)
            if mode == "custom" and payload["event"] == "token":
                shown.append(payload["text"])
                yield payload["text"]
            elif mode == "values":
                final = payload
    except BaseException:  # errors, cancellation and a consumer that stops early alike
        if pool is not None and session is not None:
            failed = _record(pool, session, turn.question, "".join(shown), [], "failed")
            await asyncio.shield(failed)
        raise
    sources = final.get("sources", [])
    message_id = None
    if pool is not None and session is not None:
        message_id = await _record(pool, session, turn.question, final["answer"], sources)
    yield TurnResult(
        answer=final["answer"],
        sources=sources,
        refusal_reason=final.get("refusal_reason"),
        chunks_used=len(final.get("documents") or []),
        source_context=final.get("source_context"),
        session_id=session,
        message_id=message_id,
        session_expired=expired,
        extractive=resources.chat_model is None or bool(final.get("degraded")),
        degraded=bool(final.get("degraded")),
    )


async def in_own_context(stream: AsyncIterator[T]) -> AsyncIterator[T]:
    """`stream`, stepped in a context of its own, so it is a run of its own.

    A caller's run (LangServe's `stream_log`, a tracer) is not its parent, so it sees the
    turn's answer, never the graph's internal state (every candidate chunk with its payload).
    """
    own = contextvars.Context()
    try:
        while True:
            try:
                yield await asyncio.create_task(anext(stream), context=own)  # type: ignore[arg-type]
            except StopAsyncIteration:
                return
    finally:
        aclose = getattr(stream, "aclose", None)
        if aclose is not None:
            await asyncio.create_task(aclose(), context=own)


async def _record(
    pool: AsyncConnectionPool,
    session: uuid.UUID,
    question: str,
    answer: str,
    sources: list[Source],
    status: str = "complete",
) -> int:
    async with pool.connection() as conn:
        return await record_turn(conn, session, question, answer, sources, status)


async def run_turn(
    turn: Turn,
    resources: Resources,
    pool: AsyncConnectionPool | None = None,
    context: Context | None = None,
    on_text: Callable[[str], None] | None = None,
) -> TurnResult:
    """Answer a turn; `on_text` (if given) sees the answer's text as it streams."""
    async for event in stream_turn(turn, resources, pool, context):
        if isinstance(event, TurnResult):
            return event
        if on_text is not None:
            on_text(event)
    raise RuntimeError("the graph finished without a result")
