"""The offline grader: keep the chunks that can support an answer, or none (off-book).

A question is off-book when most of its topic weight sits on terms the book never uses (a
question about risotto, or about a robot the book never mentions). Otherwise a chunk is kept
when it covers enough of the question's topic terms (IDF-weighted) and its embedding is close
enough. The thresholds live in the graph context and were calibrated on in-scope and
out-of-scope questions.
"""

from dataclasses import dataclass

from agent.rerank import Ranked
from agent.text import topic_terms
from agent.vocabulary import Vocabulary


@dataclass(frozen=True)
class GradeThresholds:
    """Where relevance starts."""

    min_text_coverage: float = 0.5
    """Share of the question's topic weight the chunk must contain."""
    min_dense: float = 0.3
    """Minimum cosine of question and chunk."""
    max_unknown_share: float = 0.4
    """Above this share of topic weight on terms the book never uses, the question is off-book."""


def unknown_share(question: str, vocabulary: Vocabulary) -> float:
    """IDF-weighted share of the question's topic terms that the book never uses."""
    wanted = topic_terms(question)
    total = sum(vocabulary.idf(t) for t in wanted)
    unknown = sum(vocabulary.idf(t) for t in wanted if not vocabulary.knows(t))
    return unknown / total if total else 0.0


def grade_offline(
    question: str, ranked: list[Ranked], vocabulary: Vocabulary, thresholds: GradeThresholds
) -> list[Ranked]:
    """The candidates that support an answer to `question`, best first (may be empty)."""
    if unknown_share(question, vocabulary) > thresholds.max_unknown_share:
        return []
    return [
        r
        for r in ranked
        if r.signals["text"] >= thresholds.min_text_coverage
        and r.hit.dense_score >= thresholds.min_dense
    ]
