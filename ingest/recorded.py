"""One recorded ingest run: the four steps, each attempt recorded, and how the run ended.

`run_recorded` is the single path every ingest takes. The command line runs it in this process
(`run_ingest`); the durable workflow (`ingest.workflow`) runs it with each step checkpointed
and retried by DBOS. Either way the run shows up the same in `ingest_runs`/`ingest_steps`.
"""

import logging
from pathlib import Path
from typing import Any

from core.database import connect
from core.embeddings import EmbeddingModel, make_embedding_model
from core.settings import Settings
from core.store import open_index
from ingest.pipeline import Checkout, IngestSummary, ProgressFactory, StepCall, run_steps
from ingest.runs import describe, end_run, recorded, start_cli_run

log = logging.getLogger("bookrag.ingest")


def run_recorded(
    call: StepCall,
    settings: Settings,
    model: EmbeddingModel,
    run_id: str,
    *,
    docs_dir: Path | None = None,
    checkout: Checkout | None = None,
    full: bool = False,
    progress: ProgressFactory | None = None,
) -> IngestSummary:
    """Run the steps of the recorded run `run_id` through `call`, then record how it ended."""

    def recorded_call(name: str, step: Any, *args: Any) -> Any:
        result = call(name, recorded(settings, run_id, name, step), *args)
        log.info("run_id=%s step=%s status=completed", run_id, name)
        return result

    try:
        summary = run_steps(
            recorded_call,
            settings,
            model,
            docs_dir=docs_dir,
            checkout=checkout,
            full=full,
            progress=progress,
        )
    except Exception as error:
        call("end_run", finish_run, settings, run_id, None, describe(error))
        log.info("run_id=%s event=failed error=%r", run_id, describe(error))
        raise
    call("end_run", finish_run, settings, run_id, summary.as_dict(), None)
    log.info("run_id=%s event=completed", run_id)
    return summary


def finish_run(
    settings: Settings, run_id: str, summary: dict[str, Any] | None, error: str | None
) -> None:
    """Record the run's summary, or the error that stopped it."""
    with connect(settings) as conn:
        end_run(conn, run_id, summary, error)


def call_directly(name: str, step: Any, *args: Any) -> Any:
    """The in-process `StepCall`: run the step once, here."""
    return step(*args)


def run_ingest(
    settings: Settings,
    docs_dir: Path | None = None,
    full: bool = False,
    progress: ProgressFactory | None = None,
) -> IngestSummary:
    """Ingest in this process, recorded as a `cli` run beside the server's runs.

    The database must be migrated (`bookrag migrate`, or `core.database.migrate`).
    """
    model = make_embedding_model(settings)
    open_index(settings, model)  # a store locked by a server fails before anything is recorded
    with connect(settings) as conn:
        run_id = start_cli_run(conn, settings.book_id, full)
    return run_recorded(
        call_directly, settings, model, run_id, docs_dir=docs_dir, full=full, progress=progress
    )
