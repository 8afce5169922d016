"""Liveness (`/health`) and readiness (`/ready`, with each dependency's state)."""

import asyncio
from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from agent.service.deps import LifecycleDep
from agent.service.lifecycle import Lifecycle
from agent.service.schemas import Health, Readiness, ReadyPart

router = APIRouter(tags=["health"])
READY_TIMEOUT_SECONDS = 5.0


@router.get("/health")
async def health() -> Health:
    """The process is up and its event loop answers."""
    return Health(status="ok")


# The probes take the lifecycle, not `ConnectionDep`: a part that does not answer is a line of
# the readiness report, where the dependency would answer the whole request 503.
async def _postgres(lifecycle: Lifecycle) -> str:
    await lifecycle.schema.ensure()
    async with lifecycle.pool.connection() as conn:
        await conn.execute("SELECT 1")
    return "connected, schema up to date"


async def _qdrant(lifecycle: Lifecycle) -> str:
    index = lifecycle.resources.searcher.index

    def count() -> int | None:
        return index.count() if index.exists() else None

    points = await asyncio.to_thread(count)
    if not points:
        raise LookupError(f"nothing is ingested in {index.name}; run `bookrag ingest`")
    return f"{index.engine} collection {index.name}: {points} points"


async def _embeddings(lifecycle: Lifecycle) -> str:
    model = lifecycle.resources.searcher.model
    await asyncio.to_thread(model.embeddings.embed_query, "ready")
    return f"{model.model_id} ({model.dimension} dimensions)"


async def _check(probe: Callable[[Lifecycle], Awaitable[str]], lifecycle: Lifecycle) -> ReadyPart:
    try:
        detail = await asyncio.wait_for(probe(lifecycle), READY_TIMEOUT_SECONDS)
    except Exception as error:  # any failure means "not ready"; say which and why
        return ReadyPart(ok=False, detail=f"{type(error).__name__}: {error}".strip())
    return ReadyPart(ok=True, detail=detail)


@router.get(
    "/ready",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "Not ready."}},
)
async def ready(lifecycle: LifecycleDep) -> Readiness | JSONResponse:
    """Whether Postgres, the book's Qdrant collection and the embedding model all answer.

    The ingest workflow engine is reported too (when enabled) but does not decide readiness:
    answering readers does not need it.
    """
    probes = {"postgres": _postgres, "qdrant": _qdrant, "embeddings": _embeddings}
    results = await asyncio.gather(*(_check(probe, lifecycle) for probe in probes.values()))
    parts = dict(zip(probes, results, strict=True))
    if lifecycle.ingest.enabled:
        problem = lifecycle.ingest.problem
        parts["ingest_workflows"] = ReadyPart(ok=problem is None, detail=problem or "running")
    report = Readiness(ready=all(part.ok for part in results), parts=parts)
    if report.ready:
        return report
    return JSONResponse(report.model_dump(), status_code=503)
