"""The LangServe routes of the conversational graph at `/chat` (LangServe lives only here).

`/chat/stream` sends the answer as chunks `{"answer": "..."}`, then one chunk with the sources,
the session and the stored message id, then LangServe's `end` event. `/chat/invoke` returns
those chunks merged into one object. Clients may not send `configurable` (or any other config):
the session comes from the input and is checked before the stream starts, so one reader cannot
reach another's session or the server's settings through the config.
"""

import uuid
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from langchain_core.runnables import Runnable, RunnableGenerator
from langchain_core.runnables.utils import AddableDict
from langserve import add_routes
from langserve.server import EndpointName
from pydantic import BaseModel, Field

from agent.chat import Turn, TurnResult, stream_turn
from agent.service.deps import Service, service_of
from agent.service.errors import ApiError
from agent.service.schemas import ChatRequest
from agent.sessions import create_session, session_exists
from agent.state import Source

CHAT_ENDPOINTS: tuple[EndpointName, ...] = (
    "invoke",
    "stream",
    "stream_events",
    "playground",
    "input_schema",
    "output_schema",
)
"""No `batch` (it would bypass the per-turn limits) and no config endpoints (none is accepted)."""


class ChatChunk(BaseModel):
    """One streamed chunk: answer text, or (last) the sources and where the turn was stored."""

    answer: str | None = None
    sources: list[Source] | None = None
    session_id: str | None = None
    message_id: int | None = Field(None, description="Rate it with `POST /feedback`.")
    refused: bool | None = None
    session_expired: bool | None = None


def chat_runnable(service: Service) -> Runnable:
    """The chat turn as a streaming runnable over the service's resources and sessions."""

    async def turns(inputs: AsyncIterator[Any]) -> AsyncIterator[AddableDict]:
        async for raw in inputs:
            request = ChatRequest.model_validate(raw)
            await service.ensure_schema()
            session_id = request.session_id
            if session_id is None:
                async with service.pool.connection() as conn:
                    session_id = (await create_session(conn, service.settings.book_id))["id"]
            filters = request.filters.model_dump(exclude_none=True) if request.filters else {}
            turn = Turn(request.question, session_id, request.selected_text, filters)
            async for event in stream_turn(turn, service.resources, service.pool):
                if isinstance(event, TurnResult):
                    yield AddableDict(_closing_chunk(event))
                else:
                    yield AddableDict(answer=event)

    runnable = RunnableGenerator(turns, name="bookrag_chat")
    return runnable.with_types(input_type=ChatRequest, output_type=ChatChunk)  # type: ignore[arg-type]


def _closing_chunk(result: TurnResult) -> dict[str, Any]:
    return {
        "sources": result.sources,
        "session_id": str(result.session_id),
        "message_id": result.message_id,
        "refused": result.refused,
        "session_expired": result.session_expired,
    }


async def _admit_turn(config: dict[str, Any], request: Request) -> dict[str, Any]:
    """Before a stream starts: no client config, rate limits, and the session must exist."""
    service = service_of(request)
    service.check_client_rate(request)
    body = await request.json()
    sent_config = body.get("config") if isinstance(body, dict) else None
    if sent_config or request.path_params.get("config_hash"):
        raise ApiError(
            422,
            "config_not_allowed",
            "this endpoint accepts no `config`: pass the session as `input.session_id`",
        )
    given = body.get("input") if isinstance(body, dict) else None
    session_id = _uuid(given.get("session_id")) if isinstance(given, dict) else None
    if session_id is not None:
        service.check_session_rate(session_id)
        await service.ensure_schema()
        async with service.pool.connection() as conn:
            await session_exists(conn, session_id, service.settings.book_id)
    return config


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value)) if value is not None else None
    except ValueError:
        return None  # input validation reports it


def add_chat_routes(app: FastAPI, service: Service) -> None:
    """Mount `/chat/invoke`, `/chat/stream`, `/chat/stream_events`, `/chat/playground`..."""
    add_routes(
        app,
        chat_runnable(service),
        path="/chat",
        config_keys=(),
        per_req_config_modifier=_admit_turn,
        enabled_endpoints=CHAT_ENDPOINTS,
    )
