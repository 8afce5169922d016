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

from dbos import DBOS, DBOSConfig, SetWorkflowID

from ingest.database import connect, database_url
from ingest.documents import LoadResult
from ingest.embeddings import EmbeddingModel, ModelFileError
from ingest.loader import DocsFolderNotFoundError, load_documents
from ingest.pipeline import (
    ChunkPlan,
    EmbedCounts,
    embed_documents,
    open_index,
    plan_chunks,
    summarize,
    upsert_chunks,
)
from ingest.runs import RunTarget, begin_run, describe, end_run, recorded_step
from ingest.settings import Settings
from ingest.work_tree import WorkTreeError, sync_to_commit

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


@DBOS.step(name="begin_run")
def _begin(run_id: str) -> RunTarget:
    with connect(_here().settings) as conn:
        target = begin_run(conn, run_id)
    log.info("run_id=%s event=started trigger=%s commit=%s", run_id, target.trigger, target.commit)
    return target


@DBOS.step(name="load_documents", **RETRIES)  # type: ignore[arg-type]
def _load(run_id: str, target: RunTarget) -> LoadResult:
    settings = _here().settings
    with recorded_step(settings, run_id, "load_documents"):
        at = sync_to_commit(settings.book_docs_dir, target.branch, target.commit)
        loaded = load_documents(settings.book_docs_dir, settings)
    log.info("run_id=%s step=load_documents pages=%d commit=%s", run_id, len(loaded.documents), at)
    return loaded


@DBOS.step(name="chunk_documents", **RETRIES)  # type: ignore[arg-type]
def _chunk(run_id: str, loaded: LoadResult, full: bool) -> ChunkPlan:
    here = _here()
    with recorded_step(here.settings, run_id, "chunk_documents"):
        plan = plan_chunks(loaded, here.settings, open_index(here.settings, here.model), full)
    log.info("run_id=%s step=chunk_documents chunks=%d", run_id, len(plan.chunks))
    return plan


@DBOS.step(name="embed_documents", **RETRIES)  # type: ignore[arg-type]
def _embed(run_id: str, plan: ChunkPlan) -> EmbedCounts:
    here = _here()
    with recorded_step(here.settings, run_id, "embed_documents"):
        counts = embed_documents(plan, here.settings, here.model)
    log.info("run_id=%s step=embed_documents embedded=%d", run_id, counts.embedded)
    return counts


@DBOS.step(name="upsert_chunks", **RETRIES)  # type: ignore[arg-type]
def _upsert(run_id: str, plan: ChunkPlan) -> tuple[int, int]:
    here = _here()
    with recorded_step(here.settings, run_id, "upsert_chunks"):
        index = open_index(here.settings, here.model)
        written, deleted = upsert_chunks(plan, here.settings, here.model, index)
    log.info("run_id=%s step=upsert_chunks written=%d deleted=%d", run_id, written, deleted)
    return written, deleted


@DBOS.step(name="end_run")
def _end(run_id: str, summary: dict | None, error: str | None) -> None:
    with connect(_here().settings) as conn:
        end_run(conn, run_id, summary, error)
    log.info("run_id=%s event=%s error=%r", run_id, "failed" if error else "completed", error)


@DBOS.workflow(name="ingest_book")
def ingest_book(run_id: str) -> dict:
    """Ingest the book for a recorded run, step by step."""
    target = _begin(run_id)
    try:
        loaded = _load(run_id, target)
        plan = _chunk(run_id, loaded, target.full)
        counts = _embed(run_id, plan)
        written, deleted = _upsert(run_id, plan)
    except Exception as error:
        _end(run_id, None, describe(error))
        raise
    summary = summarize(plan, counts, written, deleted).as_dict()
    _end(run_id, summary, None)
    return summary


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
