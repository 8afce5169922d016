"""One chat turn end to end: load the session's window, run the graph, store the turn."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from langchain_core.messages import AnyMessage, HumanMessage

from agent.context import Context
from agent.graph import graph
from agent.resources import Resources
from agent.sessions import open_session, recent_messages, record_turn, session_uuid
from agent.state import InputState
from ingest.database import aconnect


@dataclass
class Turn:
    """What a reader asks in one turn."""

    question: str
    session: str | None = None
    """Conversation name or UUID; None for a one-off question with no history."""
    selected_text: str | None = None
    filters: dict[str, Any] = field(default_factory=dict)


async def run_turn(
    turn: Turn,
    resources: Resources,
    on_token: Callable[[str], None] = lambda _: None,
    context: Context | None = None,
) -> dict[str, Any]:
    """Answer a turn, streaming answer text to `on_token`; returns the graph's final state."""
    context = context or Context()
    conn = await aconnect(resources.settings) if turn.session else None
    try:
        history: list[AnyMessage] = []
        session = session_uuid(turn.session) if turn.session else None
        if conn and session:
            await open_session(conn, session, resources.settings.book_id)
            history = await recent_messages(conn, session, context.history_window)
        state: InputState = {
            "messages": [*history, HumanMessage(turn.question)],
            "selected_text": turn.selected_text,
            "filters": turn.filters,
        }
        final: dict[str, Any] = {}
        stream = graph.astream(
            state,
            {"configurable": {"resources": resources}},
            context=context,
            stream_mode=["custom", "values"],
        )
        async for mode, payload in stream:  # (mode, event) pairs: two stream modes
            payload = cast(dict[str, Any], payload)
            if mode == "custom" and payload["event"] == "token":
                on_token(payload["text"])
            elif mode == "values":
                final = payload
        if conn and session:
            sources = final.get("sources", [])
            await record_turn(conn, session, turn.question, final.get("answer", ""), sources)
        return final
    finally:
        if conn:
            await conn.close()
