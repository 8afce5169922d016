"""Ingest as a durable DBOS workflow on the same Postgres: named steps, retries, recovery.

`ingest_book(run_id)` runs the pipeline's steps (`load_documents → chunk_documents →
embed_documents → upsert_chunks`) as DBOS steps. Each step's output is checkpointed, so a
process killed mid-run resumes at its next start from the last completed step; a transient
error (the embedding service, Qdrant, Postgres) is retried with exponential backoff. Runs go
through a queue with concurrency 1: one run at a time. Each attempt of each step is also
recorded in `ingest_steps` (see `ingest.runs`) for the runs API and page.

DBOS is process-wide: `launch_workflows` starts it once per process with the settings and
embedding model the steps use, and `stop_workflows` shuts it down.
"""

import logging
from dataclasses import dataclass
from typing import Any

from dbos import DBOS, DBOSConfig, SetWorkflowID

from core.database import connect, database_url
from core.embeddings import EmbeddingModel, ModelFileError
from core.settings import Settings
from ingest.loader import DocsFolderNotFoundError
from ingest.pipeline import STEPS, Checkout
from ingest.recorded import run_recorded
from ingest.runs import RunTarget, begin_run
from ingest.work_tree import WorkTreeError

log = logging.getLogger("bookrag.ingest")

QUEUE = "bookrag-ingest"
PERMANENT_ERRORS = (DocsFolderNotFoundError, WorkTreeError, ModelFileError, LookupError)
"""Errors a retry cannot fix; anything else (network, service, database) is retried."""


@dataclass
class _Process:
    settings: Settings
    model: EmbeddingModel


_process: _Process | None = None


def _here() -> _Process:
    if _process is None:
        raise RuntimeError("ingest workflows are not launched in this process")
    return _process


def _transient(error: BaseException) -> bool:
    return not isinstance(error, PERMANENT_ERRORS)


RETRIES = {
    "retries_allowed": True,
    "max_attempts": 4,
    "interval_seconds": 1.0,
    "backoff_rate": 2.0,
    "should_retry": _transient,
}


def _checkpointed(name: str, step: Any, *args: Any) -> Any:
    """The workflow's `StepCall`: a DBOS step, retried (the ingest steps) and checkpointed."""
    options: Any = {"name": name, **RETRIES} if name in STEPS else {"name": name}
    return DBOS.run_step(options, step, *args)


def _begin(run_id: str) -> RunTarget:
    with connect(_here().settings) as conn:
        target = begin_run(conn, run_id)
    log.info("run_id=%s event=started trigger=%s commit=%s", run_id, target.trigger, target.commit)
    return target


@DBOS.workflow(name="ingest_book")
def ingest_book(run_id: str) -> dict:
    """Ingest the book for a recorded run, step by step."""
    here = _here()
    target = _checkpointed("begin_run", _begin, run_id)
    summary = run_recorded(
        _checkpointed,
        here.settings,
        here.model,
        run_id,
        checkout=Checkout(target.branch, target.commit),
        full=target.full,
    )
    return summary.as_dict()


def launch_workflows(settings: Settings, model: EmbeddingModel) -> None:
    """Start DBOS in this process (blocking; not on an event loop) and recover pending runs."""
    global _process
    _process = _Process(settings, model)
    config: DBOSConfig = {
        "name": "bookrag",
        "system_database_url": database_url(settings),
        "dbos_system_schema": settings.workflow_schema,
        "log_level": "WARNING",
    }
    DBOS(config=config)
    DBOS.launch()
    DBOS.register_queue(QUEUE, concurrency=1, polling_interval_sec=0.2)


def stop_workflows() -> None:
    """Shut DBOS down; a run in progress resumes at the next launch."""
    global _process
    DBOS.destroy()
    _process = None


def enqueue_run(run_id: str) -> None:
    """Queue the workflow of a recorded run; queuing the same run again does nothing."""
    with SetWorkflowID(run_id):
        DBOS.enqueue_workflow(QUEUE, ingest_book, run_id)
