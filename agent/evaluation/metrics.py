"""Retrieval evaluation: question files (JSONL), gold matching, and the hit@k / MRR report.

A retrieved chunk hits a gold entry when its file is the gold file and the gold heading is one
of the chunk's heading-path entries, or one of the H3 headings the chunk contains whole (a short
H2 section is stored as one chunk with its H3s inside). Headings compare as a reader sees
them (`agent.evaluation.visible`): inline markup, links and typographic quotes do not count.
A question with several gold entries is found at the rank where the last of them has been hit,
so a cross-section question counts only when all its sections are in. `by_kind`
gives n and hit@5 for each question kind (cross_section, followup, ...), `by_kind_detail`
adds hit@1 and MRR@10.
`lenient_hit@5` also accepts any `also_in` section within the top 5.
"""

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from agent.evaluation.visible import visible_inline
from agent.retrieval.search import SearchHit

CUTOFFS = (1, 3, 5, 10)


class EvalInputError(ValueError):
    """A question file that cannot be read, with the line at fault."""


class GoldSection(BaseModel):
    """A section that answers a question."""

    file: str = Field(min_length=1)
    heading: str = Field(min_length=1)


class HistoryMessage(BaseModel):
    """A previous message of the conversation."""

    role: Literal["user", "assistant"]
    content: str


class EvalQuestion(BaseModel):
    """One line of a question file."""

    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    kind: str = "factual"
    gold: list[GoldSection] = Field(default_factory=list)
    also_in: list[GoldSection] = Field(default_factory=list)
    answer_facts: list[str] = Field(default_factory=list)
    history: list[HistoryMessage] = Field(default_factory=list)
    selected_text: str | None = None

    @property
    def is_retrieval_question(self) -> bool:
        """Lines without gold sections, or about a selection, are not scored for retrieval."""
        return bool(self.gold) and not self.selected_text


def load_questions(path: Path) -> list[EvalQuestion]:
    """Parse a JSONL question file; a bad line raises `EvalInputError` naming its number."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise EvalInputError(f"cannot read question file {path}: {error}") from error
    questions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            questions.append(EvalQuestion.model_validate_json(line))
        except ValidationError as error:
            problem = error.errors()[0]
            where = ".".join(str(part) for part in problem["loc"])
            detail = f"{where}: {problem['msg']}" if where else problem["msg"]
            raise EvalInputError(f"{path}:{number}: {detail}") from None
    ids = [q.id for q in questions]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise EvalInputError(f"{path}: duplicate question ids: {', '.join(duplicates)}")
    return questions


def hits_section(hit: SearchHit, section: GoldSection) -> bool:
    """Whether a retrieved chunk contains the gold section."""
    if hit.payload.get("file_path") != section.file:
        return False
    headings = [*hit.payload.get("heading_path", []), *hit.payload.get("section_headings", [])]
    return visible_inline(section.heading) in {visible_inline(h) for h in headings}


def first_rank(hits: Sequence[SearchHit], sections: Sequence[GoldSection]) -> int | None:
    """1-based rank at which every section has been hit, or None."""
    ranks = []
    for section in sections:
        rank = next((i for i, hit in enumerate(hits, start=1) if hits_section(hit, section)), None)
        if rank is None:
            return None
        ranks.append(rank)
    return max(ranks) if ranks else None


Retriever = Callable[[EvalQuestion], list[SearchHit]]


def evaluate_retrieval(
    questions: Sequence[EvalQuestion], retrieve: Retriever, k: int = 10
) -> dict[str, Any]:
    """Run every retrieval question through `retrieve` and report the contract's metrics."""
    scored = [q for q in questions if q.is_retrieval_question]
    per_question = []
    ranks: list[int | None] = []
    lenient: list[bool] = []
    kinds: dict[str, list[int | None]] = defaultdict(list)
    for question in scored:
        hits = retrieve(question)[: max(k, 10)]
        rank = first_rank(hits, question.gold)
        top5 = hits[:5]
        also = any(first_rank(top5, [section]) for section in question.also_in)
        ranks.append(rank)
        lenient.append((rank is not None and rank <= 5) or also)
        kinds[question.kind].append(rank)
        per_question.append(
            {
                "id": question.id,
                "rank": rank,
                "retrieved": [
                    {
                        "file": hit.payload.get("file_path"),
                        "heading_path": hit.payload.get("heading_path"),
                        "score": round(hit.score, 4),
                    }
                    for hit in hits[:k]
                ],
            }
        )
    report: dict[str, Any] = {"n": len(scored), "skipped": len(questions) - len(scored)}
    for cutoff in CUTOFFS:
        report[f"hit@{cutoff}"] = _rate(ranks, cutoff)
    report["mrr@10"] = _mrr(ranks)
    report["lenient_hit@5"] = mean([1.0 if ok else 0.0 for ok in lenient])
    by_kind = sorted(kinds.items())
    report["by_kind"] = {kind: {"n": len(r), "hit@5": _rate(r, 5)} for kind, r in by_kind}
    report["by_kind_detail"] = {kind: rank_summary(r) for kind, r in by_kind}
    report["per_question"] = per_question
    return report


def _mrr(ranks: Sequence[int | None]) -> float | None:
    return mean([1 / r if r is not None and r <= 10 else 0.0 for r in ranks])


def rank_summary(ranks: Sequence[int | None]) -> dict[str, Any]:
    """n, hit@1, hit@5 and MRR@10 of questions' first full-gold ranks (None: not found)."""
    return {
        "n": len(ranks),
        "hit@1": _rate(ranks, 1),
        "hit@5": _rate(ranks, 5),
        "mrr@10": _mrr(ranks),
    }


def kind_metric(report: dict[str, Any], kind: str, metric: str = "hit@5") -> float | None:
    """One metric of one question kind from a retrieval report, None when it has no such kind."""
    return report["by_kind_detail"].get(kind, {}).get(metric)


def _rate(ranks: Sequence[int | None], cutoff: int) -> float | None:
    return mean([1.0 if r is not None and r <= cutoff else 0.0 for r in ranks])


def mean(values: Sequence[float]) -> float | None:
    """The mean to four places, or None when there is nothing to average (no such question)."""
    return round(sum(values) / len(values), 4) if values else None


def summary_line(report: dict[str, Any]) -> str:
    """One human-readable line of the headline numbers."""
    keys = ["n", "skipped", "hit@1", "hit@3", "hit@5", "hit@10", "mrr@10", "lenient_hit@5"]
    return "  ".join(f"{key}={report[key]}" for key in keys)


def report_json(report: dict[str, Any]) -> str:
    """The report as one JSON object."""
    return json.dumps(report, ensure_ascii=False)
