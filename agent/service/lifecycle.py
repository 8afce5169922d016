"""What the app holds from start to stop: the books' resources, the database pool, the schema
gate, the ingest queue, the rate limits, and (on the embedded defaults) the watch that brings
the embedded PostgreSQL back if it dies.

One server answers from every book ingested beside the configured one (same data folder or
Qdrant server, same embedding model). A request names its book with `book_id`; without one it
gets the configured book. Another book's citations point where that book was ingested (the
site of its pages' URLs), its refusals name it as it was ingested (`DOCS_NAME` then; see
`agent.resources.as_ingested`), and its sessions are its own.
"""

import asyncio
import logging
import threading

from psycopg_pool import AsyncConnectionPool

from agent.offline.cross_encoder import cross_encoder
from agent.offline.spelling import english_words
from agent.resources import Resources, as_ingested, build_resources, load_chat_model
from agent.retrieval.search import BookNotIngestedError, open_searcher
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
from core.store import served_books

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
        self._by_book: dict[str, Resources] = {}
        """Every book's resources once opened, the configured book's from the start."""
        self._opening = threading.Lock()
        self._ingested: set[str] = set()

    async def start(self) -> None:
        """Open the book's index and models (off the event loop), the pool, the ingest engine.

        A database that does not answer yet does not stop the start: `/ready` reports it,
        requests that need it answer 503, and the schema is applied once it answers.
        """
        if self._resources is None:
            self._resources = await asyncio.to_thread(_deployment_resources, self.settings)
        await asyncio.to_thread(_warm_up, self._resources)
        self._by_book[self._resources.settings.book_id] = self._resources
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

    async def book(self, book_id: str | None = None) -> Resources:
        """The resources of `book_id` (None: the configured book); `UnknownBookError` when no
        index of that book exists here. Opening another book's index runs in a thread."""
        if book_id is None:
            return self.resources
        if book_id in self._by_book:  # no lock: an opening book keeps no one else waiting
            return self._by_book[book_id]
        return await asyncio.to_thread(self._open_book, book_id)

    async def answerable_book(self, book_id: str | None = None) -> Resources:
        """`book`, and `BookNotIngestedError` while its index holds nothing, so a question is
        never answered "the book does not cover this" only because nothing was ingested."""
        resources = await self.book(book_id)
        await self.ensure_ingested(resources)
        return resources

    async def books(self) -> list[str]:
        """Every book this server can answer from, sorted."""
        return await asyncio.to_thread(served_books, self.settings, self.resources.searcher.model)

    async def ensure_ingested(self, resources: Resources) -> None:
        """`BookNotIngestedError` while the book's index is empty."""
        book_id = resources.settings.book_id
        if book_id in self._ingested:  # a book, once ingested, stays so
            return
        index = resources.searcher.index
        points = await asyncio.to_thread(index.count)
        if not points:
            raise BookNotIngestedError(book_id)
        self._ingested.add(book_id)

    def _open_book(self, book_id: str) -> Resources:
        with self._opening:  # one opening at a time, so a book is never opened twice
            if book_id not in self._by_book:
                searcher = open_searcher(self.settings, self.resources.searcher.model, book_id)
                settings = self.resources.settings.model_copy(update={"book_id": book_id})
                opened = Resources(settings, searcher, self.resources.chat_model)
                self._by_book[book_id] = as_ingested(opened)
            return self._by_book[book_id]

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
    """Load what the first question would otherwise wait for: the models, the English word
    list and the vocabulary."""
    resources.searcher.model.embeddings.embed_query("warm up")
    cross_encoder().scores("warm up", ["warm up"])
    english_words()
    try:
        book_vocabulary(resources.searcher.index)
    except VECTOR_STORE_ERRORS as error:  # serve anyway: `/ready` says so, searches answer 503
        log.warning("the search index is unreachable at start: %s", error)
