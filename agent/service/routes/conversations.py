"""Sessions and feedback: `/sessions` and `/feedback`."""

import uuid
from datetime import timedelta

from fastapi import APIRouter, Response

from agent.feedback import record_feedback
from agent.service.deps import ConnectionDep, RateLimited, ServiceDep
from agent.service.routes import error_responses
from agent.service.schemas import (
    FeedbackRequest,
    FeedbackStored,
    SessionCreated,
    SessionView,
)
from agent.sessions import create_session, delete_session, session_view

router = APIRouter(tags=["conversations"], dependencies=[RateLimited])


@router.post("/sessions", status_code=201, responses=error_responses())
async def new_session(service: ServiceDep, conn: ConnectionDep) -> SessionCreated:
    """Start a conversation; pass its id with each question to keep the context."""
    row = await create_session(conn, service.settings.book_id)
    return SessionCreated(session_id=row["id"], created_at=row["created_at"])


@router.get("/sessions/{session_id}", responses=error_responses(not_found="No such session."))
async def get_session(
    session_id: uuid.UUID, service: ServiceDep, conn: ConnectionDep
) -> SessionView:
    """The conversation's messages, newest last, with their sources and feedback."""
    expiry = timedelta(hours=service.settings.session_expiry_hours)
    return SessionView.model_validate(
        await session_view(conn, session_id, service.settings.book_id, expiry)
    )


@router.delete(
    "/sessions/{session_id}",
    status_code=204,
    response_class=Response,
    responses=error_responses(not_found="No such session."),
)
async def remove_session(session_id: uuid.UUID, service: ServiceDep, conn: ConnectionDep) -> None:
    """Delete the conversation and all its messages."""
    await delete_session(conn, session_id, service.settings.book_id)


@router.post(
    "/feedback",
    status_code=201,
    responses=error_responses(not_found="No such answer."),
)
async def feedback(
    body: FeedbackRequest, service: ServiceDep, conn: ConnectionDep
) -> FeedbackStored:
    """Rate an answer (+1 or -1, with an optional comment); rating it again replaces it."""
    stored = await record_feedback(
        conn, service.settings.book_id, body.message_id, body.score, body.comment
    )
    return FeedbackStored(feedback_id=stored, message_id=body.message_id)
