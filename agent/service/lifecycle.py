"""What the app holds from start to stop: the book's resources, the database pool, the schema
gate, the ingest queue, the rate limits, and (on the embedded defaults) the watch that brings
the embedded PostgreSQL back if it dies."""

import asyncio
import logging

from psycopg_pool import AsyncConnectionPool

from agent.resources import Resources, build_resources, load_chat_model
from agent.retrieval.search import BookNotIngestedError
from agent.retrieval.vocabulary import book_vocabulary
from agent.service.errors import VECTOR_STORE_ERRORS
from agent.service.ingest_queue import IngestQueue
from agent.service.rate_limits import RateLimits
from agent.service.schema_gate import SchemaGate
from core.database import (
    DatabaseUnavailableError,
    keep_embedded_server_running,
    open_pool,
    stop_embedded_server,
)
from core.settings import Settings

log = logging.getLogger("bookrag.service")


class Lifecycle:
    """The parts every request shares: built when the app starts, closed when it stops."""

    def __init__(self, settings: Settings, resources: Resources | None = None) -> None:
        self.settings = settings
        self._resources = resources
        self._pool: AsyncConnectionPool | None = None
        self.schema = SchemaGate(settings)
        self.ingest = IngestQueue(settings, self.schema)
        self.limits = RateLimits(settings)
        self._watch: asyncio.Task[None] | None = None
        self._ingested = False

    async def start(self) -> None:
        """Open the book's index and models (off the event loop), the pool, the ingest engine.

        A database that does not answer yet does not stop the start: `/ready` reports it,
        requests that need it answer 503, and the schema is applied once it answers.
        """
        if self._resources is None:
            self._resources = await asyncio.to_thread(_deployment_resources, self.settings)
        await asyncio.to_thread(_warm_up, self._resources)
        self._pool = await open_pool(self.settings)
        self._watch = asyncio.create_task(keep_embedded_server_running(self.settings))
        try:
            await self.schema.ensure()
        except DatabaseUnavailableError as error:
            log.warning("starting without the database: %s", error)
        await self.ingest.start(self._resources.searcher.model, self._pool)

    async def stop(self) -> None:
        """Stop the workflow engine (a run resumes at the next start), close the pool, and let
        go of the embedded PostgreSQL (it stops unless another process still uses it)."""
        await self.ingest.stop()
        if self._watch is not None:
            self._watch.cancel()
        if self._pool is not None:
            await self._pool.close()
        await asyncio.to_thread(stop_embedded_server, self.settings)

    async def ensure_ingested(self) -> None:
        """`BookNotIngestedError` while the book's index holds nothing, so a question is never
        answered "the book does not cover this" only because nothing was ingested."""
        if self._ingested:  # a book, once ingested, stays so
            return
        index = self.resources.searcher.index
        points = await asyncio.to_thread(lambda: index.count() if index.exists() else 0)
        if not points:
            raise BookNotIngestedError(self.settings.book_id)
        self._ingested = True

    @property
    def resources(self) -> Resources:
        """The book's searcher, settings and chat model."""
        if self._resources is None:
            raise RuntimeError("the service has not started")
        return self._resources

    @property
    def pool(self) -> AsyncConnectionPool:
        """The Postgres connection pool (the schema may not be applied yet: see `schema`)."""
        if self._pool is None:
            raise RuntimeError("the service has not started")
        return self._pool


def _deployment_resources(settings: Settings) -> Resources:
    return build_resources(settings, load_chat_model(settings))


def _warm_up(resources: Resources) -> None:
    """Load what the first question would otherwise wait for: the model and the vocabulary."""
    resources.searcher.model.embeddings.embed_query("warm up")
    try:
        book_vocabulary(resources.searcher.index)
    except VECTOR_STORE_ERRORS as error:  # serve anyway: `/ready` says so, searches answer 503
        log.warning("the search index is unreachable at start: %s", error)
