"""Answers composed from the book's own sentences, for when no LLM is configured.

From the graded chunks we take the sentences, list items and code blocks that best cover the
question's topic, keep them in reading order, and cite each one. The best chunk always
contributes, so an answer never rests on a stray sentence elsewhere; a structural question
("what are the learning objectives…") gets its section's list whole, and a request for code
gets the best code block whole.
"""

from dataclasses import dataclass

from agent.offline.text import (
    asks_for_code,
    heading_answers_intent,
    heading_text,
    is_block,
    is_code,
    is_heading,
    is_list_item,
    split_units,
    structural_intent,
    terms,
    topic_terms,
)

MAX_LIST_ITEMS = 8
CODE_DOCUMENTS = 2
"""Code is taken from the two best sources only; a lower one's block is rarely the answer."""
SECONDARY_UNITS = 3
"""How many sentences the other sources may add to the best source's three."""
MIN_SECONDARY_COVERAGE = 0.25
"""Share of the question's topic terms a secondary sentence must contain."""
DOCUMENT_PRIOR = (1.0, 0.75, 0.6, 0.5, 0.4)
NOT_IN_SELECTION = (
    "The selected text does not seem to answer this question. Try selecting a passage that "
    "covers it, or ask without a selection to search the whole book."
)


@dataclass(frozen=True)
class Excerpt:
    """A unit of text taken from a source, with the source's position in the document list."""

    text: str
    document: int
    position: int
    score: float
    coverage: float


def _coverage(wanted: frozenset[int], unit: str) -> float:
    return len(wanted & terms(unit)) / len(wanted) if wanted else 0.0


def _score_units(question: str, texts: list[str]) -> list[Excerpt]:
    wanted = topic_terms(question)
    excerpts = []
    for document, text in enumerate(texts):
        prior = DOCUMENT_PRIOR[min(document, len(DOCUMENT_PRIOR) - 1)]
        for position, unit in enumerate(split_units(text)):
            coverage = _coverage(wanted, unit)
            score = coverage * prior + 0.05 / (1 + position)
            excerpts.append(Excerpt(unit, document, position, score, coverage))
    return excerpts


def select_excerpts(question: str, texts: list[str], headings: list[str]) -> list[Excerpt]:
    """The excerpts of `texts` (best document first) that answer `question`, in reading order."""
    every = _score_units(question, texts)
    excerpts = [e for e in every if not is_heading(e.text)]  # headings come with what they head
    if not excerpts:
        return []
    chosen: list[Excerpt] = []
    intent = structural_intent(question)
    if intent and headings and heading_answers_intent(intent, headings[0]):
        chosen = [e for e in excerpts if e.document == 0][:MAX_LIST_ITEMS]
    elif asks_for_code(question):
        code = [e for e in excerpts if is_code(e.text) and e.document < CODE_DOCUMENTS]
        if code:  # the best-ranked source's best block: rank beats a block's word overlap
            best = min(code, key=lambda e: (e.document, -e.score))
            prose = [e for e in excerpts if not is_code(e.text)]
            lead = sorted((e for e in prose if e.document == best.document), key=lambda e: -e.score)
            top = sorted((e for e in prose if e.document == 0), key=lambda e: -e.score)
            chosen = [best, *lead[:2], *(top[:2] if best.document else [])]
    if not chosen:
        excerpts = [e for e in excerpts if not is_code(e.text)]  # prose answers cite prose
        first = sorted((e for e in excerpts if e.document == 0), key=lambda e: -e.score)
        chosen = first[:3]
        others = [e for e in excerpts if e.document > 0 and e.coverage >= MIN_SECONDARY_COVERAGE]
        chosen += sorted(others, key=lambda e: -e.score)[:SECONDARY_UNITS]
    chosen += _introduced(chosen, every)
    unique: dict[str, Excerpt] = {}
    for excerpt in sorted(chosen, key=lambda e: (e.document, e.position)):
        unique.setdefault(excerpt.text, excerpt)  # split sections overlap: say things once
    return list(unique.values())


def _introduced(chosen: list[Excerpt], excerpts: list[Excerpt]) -> list[Excerpt]:
    """What chosen lead-ins ending in ":" introduce: the sentence, table or code right after
    them, or the whole list (with the subheadings inside it) up to `MAX_LIST_ITEMS` items."""
    by_place = {(e.document, e.position): e for e in excerpts}
    follow = []
    for excerpt in chosen:
        if not excerpt.text.rstrip().endswith(":"):
            continue
        place = excerpt.position + 1
        nxt = by_place.get((excerpt.document, place))
        if nxt is not None and not (is_list_item(nxt.text) or is_heading(nxt.text)):
            follow.append(nxt)
            continue
        items = 0
        while nxt is not None and (is_list_item(nxt.text) or is_heading(nxt.text)):
            items += is_list_item(nxt.text)
            if items > MAX_LIST_ITEMS:
                break
            follow.append(nxt)
            place += 1
            nxt = by_place.get((excerpt.document, place))
    return follow


def compose(excerpts: list[Excerpt], numbers: dict[int, int]) -> list[str]:
    """Answer pieces: each excerpt followed by its citation `[n]`, ready to stream."""
    pieces = []
    after_line = False  # a sentence after a heading or list item starts a new paragraph
    for excerpt in excerpts:
        citation = f"[{numbers[excerpt.document]}]"
        if is_heading(excerpt.text):
            pieces.append(f"\n**{heading_text(excerpt.text)}**")
        elif is_block(excerpt.text):
            # a blank line after the block: a `[n]` right under a table would be one more row
            pieces.append(f"\n\n{excerpt.text}\n\n{citation}\n\n")
        elif is_list_item(excerpt.text):
            pieces.append(f"\n{excerpt.text} {citation}")
        else:
            paragraph = "\n\n" if after_line else ""
            pieces.append(f"{paragraph}{excerpt.text} {citation} ")
        after_line = is_heading(excerpt.text) or is_list_item(excerpt.text)
    return pieces


def answer_from_selection(question: str, selection: str) -> str:
    """The sentences of the reader's selection that answer the question, or a plain 'no'."""
    excerpts = [e for e in _score_units(question, [selection]) if not is_heading(e.text)]
    if not topic_terms(question):  # "what does this mean?": the selection is the topic
        return " ".join(e.text for e in excerpts[:3])
    relevant = [e for e in excerpts if e.score > 0.1]
    if not relevant:
        return NOT_IN_SELECTION
    best = sorted(relevant, key=lambda e: -e.score)[:3]
    return " ".join(e.text for e in sorted(best, key=lambda e: e.position))
