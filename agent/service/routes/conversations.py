"""Sessions and feedback: `/sessions` and `/feedback`."""

import uuid
from datetime import timedelta

from fastapi import APIRouter, Response

from agent.conversations.feedback import record_feedback
from agent.conversations.sessions import (
    authorize_session,
    create_session,
    delete_session,
    session_view,
)
from agent.service.deps import (
    BookDep,
    ConnectionDep,
    LifecycleDep,
    RateLimited,
    SessionTokenDep,
)
from agent.service.routes import error_responses
from agent.service.schemas import (
    FeedbackRequest,
    FeedbackStored,
    SessionCreated,
    SessionView,
)

router = APIRouter(tags=["conversations"], dependencies=[RateLimited])


@router.post("/sessions", status_code=201, responses=error_responses(not_found="No such book."))
async def new_session(book: BookDep, conn: ConnectionDep) -> SessionCreated:
    """Start a conversation about one book; pass its id with each question, and its token as
    `Authorization: Bearer`, to keep the context."""
    row = await create_session(conn, book.settings.book_id)
    return SessionCreated(
        session_id=row["id"], session_token=row["token"], created_at=row["created_at"]
    )


@router.get(
    "/sessions/{session_id}", responses=error_responses(not_found="No such session or book.")
)
async def get_session(
    session_id: uuid.UUID, token: SessionTokenDep, book: BookDep, conn: ConnectionDep
) -> SessionView:
    """The conversation's messages, newest last, with their sources and feedback."""
    book_id = book.settings.book_id
    await authorize_session(conn, session_id, book_id, token)
    expiry = timedelta(hours=book.settings.session_expiry_hours)
    return SessionView.model_validate(await session_view(conn, session_id, book_id, expiry))


@router.delete(
    "/sessions/{session_id}",
    status_code=204,
    response_class=Response,
    responses=error_responses(not_found="No such session or book."),
)
async def remove_session(
    session_id: uuid.UUID, token: SessionTokenDep, book: BookDep, conn: ConnectionDep
) -> None:
    """Delete the conversation and all its messages."""
    await authorize_session(conn, session_id, book.settings.book_id, token)
    await delete_session(conn, session_id, book.settings.book_id)


@router.post(
    "/feedback",
    status_code=201,
    responses=error_responses(not_found="No such answer, session or book."),
)
async def feedback(
    body: FeedbackRequest, token: SessionTokenDep, lifecycle: LifecycleDep, conn: ConnectionDep
) -> FeedbackStored:
    """Rate one of your session's answers (+1 or -1, with an optional comment); rating it
    again replaces the vote."""
    book = await lifecycle.book(body.book_id)
    await authorize_session(conn, body.session_id, book.settings.book_id, token)
    stored = await record_feedback(conn, body.session_id, body.message_id, body.score, body.comment)
    return FeedbackStored(feedback_id=stored, message_id=body.message_id)
