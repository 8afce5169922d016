"""Warm search latency at the humanoid corpus size, query embedding included, on the engine the
settings pick (the embedded Qdrant Edge unless `QDRANT_URL` is set).

Run: `python -m bench.search` (after `bench.retrieval`, whose ingest it reuses). `bench.scale`
measures larger books and the old local mode beside Edge.
"""

import statistics
import sys
import time

from agent.evaluation.metrics import load_questions
from agent.retrieval.search import HybridSearcher, SearchFilters
from bench.setup import QUESTIONS, ingested_humanoid
from core.embeddings import make_embedding_model
from core.store import open_index

ROUNDS = 3


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    """Print p50/p95 of unfiltered and filtered searches."""
    settings, summary = ingested_humanoid()
    model = make_embedding_model(settings)
    index = open_index(settings, model)
    searcher = HybridSearcher(index, model, settings.book_id)
    queries = [q.question for q in load_questions(QUESTIONS / "humanoid_questions.jsonl")]
    for query in queries[:5]:
        searcher.search(query)
    for label, filters in [
        ("unfiltered", None),
        (
            "filtered (tier<=2, chapter 1-3)",
            SearchFilters(hardware_tier=2, chapter_min=1, chapter_max=3),
        ),
    ]:
        times = []
        for _ in range(ROUNDS):
            for query in queries:
                start = time.perf_counter()
                searcher.search(query, k=10, filters=filters)
                times.append((time.perf_counter() - start) * 1000)
        print(
            f"search {label}, {index.engine}, {summary.total_chunks} chunks, {len(times)} queries: "
            f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
