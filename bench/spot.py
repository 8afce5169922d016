"""The shipped system on books nothing was fitted on: the spot-check sets in `bench/spot/`.

Run: `python -m bench.spot --root DIR`, where `DIR/<name>/docs` holds each book's docs folder
at the commit its set was written for (the README's quality section lists them; a book whose
folder is missing is skipped). Each book is ingested into the bench store and its set scored
through the whole graph as shipped (weights fitted on the three shared books, answers
offline): one row per book, with the same columns as `bench.quality`. Per-question results
go to `.data/bench/spot-<name>-{retrieval,answers}.json`.
"""

import argparse
import json
import sys
from pathlib import Path

from agent.evaluation.harness import evaluate_answers, graph_retriever
from agent.evaluation.metrics import evaluate_retrieval, load_questions
from agent.resources import build_resources
from bench.quality import ANSWERS, RETRIEVAL, row_cells
from bench.setup import BENCH_DATA, REPO, bench_settings
from ingest.recorded import run_ingest

SPOT = REPO / "bench" / "spot"


def main(argv: list[str] | None = None) -> int:
    """Print one row per spot-check book found under `--root`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="folder of <name>/docs")
    args = parser.parse_args(argv)
    columns = [*RETRIEVAL, *ANSWERS]
    print(f"| book | {' | '.join(columns)} |")
    print(f"|---|{'---|' * len(columns)}")
    for questions_file in sorted(SPOT.glob("*_questions.jsonl")):
        name = questions_file.name.removesuffix("_questions.jsonl")
        docs = args.root / name / "docs"
        if not docs.is_dir():
            print(f"  skipped {name}: no {docs}", file=sys.stderr)
            continue
        settings = bench_settings(book_id=f"spot-{name}", llm_model=None)
        run_ingest(settings, docs)
        resources = build_resources(settings)
        questions = load_questions(questions_file)
        retrieval = evaluate_retrieval(questions, graph_retriever(resources))
        answers = evaluate_answers(questions, resources)
        for kind, report in (("retrieval", retrieval), ("answers", answers)):
            (BENCH_DATA / f"spot-{name}-{kind}.json").write_text(json.dumps(report))
        print(f"| {name} | {' | '.join(row_cells(retrieval, answers))} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
