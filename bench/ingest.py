"""Ingest speed on the humanoid textbook, from an empty embedding cache.

Run: `python -m bench.ingest`. Uses a throwaway embedded Postgres and vector store, so the
cache really starts empty. Prints: raw model throughput (tokens/s, the model alone on the corpus's
chunk texts), pipeline throughput on the full ingest, the pipeline's overhead, and
wall times of a no-op re-ingest and of a one-file change through the `bookrag` command.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.setup import CORPORA
from core.database import embedded_server_url
from core.embeddings import make_embedding_model
from core.settings import get_settings
from core.store import close_qdrant
from ingest.chunker import chunk_pages
from ingest.loader import load_documents
from ingest.recorded import run_ingest
from ingest.tokens import count_tokens


def timed_cli(env: dict[str, str]) -> float:
    """Wall time of one `bookrag ingest` process."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "agent.cli", "ingest"], env=env, check=True, capture_output=True
    )
    return time.perf_counter() - start


def main() -> int:
    """Print the ingest numbers."""
    source = CORPORA / "humanoid-textbook" / "docs"
    if not source.is_dir():
        print(f"no corpus at {source}", file=sys.stderr)
        return 1
    work = Path(tempfile.mkdtemp(prefix="bookrag-bench-"))
    docs = work / "docs"
    shutil.copytree(source, docs)
    settings = get_settings().model_copy(
        update={
            "data_dir": work / "data",
            "database_url": embedded_server_url(work / "pg"),
            "book_docs_dir": docs,
            "book_id": "bench-ingest",
        }
    )
    chunks = chunk_pages(load_documents(docs, settings).documents, settings)
    texts = [chunk.embedded_text for chunk in chunks]
    corpus_tokens = sum(count_tokens(text) for text in texts)
    model = make_embedding_model(settings)
    model.embeddings.embed_query("warm up")
    start = time.perf_counter()
    model.embeddings.embed_documents(texts)  # the model alone, same texts, same batching
    raw_tps = corpus_tokens / (time.perf_counter() - start)

    start = time.perf_counter()
    summary = run_ingest(settings)
    elapsed = time.perf_counter() - start
    pipeline_tps = corpus_tokens / elapsed
    print(
        f"documents={summary.total_documents} chunks={summary.total_chunks} "
        f"tokens={corpus_tokens} embedded={summary.embedded}"
    )
    print(f"raw model: {raw_tps:,.0f} tokens/s on the same {len(texts)} chunk texts")
    print(
        f"full ingest from empty cache: {elapsed:.1f} s, {pipeline_tps:,.0f} tokens/s, "
        f"overhead {100 * (1 - pipeline_tps / raw_tps):.1f} %"
    )

    env = {
        **os.environ,
        "DATA_DIR": str(settings.data_dir),
        "DATABASE_URL": str(settings.database_url),
        "BOOK_DOCS_DIR": str(docs),
        "BOOK_ID": settings.book_id,
    }
    close_qdrant()  # the CLI runs below need the embedded store's lock
    noop = [timed_cli(env) for _ in range(3)]
    print(
        f"no-op re-ingest (bookrag ingest): median {statistics.median(noop):.2f} s "
        f"(runs: {', '.join(f'{t:.2f}' for t in noop)})"
    )
    edited = sorted(docs.rglob("*.md"))[10]
    edited.write_text(edited.read_text() + "\n\nAn added closing paragraph for the benchmark.\n")
    print(f"one-file change (bookrag ingest): {timed_cli(env):.2f} s ({edited.name})")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
