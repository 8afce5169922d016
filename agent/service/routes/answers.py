"""Question answering over plain REST: `/query` (the whole book) and `/highlight_query`."""

from fastapi import APIRouter

from agent.context import Context
from agent.conversations.sessions import authorize_session, create_session
from agent.conversations.turns import Turn, run_turn
from agent.service.deps import (
    LifecycleDep,
    PoolDep,
    RateLimited,
    RateLimitsDep,
    ResourcesDep,
    SessionTokenDep,
)
from agent.service.routes import error_responses
from agent.service.schemas import (
    HighlightRequest,
    HighlightResponse,
    QueryRequest,
    QueryResponse,
)

router = APIRouter(tags=["answers"], dependencies=[RateLimited])


@router.post("/query", responses=error_responses(not_found="No such session or book."))
async def query(
    body: QueryRequest,
    lifecycle: LifecycleDep,
    limits: RateLimitsDep,
    pool: PoolDep,
    token: SessionTokenDep,
) -> QueryResponse:
    """Answer from the book with cited sources, or refuse when the book does not cover it.

    Without `session_id` a new session is created; its id and token come back with the
    answer: send both (the token as `Authorization: Bearer`) to follow up. A session belongs
    to the book it was made for.
    """
    resources = await lifecycle.answerable_book(body.book_id)
    book_id = resources.settings.book_id
    # The pool, not one connection for the request: a turn takes a connection only to read
    # and to write the session, never while the model answers (which may take a minute).
    session_id, new_token = body.session_id, None
    async with pool.connection() as conn:
        if session_id is None:
            created = await create_session(conn, book_id)
            session_id, new_token = created["id"], created["token"]
        else:
            await authorize_session(conn, session_id, book_id, token)
    limits.check_session(session_id)
    filters = body.filters.model_dump(exclude_none=True) if body.filters else {}
    context = Context(top_k=body.top_k) if body.top_k else Context()
    turn = Turn(body.question, session_id, filters=filters, page_title=body.page_title)
    result = await run_turn(turn, resources, pool, context)
    assert result.message_id is not None  # a turn with a session is always stored
    return QueryResponse(
        answer=result.answer,
        sources=result.sources,
        chunks_used=result.chunks_used,
        session_id=session_id,
        session_token=new_token,
        message_id=result.message_id,
        refused=result.refused,
        session_expired=result.session_expired,
        extractive=result.extractive,
        degraded=result.degraded,
    )


@router.post("/highlight_query", responses=error_responses())
async def highlight_query(body: HighlightRequest, resources: ResourcesDep) -> HighlightResponse:
    """Answer only from the selected text: no search, no other part of the book."""
    turn = Turn(body.question, selected_text=body.selected_text)
    result = await run_turn(turn, resources)
    return HighlightResponse(answer=result.answer, source_context=body.selected_text)
