"""Ingest requests of a server: the durable workflow engine (DBOS) and the runs queued on it."""

import asyncio
import logging

from psycopg_pool import AsyncConnectionPool

from agent.service.schema_gate import SchemaGate
from core.embeddings import EmbeddingModel
from core.settings import Settings
from ingest.runs import RunRequest, request_run
from ingest.workflow import enqueue_run, launch_workflows, stop_workflows

log = logging.getLogger("bookrag.service")


class IngestDisabledError(RuntimeError):
    """This server was configured without ingest workflows."""


class IngestUnavailableError(RuntimeError):
    """The workflow engine did not start; the message says why."""


class IngestQueue:
    """Starts and stops the workflow engine, and queues the run that serves each request."""

    def __init__(self, settings: Settings, schema: SchemaGate) -> None:
        self.settings = settings
        self._schema = schema
        self._pool: AsyncConnectionPool | None = None
        self.problem: str | None = "not started"
        """Why ingest requests cannot be served; None while the engine runs."""

    @property
    def enabled(self) -> bool:
        """Whether this server runs ingests at all."""
        return self.settings.ingest_workflows

    async def start(self, model: EmbeddingModel, pool: AsyncConnectionPool) -> None:
        """Launch the engine (when enabled); it resumes the runs a previous process left.

        A failure does not stop the server: readers are still answered, and ingest requests
        get `IngestUnavailableError` saying what went wrong.
        """
        self._pool = pool
        if not self.enabled:
            return
        try:
            await asyncio.to_thread(launch_workflows, self.settings, model)
        except Exception as error:  # any failure of the engine: the API still answers
            self.problem = f"the ingest workflow engine did not start: {error}"
            log.warning(self.problem)
        else:
            self.problem = None

    async def stop(self) -> None:
        """Stop the engine; a run in progress resumes at the next start."""
        if self.enabled and self.problem is None:
            await asyncio.to_thread(stop_workflows)

    async def request(
        self,
        request_id: str,
        trigger: str,
        branch: str | None = None,
        commit: str | None = None,
        full: bool = False,
    ) -> RunRequest:
        """The run serving an ingest request (recorded, then queued on the engine).

        The engine is checked before the database is touched, so a server without ingests
        says so even while Postgres is down.
        """
        if not self.enabled:
            raise IngestDisabledError("this server does not run ingests")
        if self.problem is not None:
            raise IngestUnavailableError(self.problem)
        if self._pool is None:
            raise RuntimeError("the ingest queue has not started")
        await self._schema.ensure()
        async with self._pool.connection() as conn:
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
