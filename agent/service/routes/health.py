"""Liveness (`/health`) and readiness (`/ready`, with each dependency's state)."""

import asyncio
from collections.abc import Awaitable, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from agent.service.deps import Service, ServiceDep
from agent.service.schemas import Health, Readiness, ReadyPart

router = APIRouter(tags=["health"])
READY_TIMEOUT_SECONDS = 5.0


@router.get("/health")
async def health() -> Health:
    """The process is up and its event loop answers."""
    return Health(status="ok")


async def _postgres(service: Service) -> str:
    await service.ensure_schema()
    async with service.pool.connection() as conn:
        await conn.execute("SELECT 1")
    return "connected, schema up to date"


async def _qdrant(service: Service) -> str:
    index = service.resources.searcher.index

    def count() -> int | None:
        return index.client.count(index.name).count if index.exists() else None

    points = await asyncio.to_thread(count)
    if points is None:
        raise LookupError(f"collection {index.name} does not exist; run `bookrag ingest`")
    return f"collection {index.name}: {points} points"


async def _embeddings(service: Service) -> str:
    model = service.resources.searcher.model
    await asyncio.to_thread(model.embeddings.embed_query, "ready")
    return f"{model.model_id} ({model.dimension} dimensions)"


async def _check(probe: Callable[[Service], Awaitable[str]], service: Service) -> ReadyPart:
    try:
        detail = await asyncio.wait_for(probe(service), READY_TIMEOUT_SECONDS)
    except Exception as error:  # any failure means "not ready"; say which and why
        return ReadyPart(ok=False, detail=f"{type(error).__name__}: {error}".strip())
    return ReadyPart(ok=True, detail=detail)


@router.get(
    "/ready",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "Not ready."}},
)
async def ready(service: ServiceDep) -> Readiness | JSONResponse:
    """Whether Postgres, the book's Qdrant collection and the embedding model all answer.

    The ingest workflow engine is reported too (when enabled) but does not decide readiness:
    answering readers does not need it.
    """
    probes = {"postgres": _postgres, "qdrant": _qdrant, "embeddings": _embeddings}
    results = await asyncio.gather(*(_check(probe, service) for probe in probes.values()))
    parts = dict(zip(probes, results, strict=True))
    if service.settings.ingest_workflows:
        problem = service.workflows_problem
        parts["ingest_workflows"] = ReadyPart(ok=problem is None, detail=problem or "running")
    report = Readiness(ready=all(part.ok for part in results), parts=parts)
    if report.ready:
        return report
    return JSONResponse(report.model_dump(), status_code=503)
