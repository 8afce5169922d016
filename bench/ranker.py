"""Fit the offline reranker's weights, and report them leave-one-book-out.

Run: `python -m bench.ranker` (needs the shared corpora next to the checkout). For every book
it ingests the corpus into a store of its own (embeddings come from the shared cache), runs
the retrieval questions through the graph's query side, and keeps each candidate's signals
(agent/offline/ranking.py) and whether it holds a gold section. Then:

- the shipped weights (`RerankWeights`) are scored on every book: in-sample, since they are
  the fit on all three books;
- for each book, weights are fitted on the other two and scored on it (leave one book out):
  the numbers to expect on a book the weights never saw;
- weights are fitted on all three books and printed: the values `RerankWeights` ships, to be
  copied there when a question set or a signal changes.

The fit is a pairwise logistic ranker (RankNet with a linear scorer): for every question, each
candidate holding a gold section should outscore each candidate holding none. Questions weigh
equally (a question's pairs share its weight), whatever its candidate count, and every book
weighs equally, so a long question set does not decide the weights alone. Signals are
standardised before the fit; the weights are printed back in the signals' own units.

The cross-encoder's weight (`CROSS_WEIGHT`, added to the scores of the first
`CROSS_ENCODER_CANDIDATES` candidates) is chosen the same way, from a grid, by the mean MRR@10
of the books it is chosen on (each book counting once; the smaller weight on a tie). Every
candidate's cross-encoder logit is read once, so the first candidates under any weights have
theirs.
"""

import argparse
import sys
from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

from agent.evaluation.harness import query_state
from agent.evaluation.metrics import EvalQuestion, hits_section, load_questions, rank_summary
from agent.offline.cross_encoder import best_passage, cross_encoder
from agent.offline.ranking import CROSS_WEIGHT, RerankWeights, read_count, readings
from agent.resources import Resources, build_resources
from agent.retrieval.sources import hit_from
from bench.setup import BENCH_DATA, CORPORA, QUESTION_SETS, bench_settings
from core.settings import get_settings
from ingest.recorded import run_ingest

SIGNALS = [f.name for f in fields(RerankWeights)]
L2 = 0.01
CROSS_GRID = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)


@dataclass
class Ranked:
    """One question's candidates: signal rows, and which gold section (if any) each holds."""

    kind: str
    signals: np.ndarray  # candidates x signals
    gold: list[set[int]]  # per candidate: indexes of the gold sections it holds
    sections: int
    cross: np.ndarray  # per candidate: the cross-encoder's logit


def book_questions(name: str) -> list[Ranked]:
    """Ingest `name` and collect the signals of every retrieval question's candidates."""
    settings = bench_settings(
        book_id=f"bench-{name}", llm_model=None, data_dir=BENCH_DATA / "ranker"
    )
    run_ingest(settings, CORPORA / name / "docs")
    return collect(load_questions(QUESTION_SETS[name]), build_resources(settings))


def collect(questions: list[EvalQuestion], resources: Resources) -> list[Ranked]:
    """The candidates' signals of every retrieval question among `questions`."""
    return [_ranked(q, resources) for q in questions if q.is_retrieval_question]


def _ranked(question: EvalQuestion, resources: Resources) -> Ranked:
    state = query_state(question, resources)
    candidates = state["candidates"]
    rows = np.array([[c["signals"][name] for name in SIGNALS] for c in candidates], dtype=float)
    gold = [
        {i for i, section in enumerate(question.gold) if hits_section(hit_from(c), section)}
        for c in candidates
    ]
    asked = state["standalone_question"]
    passages = [best_passage(asked, c["payload"].get("embedded_text", "")) for c in candidates]
    cross = np.array(cross_encoder().scores(asked, passages), dtype=float)
    return Ranked(question.kind, rows.reshape(-1, len(SIGNALS)), gold, len(question.gold), cross)


def first_rank(ranked: Ranked, weights: np.ndarray, cross_weight: float = 0.0) -> int | None:
    """1-based rank at which every gold section is held, under `weights` and then the
    cross-encoder's reordering of the first candidates (as `rerank_top` does), or None."""
    scores = ranked.signals @ weights
    order = np.argsort(-scores, kind="stable")
    first = order[: get_settings().cross_encoder_candidates]
    top = first[: read_count(scores[first].tolist())]
    recap = SIGNALS.index("recap")
    bonuses = readings(
        [cross_weight * ranked.cross[i] for i in top], [ranked.signals[i, recap] < 0 for i in top]
    )
    reread = [scores[i] + bonus for i, bonus in zip(top, bonuses, strict=True)]
    order[: len(top)] = top[np.argsort(-np.array(reread), kind="stable")]
    seen: set[int] = set()
    for rank, index in enumerate(order, start=1):
        seen |= ranked.gold[index]
        if len(seen) == ranked.sections:
            return rank
    return None


def scores(
    questions: list[Ranked], weights: np.ndarray, cross_weight: float = 0.0
) -> dict[str, Any]:
    """hit@1, hit@5, MRR@10 and cross-section hit@5 of `weights` (and `cross_weight`) on
    `questions`, and how often the gold is in the pool at all."""
    ranks = [first_rank(q, weights, cross_weight) for q in questions]
    cross = [r for q, r in zip(questions, ranks, strict=True) if q.kind == "cross_section"]
    return {
        **rank_summary(ranks),
        "cross hit@5": rank_summary(cross)["hit@5"],
        "pool": float(np.mean([r is not None for r in ranks])),
    }


def _pairs(books: list[list[Ranked]]) -> tuple[np.ndarray, np.ndarray]:
    """Differences (gold minus other) of every question's candidate pairs, and their weights."""
    diffs, weights = [], []
    for questions in books:
        per_book = 1.0 / max(1, len(questions))
        for q in questions:
            golden = [i for i, g in enumerate(q.gold) if g]
            others = [i for i, g in enumerate(q.gold) if not g]
            if not golden or not others:
                continue
            d = (q.signals[golden][:, None, :] - q.signals[others][None, :, :]).reshape(
                -1, len(SIGNALS)
            )
            diffs.append(d)
            weights.append(np.full(len(d), per_book / len(d)))
    return np.concatenate(diffs), np.concatenate(weights)


def fit(books: list[list[Ranked]], steps: int = 3000, rate: float = 0.5) -> np.ndarray:
    """Pairwise logistic weights over the signals, in the signals' own units."""
    rows = np.concatenate([q.signals for questions in books for q in questions])
    scale = rows.std(axis=0)
    scale[scale == 0] = 1.0
    diffs, pair_weights = _pairs(books)
    x = diffs / scale
    pair_weights = pair_weights / pair_weights.sum()
    w = np.zeros(len(SIGNALS))
    for _ in range(steps):
        margin = x @ w
        grad = -(x * (pair_weights / (1 + np.exp(margin)))[:, None]).sum(axis=0) + L2 * w
        w -= rate * grad
    return w / scale


def choose_cross_weight(books: list[list[Ranked]], weights: np.ndarray) -> float:
    """The grid's cross-encoder weight with the best mean MRR@10 over `books` (the smallest
    on a tie)."""

    def mean_mrr(cross_weight: float) -> float:
        return float(np.mean([scores(q, weights, cross_weight)["mrr@10"] for q in books]))

    return max(CROSS_GRID, key=lambda w: (round(mean_mrr(w), 6), -w))


def _row(label: str, result: dict[str, Any]) -> str:
    cells = " | ".join(
        "–" if result[key] is None else f"{result[key]:.2f}"
        for key in ("hit@1", "hit@5", "mrr@10", "cross hit@5", "pool")
    )
    return f"| {label} | {cells} |"


def shipped_scale(weights: np.ndarray) -> np.ndarray:
    """`weights` scaled as `RerankWeights` ships them, the largest (dense) at 1.5, so a
    cross-encoder weight means the same beside them."""
    return weights / max(abs(weights).max(), 1e-9) * 1.5


def held_out_weights(books: list[list[Ranked]]) -> tuple[dict[str, float], float]:
    """Signal weights (by name) and a cross-encoder weight fitted on `books` alone."""
    weights = shipped_scale(fit(books))
    return dict(zip(SIGNALS, weights.tolist(), strict=True)), choose_cross_weight(books, weights)


def _weights_line(weights: np.ndarray) -> str:
    return ", ".join(f"{name}={value:.2f}" for name, value in zip(SIGNALS, weights, strict=True))


def main(argv: list[str] | None = None) -> int:
    """Print the shipped and leave-one-book-out rows for every book, then the fit to ship."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    if not CORPORA.is_dir():
        print(f"no corpora at {CORPORA}; nothing to measure", file=sys.stderr)
        return 1
    books = {name: book_questions(name) for name in QUESTION_SETS}
    shipped = np.array([asdict(RerankWeights())[name] for name in SIGNALS])
    print("| book: weights | hit@1 | hit@5 | MRR@10 | cross hit@5 | gold in pool |")
    print("|---|---|---|---|---|---|")
    for name, questions in books.items():
        others = [books[other] for other in books if other != name]
        fitted = shipped_scale(fit(others))
        cross_weight = choose_cross_weight(others, fitted)
        print(_row(f"{name}: shipped, no cross-encoder", scores(questions, shipped)))
        print(_row(f"{name}: shipped", scores(questions, shipped, CROSS_WEIGHT)))
        print(_row(f"{name}: fitted on the other two", scores(questions, fitted, cross_weight)))
        print(f"  ({_weights_line(fitted)}, cross={cross_weight})", file=sys.stderr)
    everything = list(books.values())
    fitted = shipped_scale(fit(everything))
    print(f"\nfitted on all three: {_weights_line(fitted)}")
    print(f"cross-encoder weight chosen on all three: {choose_cross_weight(everything, fitted)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
