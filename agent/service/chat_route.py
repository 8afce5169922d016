"""The LangServe routes of the conversational graph at `/chat` (LangServe lives only here).

`/chat/stream` sends the answer as chunks `{"answer": "..."}`, then one chunk with the sources,
the session (and, when this turn created it, its token), the stored message id and how the
answer was made, then LangServe's `end` event. `/chat/invoke` returns those chunks merged into
one object. Clients may not send `configurable` (or any other config): the session comes from
the input, and its token from `Authorization: Bearer`, and both are checked before the stream
starts, so one reader cannot reach another's session or the server's settings.

The routes are `invoke`, `stream`, `playground` and the two schemas. `batch` is off (it would
bypass the per-turn limits), and so is `stream_events`: it streams the graph's whole internal
state (every candidate chunk with its payload, about 1 MB a question), which no client needs.

LangServe calls the runnable and the admission check outside FastAPI's dependency injection, so
both take the pool from the lifecycle themselves; each holds a connection only briefly (see
`stream_turn`), never while the model answers.
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

from agent.conversations.sessions import authorize_session, create_session
from agent.conversations.turns import Turn, TurnResult, stream_turn
from agent.service.deps import (
    get_pool,
    lifecycle_of,
    limit_client,
    session_bearer,
    session_token,
)
from agent.service.errors import ApiError
from agent.service.lifecycle import Lifecycle
from agent.service.schemas import ChatRequest
from agent.state import Source

CHAT_ENDPOINTS: tuple[EndpointName, ...] = (
    "invoke",
    "stream",
    "stream_log",
    "playground",
    "input_schema",
    "output_schema",
)
"""No `batch`, no `stream_events` (see above) and no config endpoints (none is accepted)."""


class ChatChunk(BaseModel):
    """One streamed chunk: answer text, or (last) the sources and where the turn was stored."""

    answer: str | None = None
    sources: list[Source] | None = None
    session_id: str | None = None
    session_token: str | None = Field(
        None, description="Only when this turn created the session: the secret that owns it."
    )
    message_id: int | None = Field(None, description="Rate it with `POST /feedback`.")
    refused: bool | None = None
    session_expired: bool | None = None
    extractive: bool | None = Field(None, description="Answered without a language model.")
    degraded: bool | None = Field(None, description="A configured model failed meanwhile.")


def chat_runnable(lifecycle: Lifecycle) -> Runnable:
    """The chat turn as a streaming runnable over the app's resources and sessions."""

    async def turns(inputs: AsyncIterator[Any]) -> AsyncIterator[AddableDict]:
        async for raw in inputs:
            request = ChatRequest.model_validate(raw)
            resources = await lifecycle.book(request.book_id)  # admitted: known, ingested
            pool = await get_pool(lifecycle)
            session_id, new_token = request.session_id, None  # a given one was authorized
            if session_id is None:
                async with pool.connection() as conn:
                    created = await create_session(conn, resources.settings.book_id)
                session_id, new_token = created["id"], created["token"]
            filters = request.filters.model_dump(exclude_none=True) if request.filters else {}
            turn = Turn(
                request.question, session_id, request.selected_text, filters, request.page_title
            )
            async for event in stream_turn(turn, resources, pool):
                if isinstance(event, TurnResult):
                    yield AddableDict(_closing_chunk(event, new_token))
                else:
                    yield AddableDict(answer=event)

    runnable = RunnableGenerator(turns, name="bookrag_chat")
    return runnable.with_types(input_type=ChatRequest, output_type=ChatChunk)  # type: ignore[arg-type]


def _closing_chunk(result: TurnResult, new_token: str | None) -> dict[str, Any]:
    chunk = {
        "sources": result.sources,
        "session_id": str(result.session_id),
        "message_id": result.message_id,
        "refused": result.refused,
        "session_expired": result.session_expired,
        "extractive": result.extractive,
        "degraded": result.degraded,
    }
    return chunk | ({"session_token": new_token} if new_token else {})


async def _admit_turn(config: dict[str, Any], request: Request) -> dict[str, Any]:
    """Before a stream starts: no client config, rate limits, something ingested to answer
    from, and the session must be the caller's (its token in `Authorization: Bearer`)."""
    lifecycle = await lifecycle_of(request)
    await limit_client(request, lifecycle.limits)
    body = await request.json()
    sent_config = body.get("config") if isinstance(body, dict) else None
    if sent_config or request.path_params.get("config_hash"):
        raise ApiError(
            422,
            "config_not_allowed",
            "this endpoint accepts no `config`: pass the session as `input.session_id`",
        )
    given = body.get("input") if isinstance(body, dict) else None
    given = given if isinstance(given, dict) else {}
    book_id = given.get("book_id")
    book = await lifecycle.book(book_id if isinstance(book_id, str) else None)
    if not given.get("selected_text"):
        await lifecycle.ensure_ingested(book)  # a selection is answered without the index
    session_id = _uuid(given.get("session_id"))
    if session_id is not None:
        pool = await get_pool(lifecycle)
        token = await session_token(await session_bearer(request))
        async with pool.connection() as conn:
            await authorize_session(conn, session_id, book.settings.book_id, token)
        lifecycle.limits.check_session(session_id)  # only its owner can use up its limit
    return config


def _uuid(value: Any) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(value)) if value is not None else None
    except ValueError:
        return None  # input validation reports it


def add_chat_routes(app: FastAPI, lifecycle: Lifecycle) -> None:
    """Mount `/chat/invoke`, `/chat/stream`, `/chat/stream_events`, `/chat/playground`..."""
    add_routes(
        app,
        chat_runnable(lifecycle),
        path="/chat",
        config_keys=(),
        per_req_config_modifier=_admit_turn,
        enabled_endpoints=CHAT_ENDPOINTS,
    )
