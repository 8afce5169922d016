"""Re-ingesting the book: the GitHub webhook, the manual trigger, and the runs API and page."""

import html
import json
import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse

from agent.service.deps import RateLimited, ServiceDep
from agent.service.errors import ApiError
from agent.service.github import action_request_id, push_of, valid_bearer, valid_signature
from agent.service.routes import error_responses
from agent.service.schemas import IngestRun, IngestRunList, RunQueued, WebhookIgnored
from ingest.runs import get_run, list_runs

router = APIRouter(tags=["ingest"])


def _ignored(reason: str) -> JSONResponse:
    return JSONResponse({"status": "ignored", "reason": reason}, status_code=200)


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
async def github_webhook(request: Request, service: ServiceDep) -> RunQueued | JSONResponse:
    """A GitHub push (signed with the webhook secret) or the GitHub Action's call (bearer
    `RAG_SECRET`): queue a re-ingest of the book. A replayed delivery returns its run."""
    body = await request.body()
    settings = service.settings
    signed = bool(settings.github_webhook_secret) and valid_signature(
        settings.github_webhook_secret or "", body, request.headers.get("x-hub-signature-256")
    )
    bearer = bool(settings.rag_secret) and valid_bearer(
        settings.rag_secret or "", request.headers.get("authorization")
    )
    if not (signed or bearer):
        raise ApiError(401, "unauthorized", "missing or wrong webhook signature or bearer token")
    event = request.headers.get("x-github-event", "push")
    if event == "ping":
        return JSONResponse({"status": "pong"}, status_code=200)
    if event != "push":
        return _ignored(f"{event} events do not change the book")
    try:
        payload = json.loads(body)
    except ValueError:
        raise ApiError(400, "malformed_json", "the webhook body is not valid JSON") from None
    if not isinstance(payload, dict):
        raise ApiError(422, "invalid_request", "the webhook body must be a JSON object")
    push = push_of(payload)
    if push.files is not None and push.commit is None:
        return _ignored("the push deleted its branch")
    if not push.touches(settings.docs_glob):
        return _ignored(f"no changed file matches {settings.docs_glob}")
    delivery = request.headers.get("x-github-delivery") if signed else None
    request_id = delivery or action_request_id(push)
    run = await service.queue_ingest(request_id, "webhook", push.branch, push.commit)
    return RunQueued(run_id=run.run_id, status=run.status)


@router.post(
    "/ingest_book",
    status_code=202,
    responses={**error_responses(), 401: {"description": "Missing or wrong admin token."}},
)
async def ingest_book(
    request: Request,
    service: ServiceDep,
    full: Annotated[bool, Body(embed=True, description="Rebuild the collection.")] = False,
) -> RunQueued:
    """Queue a re-ingest of the book by hand (bearer `ADMIN_TOKEN`)."""
    token = service.settings.admin_token
    if not token or not valid_bearer(token, request.headers.get("authorization")):
        raise ApiError(401, "unauthorized", "missing or wrong admin bearer token")
    run = await service.queue_ingest(f"manual-{uuid.uuid4()}", "manual", full=full)
    return RunQueued(run_id=run.run_id, status=run.status)


@router.get("/ingest/runs", dependencies=[RateLimited], responses=error_responses())
async def runs(
    service: ServiceDep, limit: Annotated[int, Query(ge=1, le=100)] = 20
) -> IngestRunList:
    """The latest ingest runs, newest first, each with its steps."""
    await service.ensure_schema()
    async with service.pool.connection() as conn:
        found = await list_runs(conn, service.settings.book_id, limit)
    return IngestRunList(runs=[IngestRun.model_validate(run) for run in found])


@router.get(
    "/ingest/runs/{run_id}",
    dependencies=[RateLimited],
    responses=error_responses(not_found="No such run."),
)
async def run(run_id: Annotated[str, Path(max_length=200)], service: ServiceDep) -> IngestRun:
    """One ingest run: status, trigger, commit, each step and the summary."""
    await service.ensure_schema()
    async with service.pool.connection() as conn:
        found = await get_run(conn, service.settings.book_id, run_id)
    if found is None:
        raise ApiError(404, "unknown_run", f"no ingest run {run_id!r}")
    return IngestRun.model_validate(found)


@router.get("/ingest", response_class=HTMLResponse, dependencies=[RateLimited])
async def runs_page(service: ServiceDep) -> HTMLResponse:
    """A page with the latest runs and their steps; it refreshes while a run is active."""
    listing = await runs(service, limit=10)
    return HTMLResponse(render_runs([run.model_dump() for run in listing.runs]))


def render_runs(runs: list[dict[str, Any]]) -> str:
    """The runs page."""
    active = any(run["status"] in ("queued", "running") for run in runs)
    refresh = '<meta http-equiv="refresh" content="2">' if active else ""
    rows = []
    for run in runs:
        steps = "".join(
            f"<li>{html.escape(step['name'])}: {html.escape(step['status'])}"
            f" ({step['attempts']} attempt{'s' if step['attempts'] != 1 else ''})"
            + (f" <em>{html.escape(step['error'])}</em>" if step["error"] else "")
            + "</li>"
            for step in run["steps"]
        )
        outcome = run["error"] or (json.dumps(run["summary"]) if run["summary"] else "")
        cells = [
            run["run_id"],
            run["status"],
            run["trigger"],
            (run["commit"] or "")[:12],
            str(run["requested_at"])[:19],
        ]
        rows.append(
            "<tr>"
            + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells)
            + f"<td><ul>{steps}</ul></td><td>{html.escape(outcome)}</td></tr>"
        )
    empty = '<tr><td colspan="7">No ingest runs yet.</td></tr>'
    return (
        f"<!doctype html><html><head><meta charset=utf-8>{refresh}"
        "<title>bookrag ingest runs</title><style>body{font-family:sans-serif}"
        "td,th{border-bottom:1px solid #ddd;padding:4px 8px;vertical-align:top}</style>"
        "</head><body><h1>Ingest runs</h1><table><tr><th>run</th><th>status</th>"
        "<th>trigger</th><th>commit</th><th>requested</th><th>steps</th><th>outcome</th></tr>"
        f"{''.join(rows) or empty}</table></body></html>"
    )
