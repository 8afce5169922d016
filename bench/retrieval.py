"""Retrieval quality on real books, stage by stage, beside the naive LangChain baseline.

Run: `python -m bench.retrieval` (needs the shared corpora next to the checkout). Prints one
table row per (corpus, system); per-question results go to `.data/bench/`.
"""

import json
import sys
from pathlib import Path

from agent.context import Context
from agent.evaluation.harness import graph_retriever
from agent.evaluation.metrics import EvalQuestion, Retriever, evaluate_retrieval, load_questions
from agent.resources import build_resources
from bench.baseline import NaiveIndex
from bench.setup import BENCH_DATA, CORPORA, QUESTIONS, bench_settings
from core.database import connect
from ingest.embedding_cache import EmbeddingCache
from ingest.recorded import run_ingest

SETS = {
    "humanoid-textbook": QUESTIONS / "humanoid_questions.jsonl",
    "redux-docs": QUESTIONS / "redux_questions.jsonl",
}
COLUMNS = ("n", "hit@1", "hit@3", "hit@5", "hit@10", "mrr@10", "lenient_hit@5")
STAGES = {
    "+ condense (history)": Context(reranker="none", structural_expansion=False),
    "+ structural expansion": Context(reranker="none"),
    "+ rerank (full graph query side)": Context(),
}


def systems(name: str) -> dict[str, Retriever]:
    """Every system to compare on one corpus, from the naive baseline to the full query side."""
    docs = CORPORA / name / "docs"
    settings = bench_settings(book_id=f"bench-{name}")
    run_ingest(settings, docs)
    resources = build_resources(settings)
    with connect(settings) as conn:
        naive = NaiveIndex(docs, EmbeddingCache(conn, resources.searcher.model))

    def hybrid(question: EvalQuestion):
        return resources.searcher.search(question.question, k=10)

    return {
        "naive baseline (1000/200 splits, dense)": lambda q: naive.search(q.question),
        "hybrid search (question only)": hybrid,
        **{stage: graph_retriever(resources, context) for stage, context in STAGES.items()},
    }


def main() -> int:
    """Print the comparison table."""
    if not CORPORA.is_dir():
        print(f"no corpora at {CORPORA}; nothing to measure", file=sys.stderr)
        return 1
    BENCH_DATA.mkdir(parents=True, exist_ok=True)
    print(f"| corpus | system | {' | '.join(COLUMNS)} |")
    print(f"|---|---|{'---|' * len(COLUMNS)}")
    for name, questions_file in SETS.items():
        questions = load_questions(questions_file)
        for system, retrieve in systems(name).items():
            report = evaluate_retrieval(questions, retrieve)
            cells = " | ".join(str(report[column]) for column in COLUMNS)
            print(f"| {name} | {system} | {cells} |", flush=True)
            slug = "".join(c if c.isalnum() else "-" for c in system)[:40]
            Path(BENCH_DATA / f"retrieval-{name}-{slug}.json").write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
