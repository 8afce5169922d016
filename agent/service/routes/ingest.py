"""Re-ingesting the book: the GitHub webhook, the manual trigger, and the runs API and page."""

import uuid
from typing import Annotated

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import HTMLResponse, JSONResponse
from psycopg import AsyncConnection

from agent.service.deps import (
    AdminOnly,
    ConnectionDep,
    GitHubDelivery,
    IngestQueueDep,
    RateLimited,
    SettingsDep,
)
from agent.service.errors import ApiError
from agent.service.github import action_request_id, parse_push
from agent.service.pages import render_runs
from agent.service.routes import error_responses
from agent.service.schemas import IngestRun, IngestRunList, RunQueued, WebhookIgnored
from ingest.runs import get_run, list_runs

router = APIRouter(tags=["ingest"])


def _ignored(reason: str) -> JSONResponse:
    return JSONResponse({"status": "ignored", "reason": reason}, status_code=200)


# The two routes that queue a run take no connection: a ping or an ignored push needs no
# database, and the queue checks the workflow engine before it touches Postgres.
@router.post(
    "/webhook/github",
    status_code=202,
    response_model=RunQueued,
    responses={
        200: {"model": WebhookIgnored, "description": "A ping, or nothing of the book changed."},
        **error_responses(),
        401: {"description": "Missing or wrong signature or bearer token."},
    },
)
async def github_webhook(
    delivery: GitHubDelivery, settings: SettingsDep, queue: IngestQueueDep
) -> RunQueued | JSONResponse:
    """A GitHub push (signed with the webhook secret) or the GitHub Action's call (bearer
    `RAG_SECRET`): queue a re-ingest of the book. A replayed delivery returns its run."""
    if delivery.event == "ping":
        return JSONResponse({"status": "pong"}, status_code=200)
    if delivery.event != "push":
        return _ignored(f"{delivery.event} events do not change the book")
    push = parse_push(delivery.body)
    if push.files is not None and push.commit is None:
        return _ignored("the push deleted its branch")
    if not push.touches(settings.docs_glob):
        return _ignored(f"no changed file matches {settings.docs_glob}")
    request_id = delivery.delivery_id or action_request_id(push)
    run = await queue.request(request_id, "webhook", push.branch, push.commit)
    return RunQueued(run_id=run.run_id, status=run.status)


@router.post(
    "/ingest_book",
    status_code=202,
    dependencies=[AdminOnly],
    responses={**error_responses(), 401: {"description": "Missing or wrong admin token."}},
)
async def ingest_book(
    queue: IngestQueueDep,
    full: Annotated[bool, Body(embed=True, description="Rebuild the collection.")] = False,
) -> RunQueued:
    """Queue a re-ingest of the book by hand (bearer `ADMIN_TOKEN`)."""
    run = await queue.request(f"manual-{uuid.uuid4()}", "manual", full=full)
    return RunQueued(run_id=run.run_id, status=run.status)


async def _latest_runs(conn: AsyncConnection, book_id: str, limit: int) -> IngestRunList:
    found = await list_runs(conn, book_id, limit)
    return IngestRunList(runs=[IngestRun.model_validate(run) for run in found])


@router.get("/ingest/runs", dependencies=[RateLimited], responses=error_responses())
async def runs(
    settings: SettingsDep,
    conn: ConnectionDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> IngestRunList:
    """The latest ingest runs, newest first, each with its steps."""
    return await _latest_runs(conn, settings.book_id, limit)


@router.get(
    "/ingest/runs/{run_id}",
    dependencies=[RateLimited],
    responses=error_responses(not_found="No such run."),
)
async def run(
    run_id: Annotated[str, Path(max_length=200, pattern=r"^[A-Za-z0-9._:-]+$")],
    settings: SettingsDep,
    conn: ConnectionDep,
) -> IngestRun:
    """One ingest run: status, trigger, commit, each step and the summary."""
    found = await get_run(conn, settings.book_id, run_id)
    if found is None:
        raise ApiError(404, "unknown_run", f"no ingest run {run_id!r}")
    return IngestRun.model_validate(found)


@router.get("/ingest", response_class=HTMLResponse, dependencies=[RateLimited])
async def runs_page(settings: SettingsDep, conn: ConnectionDep) -> HTMLResponse:
    """A page with the latest runs and their steps; it refreshes while a run is active."""
    listing = await _latest_runs(conn, settings.book_id, limit=10)
    return HTMLResponse(render_runs(listing.runs))
