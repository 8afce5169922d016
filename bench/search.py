"""Warm search latency at the humanoid corpus size, embedded store, query embedding included.

Run: `python -m bench.search` (after `bench.retrieval`, whose ingest it reuses).
"""

import statistics
import sys
import time

from bench.setup import QUESTIONS, ingested_humanoid
from ingest.embeddings import make_embedding_model
from ingest.evaluation import load_questions
from ingest.pipeline import open_index
from ingest.search import HybridSearcher, SearchFilters

ROUNDS = 3


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    """Print p50/p95 of unfiltered and filtered searches."""
    settings, summary = ingested_humanoid()
    model = make_embedding_model(settings)
    searcher = HybridSearcher(open_index(settings, model), model, settings.book_id)
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
            f"search {label}, {summary.total_chunks} chunks, {len(times)} queries: "
            f"p50 {statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
