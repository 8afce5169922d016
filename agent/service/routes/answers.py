"""Question answering over plain REST: `/query` (the whole book) and `/highlight_query`."""

from fastapi import APIRouter

from agent.chat import Turn, run_turn
from agent.context import Context
from agent.service.deps import PoolDep, RateLimited, ServiceDep
from agent.service.routes import error_responses
from agent.service.schemas import (
    HighlightRequest,
    HighlightResponse,
    QueryRequest,
    QueryResponse,
)
from agent.sessions import create_session

router = APIRouter(tags=["answers"], dependencies=[RateLimited])


@router.post("/query", responses=error_responses(not_found="No such session."))
async def query(body: QueryRequest, service: ServiceDep, pool: PoolDep) -> QueryResponse:
    """Answer from the book with cited sources, or refuse when the book does not cover it.

    Without `session_id` a new session is created; pass the returned one to follow up.
    """
    service.check_session_rate(body.session_id)
    session_id = body.session_id
    if session_id is None:
        async with pool.connection() as conn:
            session_id = (await create_session(conn, service.settings.book_id))["id"]
    filters = body.filters.model_dump(exclude_none=True) if body.filters else {}
    context = Context(top_k=body.top_k) if body.top_k else Context()
    turn = Turn(body.question, session_id, filters=filters)
    result = await run_turn(turn, service.resources, pool, context)
    assert result.message_id is not None  # a turn with a session is always stored
    return QueryResponse(
        answer=result.answer,
        sources=result.sources,
        chunks_used=result.chunks_used,
        session_id=session_id,
        message_id=result.message_id,
        refused=result.refused,
        session_expired=result.session_expired,
    )


@router.post("/highlight_query", responses=error_responses())
async def highlight_query(body: HighlightRequest, service: ServiceDep) -> HighlightResponse:
    """Answer only from the selected text: no search, no other part of the book."""
    turn = Turn(body.question, selected_text=body.selected_text)
    result = await run_turn(turn, service.resources)
    return HighlightResponse(answer=result.answer, source_context=body.selected_text)
