"""The offline reranker: a weighted sum of signals that each catch what the others miss, then
a cross-encoder's reading of the first few.

Candidates from hybrid retrieval are rescored by
- `fused`: Qdrant's reciprocal-rank fusion score (dense + BM25 agreement),
- `dense`: cosine of question and chunk embeddings,
- `title`: IDF-weighted share of the question's topic terms found in the page's names (title,
  H1, sidebar label: how a question names the lesson it is about),
- `heading`: the same share over the section's own headings and the subsections it holds (a
  section titled with the asked term is usually the one that answers it); for a follow-up, of
  its own ask's terms, since the earlier topic appended to it names the page, not the section,
- `text`: the same share over the chunk's text,
- `asked_section`: 1 when a structural question ("learning objectives", "next steps") meets a
  section of that name, by its heading or an admonition title ("What You'll Learn"),
- `asked_page`: `title` for such a section, 0 elsewhere: every lesson has its "Learning
  Objectives", and a structural question names the lesson it means ("…before starting the
  Isaac Sim overview lesson?"), so among sections of the asked kind the page's names decide,
- `recap`: -1 when a question that is not structural meets a summary, glossary, exercise or
  quiz section, which repeat topics without explaining them (not a prerequisites section: setup
  steps, "install X first", live there),
- `code`: 1 when a request for code meets a code-heavy section,
- `defines`: 1 when a question that asks what a thing is ("What is a ROS 2 action?") meets a
  section with a sentence or glossary entry that says what it is ("An **action** is for
  long-running goals."): a page whose names hold every word of the question ("Voice to
  Action … ROS 2") can otherwise outrank the section that defines the thing.
Then `rerank_top` adds `CROSS_WEIGHT` times a cross-encoder's logit (`cross`,
agent/offline/cross_encoder.py) to the scores of the first few candidates (the deployment
setting `CROSS_ENCODER_CANDIDATES`, 3; only those within `CROSS_MARGIN` of the first) and
reorders them among themselves. The weights are fitted, not set by hand: `python -m
bench.ranker` fits a pairwise logistic ranker over the signals on the question sets of three
unrelated books (a robotics textbook, the Redux docs, the Prettier docs) and reports each book
with weights fitted on the other two (the README's quality section); it chooses `CROSS_WEIGHT`
the same way. After ranking, `cover_parts` puts first a section named after every part of a
several-part question (the two sides of "A vs B"), when one was found, and gives each part two
of the next places; `one_per_section` gives each section one place among the first.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from agent.offline.condense import appended_topic
from agent.offline.cross_encoder import best_passage, cross_encoder
from agent.offline.text import (
    asks_for_code,
    defined_subject,
    heading_answers_intent,
    structural_intent,
    terms,
    text_defines,
    topic_terms,
)
from agent.retrieval.sources import page_names
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate


@dataclass(frozen=True)
class RerankWeights:
    """How much each signal counts: the fit on all three books, scaled so `dense` is 1.5."""

    fused: float = 0.6
    dense: float = 1.5
    title: float = 0.89
    heading: float = 0.94
    text: float = 0.4
    asked_section: float = 0.81
    asked_page: float = 0.75
    """Fitted alone, the others held at their values: held out, 0.75 on Redux and Prettier
    (0.25 on humanoid); 0.75 to 2 score the same on all three books."""
    recap: float = 0.41
    code: float = 0.13
    defines: float = 0.65
    """0.43 of `dense`'s weight, as in the fit on all three books with the others (0.45) and in
    each leave-one-book-out fold (0.42 to 0.46)."""


def _intent_signals(question: str, payload: dict) -> dict[str, float]:
    """`asked_section`, `recap` and `code` of one candidate (see the module docstring)."""
    wanted = structural_intent(question)
    heading = " ".join(payload.get("heading_path", [])[1:]).lower()
    signals = {"asked_section": 0.0, "recap": 0.0, "code": 0.0}
    if wanted:
        signals["asked_section"] = float(
            heading_answers_intent(wanted, heading, payload.get("text", ""))
        )
    elif payload.get("section_type") == "structural":
        signals["recap"] = 0.0 if heading_answers_intent("prerequisites", heading) else -1.0
    elif asks_for_code(question):
        signals["code"] = float(payload.get("section_type") == "code_heavy")
    return signals


def rank_candidates(
    question: str,
    candidates: list[Candidate],
    vocabulary: Vocabulary,
    weights: RerankWeights | None = None,
) -> list[Candidate]:
    """Candidates reordered by the weighted signals, best first, each with its score and signals."""
    w = weights or RerankWeights()
    wanted = topic_terms(question)
    own = topic_terms(appended_topic(question)[0]) or wanted  # a follow-up's own ask
    subject = defined_subject(question)
    top_fused = max((c["score"] for c in candidates), default=1.0) or 1.0
    ranked: list[Candidate] = []
    for candidate in candidates:
        payload = candidate["payload"]
        headings = [*payload.get("heading_path", [])[1:], *payload.get("section_headings", [])]
        signals = {
            "fused": candidate["score"] / top_fused,
            "dense": candidate["dense_score"],
            "title": vocabulary.coverage(wanted, terms(" ".join(page_names(payload)))),
            "heading": vocabulary.coverage(own, terms(" ".join(headings))),
            "text": vocabulary.coverage(wanted, terms(payload.get("embedded_text", ""))),
            **_intent_signals(question, payload),
            "defines": float(text_defines(payload.get("text", ""), subject)),
        }
        signals["asked_page"] = signals["asked_section"] * signals["title"]
        score = sum(getattr(w, name) * value for name, value in signals.items())
        ranked.append({**candidate, "rerank_score": score, "signals": signals})
    return sorted(ranked, key=lambda c: c["rerank_score"], reverse=True)


CROSS_WEIGHT = 0.2
"""Chosen leave-one-book-out by `bench.ranker` on the three shared books (a logit spans about
-11 to 10, so 0.1 weighs it like the `dense` signal's cosine at 1.5). On the grown sets the
grid's choice wavers between 0.15 and 0.3 from fold to fold, and 0.3 on all three; through
the whole graph 0.3 moves one humanoid question and nothing else, so 0.2 stays."""
CROSS_MARGIN = 0.5
"""A candidate this far below the first is not read: it would need a logit 2.5 above the
first's to overtake it, and on six books such a reading never moved a gold section up (it cost
30 % of the reads; at 0.3, Redux and Prettier lost questions)."""


def rerank_top(
    question: str,
    ranked: list[Candidate],
    count: int,
    weight: float = CROSS_WEIGHT,
) -> list[Candidate]:
    """`ranked` with its first `count` candidates (those within `CROSS_MARGIN` of the first)
    reordered by their reranker score plus `weight` times the cross-encoder's logit (kept as
    the `cross` signal); the rest follow in their order. CPU-bound: run it in a thread."""
    top = ranked[: read_count([c.get("rerank_score", 0.0) for c in ranked[:count]])]
    if len(top) < 2 or weight == 0:
        return ranked
    passages = [
        best_passage(question, c["payload"].get("embedded_text") or c["payload"].get("text", ""))
        for c in top
    ]
    logits = cross_encoder().scores(question, passages)
    recaps = [c.get("signals", {}).get("recap", 0.0) < 0 for c in top]
    bonuses = readings([weight * logit for logit in logits], recaps)
    rescored: list[Candidate] = [
        {
            **c,
            "rerank_score": c.get("rerank_score", 0.0) + bonus,
            "signals": {**c.get("signals", {}), "cross": logit},
        }
        for c, logit, bonus in zip(top, logits, bonuses, strict=True)
    ]
    rescored.sort(key=lambda c: c["rerank_score"], reverse=True)
    return rescored + ranked[len(top) :]


def read_count(scores: Sequence[float]) -> int:
    """How many of the first candidates (their scores, best first) the cross-encoder reads:
    those within `CROSS_MARGIN` of the first."""
    return sum(1 for score in scores if scores[0] - score < CROSS_MARGIN)


def readings(bonuses: list[float], recaps: list[bool]) -> list[float]:
    """What the cross-encoder's reading adds to each candidate's score. A section the signals
    read as a recap (objectives, a summary: `recap` -1) restates topics that other sections
    explain, and a cross-encoder reads a restatement as an answer ("Start several nodes with
    one Python launch file" for "How do I start several nodes at once?"), so its reading may
    lower such a section but not raise it, above zero or above any section it read that
    teaches."""
    teaching = [b for b, recap in zip(bonuses, recaps, strict=True) if not recap]
    ceiling = min([0.0, *teaching])
    return [min(b, ceiling) if recap else b for b, recap in zip(bonuses, recaps, strict=True)]


PLACES_PER_PART = 2
"""How many of the first places each part of a several-part question is given."""


def cover_parts(
    ranked: list[Candidate],
    parts: list[str],
    vocabulary: Vocabulary,
    weights: RerankWeights | None = None,
) -> list[Candidate]:
    """`ranked` with each part's best sections moved up to follow the question's best one,
    which is the section named after every part when there is one (`_naming_every_part`).

    `parts` are the question's parts (`agent.offline.decompose`), searched after the question
    itself, so a candidate's `dense_scores[i]` is its similarity to part i. The parts take
    turns, each placing its best section not yet placed, twice over: a question in two parts
    fills its first five places with its own best section and two more for each part.
    """
    if not ranked or not parts:
        return ranked
    by_part = [
        one_per_section(
            rank_candidates(
                part,
                [{**c, "dense_score": _dense_for(c, n)} for c in ranked],
                vocabulary,
                weights,
            )
        )
        for n, part in enumerate(parts, start=1)
    ]
    chosen = [_naming_every_part(ranked, parts)]
    placed = {_section(chosen[0])}
    for _ in range(PLACES_PER_PART):
        for part_ranking in by_part:
            turn = next((c for c in part_ranking if _section(c) not in placed), None)
            if turn is not None:
                placed.add(_section(turn))
                chosen.append(next(c for c in ranked if c["id"] == turn["id"]))
    ids = {c["id"] for c in chosen}
    return chosen + [c for c in ranked if c["id"] not in ids]


def _naming_every_part(ranked: list[Candidate], parts: list[str]) -> Candidate:
    """The best-ranked teaching section (not a page's objectives, prerequisites or recap) with
    one name, its page's or a heading of its own, that holds every part's topic terms: it is
    about both sides of a comparison. When that name is the page's ("Connecting Gazebo and
    ROS 2"), the whole page is, and its first teaching section among `ranked` introduces
    them. With none, the best. One name, not a page's and a heading's together: "Quality of
    Service" on the page "Nodes and Topics" is not about services and topics."""
    wanted = [topic_terms(part) for part in parts]

    def names_all(names: list[str]) -> bool:
        return any(all(part and part <= terms(name) for part in wanted) for name in names)

    teaching = [c for c in ranked if c["payload"].get("section_type") != "structural"]
    naming = next(
        (
            c
            for c in teaching
            if names_all([*page_names(c["payload"]), *c["payload"].get("heading_path", [])[1:]])
        ),
        None,
    )
    if naming is None:
        return ranked[0]
    if not names_all(page_names(naming["payload"])):
        return naming
    page = naming["payload"].get("doc_id")
    return min(
        (c for c in teaching if c["payload"].get("doc_id") == page),
        key=lambda c: c["payload"].get("chunk_index", 0),
    )


def one_per_section(ranked: list[Candidate]) -> list[Candidate]:
    """`ranked` with each section's first chunk in place and its other chunks after every
    section's first: a second part of a section takes no place another section could use
    (the answer reads a chunk's neighbouring parts anyway)."""
    seen: set[tuple[str, tuple[str, ...]]] = set()
    firsts: list[Candidate] = []
    repeats: list[Candidate] = []
    for candidate in ranked:
        section = _section(candidate)
        (repeats if section in seen else firsts).append(candidate)
        seen.add(section)
    return firsts + repeats


def _section(candidate: Candidate) -> tuple[str, tuple[str, ...]]:
    """The page and heading path a chunk belongs to."""
    payload = candidate["payload"]
    return (str(payload.get("doc_id", "")), tuple(payload.get("heading_path", [])))


def _dense_for(candidate: Candidate, query_number: int) -> float:
    scores = candidate.get("dense_scores") or []
    return scores[query_number] if query_number < len(scores) else candidate["dense_score"]
