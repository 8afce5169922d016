"""Lexical analysis shared by the offline nodes: terms, sentences, question intents.

Terms are the stemmed, stopword-free token ids of Qdrant's BM25 analyzer, so what the grader
and the extractive answerer call "a term" is exactly what the keyword index matches on.
"""

import re
from functools import lru_cache

from core.embeddings import bm25_analyzer
from core.structure import titles_section

QUESTION_FRAMING = (
    "explain describe tell show give list mean meaning difference different purpose role "
    "work works working use used using example examples book chapter lesson section please "
    "understand know learn need want would could should important main key kind kinds type "
    "types way ways thing things something anything happen happens also versus vs summarise "
    "summarize summary"
)
"""Words that frame a question rather than name its topic; they never decide relevance."""
STRUCTURAL_INTENTS = {
    "learning objectives": ("objective", "be able to", "learn in", "goals"),
    "prerequisites": ("prerequisite", "need to know", "need before", "before starting"),
    "key takeaways": ("takeaway", "key points", "main points", "remember", "summar", "recap"),
    "next steps": ("next step", "comes next", "comes after", "after this", "where do i go"),
}
"""Structural sections a question can ask for, and the phrases that ask for them."""
HEADING = re.compile(r"^#{1,6}\s+\S")
LIST_ITEM = re.compile(r"^([-*+]|\d+[.)])\s+")
CODE_INTENT = re.compile(
    r"\b(code|snippet|example|command|commands|script|launch file|how do i (write|run|launch|"
    r"create|build|install|start|configure)|show me|syntax|cli|terminal)\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"'(\[])")
FENCE = re.compile(r"^(`{3,}|~{3,})")


@lru_cache(maxsize=4096)
def terms(text: str) -> frozenset[int]:
    """Stemmed term ids of `text`, stopwords removed (Qdrant's BM25 analyzer)."""
    return frozenset(bm25_analyzer().embed_query(text).indices)


@lru_cache(maxsize=1)
def framing_terms() -> frozenset[int]:
    """Term ids of the question-framing words."""
    return terms(QUESTION_FRAMING)


def topic_terms(question: str) -> frozenset[int]:
    """The terms that say what a question is about."""
    return terms(question) - framing_terms()


def structural_intent(question: str) -> str | None:
    """Which structural section a question asks for (objectives, takeaways, ...), if any."""
    lowered = question.lower()
    for section, cues in STRUCTURAL_INTENTS.items():
        if section in lowered or any(cue in lowered for cue in cues):
            return section
    return None


def heading_answers_intent(intent: str, heading: str) -> bool:
    """Whether a section heading is the structural section a question asks for."""
    return titles_section(intent, heading)


def asks_for_code(question: str) -> bool:
    """Whether the question wants code or a command rather than prose."""
    return bool(CODE_INTENT.search(question))


def split_units(markdown: str) -> list[str]:
    """Sentences, list items, headings, whole tables and whole code blocks of a chunk's text,
    in order. A heading unit keeps its `#` marks (see `is_heading`)."""
    units: list[str] = []
    fence: list[str] | None = None
    paragraph: list[str] = []
    table: list[str] = []

    def flush() -> None:
        if paragraph:
            text = " ".join(line.strip() for line in paragraph)
            units.extend(s.strip() for s in SENTENCE_END.split(text) if s.strip())
            paragraph.clear()
        if table:
            units.append("\n".join(table))
            table.clear()

    for line in markdown.splitlines():
        if fence is not None:
            fence.append(line)
            if FENCE.match(line.strip()) and len(fence) > 1:
                units.append("\n".join(fence))
                fence = None
            continue
        stripped = line.strip()
        if stripped.startswith("|"):
            if paragraph:
                flush()
            table.append(stripped)
            continue
        if table:
            flush()
        if FENCE.match(stripped):
            flush()
            fence = [line]
        elif not stripped:
            flush()
        elif HEADING.match(stripped) or LIST_ITEM.match(stripped):
            flush()
            units.append(stripped)
        else:
            paragraph.append(line)
    flush()
    if fence:
        units.append("\n".join(fence))
    return units


def is_heading(unit: str) -> bool:
    """Whether a unit is a Markdown heading."""
    return bool(HEADING.match(unit))


def heading_text(unit: str) -> str:
    """A heading unit's title, without its `#` marks."""
    return unit.lstrip("#").strip()


def is_list_item(unit: str) -> bool:
    """Whether a unit is a bulleted or numbered list item."""
    return bool(LIST_ITEM.match(unit))


def is_block(unit: str) -> bool:
    """Whether a unit is a code block or a table, which answers keep whole on their own lines."""
    return is_code(unit) or unit.startswith("|")


def is_code(unit: str) -> bool:
    """Whether a unit is a fenced code block."""
    return bool(FENCE.match(unit.lstrip()))
