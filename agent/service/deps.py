"""What routes depend on: the shared parts (index, models, pool, limits, ingest queue)."""

import asyncio
import logging
import math
import uuid
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from agent.resources import Resources, build_resources, load_chat_model
from agent.service.errors import VECTOR_STORE_ERRORS, ApiError
from agent.service.limits import RateLimiter
from agent.vocabulary import book_vocabulary
from ingest.database import DatabaseUnavailableError, connect, open_pool
from ingest.runs import RunRequest, request_run
from ingest.settings import Settings
from ingest.workflow import enqueue_run, launch_workflows, stop_workflows

log = logging.getLogger("bookrag.service")


class Service:
    """The parts every request shares: built when the app starts, closed when it stops."""

    def __init__(self, settings: Settings, resources: Resources | None = None) -> None:
        self.settings = settings
        self._resources = resources
        self._pool: AsyncConnectionPool | None = None
        self.client_limiter = RateLimiter(settings.rate_limit_client_per_minute)
        self.session_limiter = RateLimiter(settings.rate_limit_session_per_minute)
        self.schema_ready = False
        self._schema_lock = asyncio.Lock()
        self.workflows_problem: str | None = "not started"

    async def start(self) -> None:
        """Open the book's index and models (off the event loop) and the database pool.

        A database that does not answer yet does not stop the start: `/ready` reports it,
        requests that need it answer 503, and the schema is applied once it answers.
        """
        if self._resources is None:
            self._resources = await asyncio.to_thread(_deployment_resources, self.settings)
        await asyncio.to_thread(_warm_up, self._resources)
        self._pool = await open_pool(self.settings)
        try:
            await self.ensure_schema()
        except DatabaseUnavailableError as error:
            log.warning("starting without the database: %s", error)
        if self.settings.ingest_workflows:
            await self._launch_workflows()

    async def _launch_workflows(self) -> None:
        try:
            await asyncio.to_thread(launch_workflows, self.settings, self.resources.searcher.model)
        except Exception as error:  # the API still answers; ingest requests get a 503
            self.workflows_problem = f"the ingest workflow engine did not start: {error}"
            log.warning(self.workflows_problem)
        else:
            self.workflows_problem = None

    async def stop(self) -> None:
        """Stop the workflow engine (a run resumes at the next start); close the pool."""
        if self.settings.ingest_workflows and self.workflows_problem is None:
            await asyncio.to_thread(stop_workflows)
        if self._pool is not None:
            await self._pool.close()

    async def queue_ingest(
        self,
        request_id: str,
        trigger: str,
        branch: str | None = None,
        commit: str | None = None,
        full: bool = False,
    ) -> RunRequest:
        """The run serving an ingest request, queued on the workflow engine."""
        if not self.settings.ingest_workflows:
            raise ApiError(503, "ingest_disabled", "this server does not run ingests")
        if self.workflows_problem is not None:
            raise ApiError(503, "ingest_unavailable", self.workflows_problem)
        await self.ensure_schema()
        async with self.pool.connection() as conn:
            run = await request_run(
                conn,
                self.settings.book_id,
                request_id,
                trigger,
                branch=branch,
                commit=commit,
                full=full,
            )
        await asyncio.to_thread(enqueue_run, run.run_id)  # does nothing for a known run
        return run

    @property
    def resources(self) -> Resources:
        """The book's searcher, settings and chat model."""
        if self._resources is None:
            raise RuntimeError("the service has not started")
        return self._resources

    @property
    def pool(self) -> AsyncConnectionPool:
        """The Postgres connection pool."""
        if self._pool is None:
            raise RuntimeError("the service has not started")
        return self._pool

    async def ensure_schema(self) -> None:
        """Apply pending migrations once the database answers (at start-up, or on first use)."""
        if self.schema_ready:
            return
        async with self._schema_lock:
            if not self.schema_ready:
                await asyncio.to_thread(lambda: connect(self.settings).close())
                self.schema_ready = True

    def check_client_rate(self, request: Request) -> None:
        """429 when this client address sends too much."""
        client = request.client.host if request.client else "unknown"
        _raise_if_limited(self.client_limiter.retry_after(client), "this client")

    def check_session_rate(self, session_id: uuid.UUID | None) -> None:
        """429 when one session asks too fast."""
        if session_id is not None:
            wait = self.session_limiter.retry_after(str(session_id))
            _raise_if_limited(wait, "this session")


def _deployment_resources(settings: Settings) -> Resources:
    return build_resources(settings, load_chat_model(settings))


def _warm_up(resources: Resources) -> None:
    """Load what the first question would otherwise wait for: the model and the vocabulary."""
    resources.searcher.model.embeddings.embed_query("warm up")
    try:
        book_vocabulary(resources.searcher.index)
    except VECTOR_STORE_ERRORS as error:  # serve anyway: `/ready` says so, searches answer 503
        log.warning("the search index is unreachable at start: %s", error)


def _raise_if_limited(wait: float | None, who: str) -> None:
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            "rate_limited",
            f"too many requests from {who}; retry in {seconds} s",
            {"Retry-After": str(seconds)},
        )


def service_of(request: Request) -> Service:
    """The service the app was started with."""
    service: Service = request.app.state.service
    return service


ServiceDep = Annotated[Service, Depends(service_of)]


async def rate_limited_client(request: Request, service: ServiceDep) -> None:
    """Apply the per-client rate limit."""
    service.check_client_rate(request)


async def database(service: ServiceDep) -> AsyncConnectionPool:
    """The connection pool, once the schema is in place (503 when the database is down)."""
    await service.ensure_schema()
    return service.pool


PoolDep = Annotated[AsyncConnectionPool, Depends(database)]


async def connection(pool: PoolDep) -> AsyncIterator[AsyncConnection]:
    """One pooled connection for the request."""
    async with pool.connection() as conn:
        yield conn


ConnectionDep = Annotated[AsyncConnection, Depends(connection)]
RateLimited = Depends(rate_limited_client)
