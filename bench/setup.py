"""Where benchmarks find the corpora and keep their stores."""

from pathlib import Path

from core.database import database_url, migrate
from core.settings import Settings, get_settings
from ingest.pipeline import IngestSummary
from ingest.recorded import run_ingest

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"
QUESTIONS = REPO / "tests" / "data"
BENCH_DATA = REPO / ".data" / "bench"
QUESTION_SETS = {
    "humanoid-textbook": QUESTIONS / "humanoid_questions.jsonl",
    "redux-docs": QUESTIONS / "redux_questions.jsonl",
    "prettier-docs": QUESTIONS / "prettier_questions.jsonl",
}
"""Each shared corpus and the question set written for it."""


def bench_settings(**overrides: object) -> Settings:
    """The user's settings and database (so the embedding cache is shared), a store of its own."""
    user = get_settings()
    values: dict[str, object] = {"data_dir": BENCH_DATA, "database_url": database_url(user)}
    values.update(overrides)
    settings = user.model_copy(update=values)
    migrate(settings)
    return settings


class CorpusMissingError(RuntimeError):
    """The shared real-book corpora are not next to the checkout."""


def ingested_humanoid() -> tuple[Settings, IngestSummary]:
    """The humanoid textbook ingested into the bench's store (incremental after the first run)."""
    docs = CORPORA / "humanoid-textbook" / "docs"
    if not docs.is_dir():
        raise CorpusMissingError(f"no corpus at {docs}")
    settings = bench_settings(book_id="bench-humanoid-textbook")
    return settings, run_ingest(settings, docs)
