"""Retrieval quality on real books: bookrag's hybrid search beside the naive LangChain baseline.

Run: `python -m bench.retrieval` (needs the shared corpora next to the checkout).
Prints one table row per (corpus, system) and writes per-question results to `.data/bench/`.
"""

import json
import sys
from pathlib import Path

from bench.baseline import NaiveIndex
from bench.setup import CORPORA, QUESTIONS, bench_settings
from ingest.database import connect
from ingest.embedding_cache import EmbeddingCache
from ingest.embeddings import make_embedding_model
from ingest.evaluation import EvalQuestion, evaluate_retrieval, load_questions
from ingest.pipeline import open_index, run_ingest
from ingest.search import HybridSearcher

SETS = {
    "humanoid-textbook": QUESTIONS / "humanoid_questions.jsonl",
    "redux-docs": QUESTIONS / "redux_questions.jsonl",
}
COLUMNS = ("n", "hit@1", "hit@3", "hit@5", "hit@10", "mrr@10", "lenient_hit@5")


def evaluate_corpus(name: str, questions_file: Path) -> dict[str, dict]:
    """Reports of both systems on one corpus."""
    docs = CORPORA / name / "docs"
    questions = load_questions(questions_file)
    settings = bench_settings(book_id=f"bench-{name}")
    run_ingest(settings, docs)
    model = make_embedding_model(settings)
    searcher = HybridSearcher(open_index(settings, model), model, settings.book_id)

    def hybrid(question: EvalQuestion):
        return searcher.search(question.question, k=10)

    with connect(settings) as conn:
        naive = NaiveIndex(docs, EmbeddingCache(conn, model))
    return {
        "bookrag hybrid": evaluate_retrieval(questions, hybrid),
        "naive baseline": evaluate_retrieval(questions, lambda q: naive.search(q.question)),
    }


def main() -> int:
    """Print the comparison table."""
    if not CORPORA.is_dir():
        print(f"no corpora at {CORPORA}; nothing to measure", file=sys.stderr)
        return 1
    out = Path(".data/bench")
    out.mkdir(parents=True, exist_ok=True)
    print(f"| corpus | system | {' | '.join(COLUMNS)} |")
    print(f"|---|---|{'---|' * len(COLUMNS)}")
    for name, questions_file in SETS.items():
        for system, report in evaluate_corpus(name, questions_file).items():
            cells = " | ".join(str(report[column]) for column in COLUMNS)
            print(f"| {name} | {system} | {cells} |", flush=True)
            slug = system.replace(" ", "-")
            (out / f"retrieval-{name}-{slug}.json").write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
