"""Where benchmarks find the corpora and keep their stores."""

from pathlib import Path

from ingest.database import database_url
from ingest.settings import Settings, get_settings

REPO = Path(__file__).resolve().parents[1]
CORPORA = REPO.parent / "shared" / "corpora"
QUESTIONS = REPO / "tests" / "data"
BENCH_DATA = REPO / ".data" / "bench"


def bench_settings(**overrides: object) -> Settings:
    """The user's settings and database (so the embedding cache is shared), a store of its own."""
    user = get_settings()
    values: dict[str, object] = {"data_dir": BENCH_DATA, "database_url": database_url(user)}
    values.update(overrides)
    return user.model_copy(update=values)
