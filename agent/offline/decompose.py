"""Questions in several parts: split them, so each part's best section can be kept.

"How do forward and inverse kinematics differ, and what makes the inverse problem harder?"
asks two things that a book answers in two sections. One search for the whole question tends
to return the section that matches most of its words several times over, and the other part
goes missing. The graph searches for the whole question and for every part together, then
makes sure each part's best section is among the first (`agent.offline.ranking.cover_parts`).

The split is by the question's grammar only, so it holds for any book: a comparison ("the
difference between A and B", "A vs B", "A vs B vs C", "between A, B and C", "how is A
different from B") gives its sides, as does "how do A and B work together" (a follow-up's "how
is it different from B?" compares its earlier topic with B); otherwise a new clause opened by
", and" / ", but" / ";" / a second question / "and also" / "and how|what|why..." starts a
part ("and" before a verb, as in "…and is kept…", goes on with its clause). Only sentences
that ask are split: a sentence that sets the scene before the question ("We share one queue,
and each job has a budget.") is not a part, nor are its clauses; it leads the part after it.
A part must name a topic (enough topic terms) or it is not a part: "..., and can I change
that?" is not. A follow-up's appended earlier topic is a part of its own (see
`question_parts`).
"""

import re

from agent.offline.condense import appended_topic
from agent.offline.text import QUESTION_SENTENCE_END, terms, topic_terms

WH_WORDS = "how|what|why|when|where|which|who|whether"
CLAUSE_BREAK = re.compile(
    rf"(?:,\s*(?:and|but|or|plus)\s+|;\s*|(?<=\?)\s+|\s+and\s+also\s+"
    rf"|\s+and\s+(?=(?:{WH_WORDS})\b))",
    re.IGNORECASE,
)
BETWEEN = re.compile(r"\bdifferences?\s+between\s+(.+?)\s+and\s+(.+?)\s*(?:[?.!]|$)", re.I)
TOGETHER = re.compile(
    r"\bhow\s+(?:do|does|can|should)\s+(.{1,100}?)\s+and\s+(.{1,100}?)\s+"
    r"(?:work|fit|go)\s+together\b",
    re.I,
)
DIFFERS = re.compile(
    r"\b(?:how\s+)?(?:is|are|does|do)\s+([^?]{1,100}?)\s+(?:different|differ)\s+from\s+"
    r"([^?]{1,100}?)\s*(?:[?.!]|$)",
    re.I,
)
SIDE_WORD = r"(?!(?:vs\.?|versus)(?!\S))\S{1,60}"
"""A word of a comparison's side: not the "vs" that parts it from the next side."""
VERSUS = re.compile(
    rf"({SIDE_WORD}(?:\s+{SIDE_WORD})?)((?:\s+(?:vs\.?|versus)\s+{SIDE_WORD}(?:\s+{SIDE_WORD})?)+)",
    re.I,
)
"""Each side's length is bounded here and in `TOGETHER`, so that a long question costs linear
time, not quadratic (a 4,000-character word took a quarter of a second)."""
VERSUS_MARK = re.compile(r"\s+(?:vs\.?|versus)\s+", re.I)
LISTED = re.compile(r"\s*,\s*(?:and\s+|or\s+)?")
"""Where the sides of "the difference between A, B and C" part."""
MIN_CLAUSE_TERMS = 2
MAX_PARTS = 3


def question_parts(question: str) -> list[str]:
    """The question's parts when it asks more than one thing (at most three), else [].

    A follow-up condensed by `condense_rules` ("How do I update one item? (normalized
    state)") asks about the earlier topic too: that topic is a part of its own, after the
    question's, so sections about it are among the first as well as those that match the new
    ask (a comparison's sides each carry it instead).
    """
    asked, topic = appended_topic(question)
    sides = _sides(asked)
    if sides:
        parts = [_trimmed(side) for side in sides][:MAX_PARTS]
        if topic_terms(topic) and not all(parts):  # "How is it different from X? (Y)": it is Y
            return as_parts([part or topic.strip("()") for part in parts])
        return [f"{part} {topic}".rstrip() for part in parts] if all(parts) else []
    clauses = [c.strip(" ,;?") for c in _clauses(asked)]
    found = [c for c in clauses if len(topic_terms(c)) >= MIN_CLAUSE_TERMS]
    if topic_terms(topic):
        own = found or ([asked.strip(" ?")] if topic_terms(asked) else [])
        found = [*own, topic.strip("()")]
    return as_parts(found)


def _sides(asked: str) -> list[str]:
    """The sides of a comparison, or of things asked to work together: two or more ("A vs B
    vs C", "the difference between A, B and C")."""
    versus = VERSUS.search(asked)
    if versus:
        return [versus[1], *VERSUS_MARK.split(versus[2])[1:]]
    paired = BETWEEN.search(asked) or TOGETHER.search(asked) or DIFFERS.search(asked)
    if not paired:
        return []
    first, last = paired.groups()
    return [*LISTED.split(first), last]


def _clauses(asked: str) -> list[str]:
    """`asked` split at its clause breaks, but only within the sentences that ask: a sentence
    that sets the scene stays whole and leads the clause after it."""
    sentences = QUESTION_SENTENCE_END.split(asked.strip())
    clauses: list[str] = []
    scene = ""
    for number, sentence in enumerate(sentences, start=1):
        if number < len(sentences) and not sentence.rstrip().endswith("?"):
            scene = f"{scene} {sentence}".strip()
            continue
        pieces = CLAUSE_BREAK.split(sentence)
        pieces[0] = f"{scene} {pieces[0]}".strip()
        scene = ""
        clauses.extend(pieces)
    return clauses


def as_parts(found: list[str]) -> list[str]:
    """What was found to be asked, as a question's parts: at most three, none for one."""
    return found[:MAX_PARTS] if len(found) > 1 else []


def _trimmed(side: str) -> str:
    """A comparison's side without the stopwords around it ("spaces for" -> "spaces")."""
    words = side.strip(" ,?").split()
    while words and not terms(words[-1]):
        words.pop()
    while words and not terms(words[0]):
        words.pop(0)
    return " ".join(words)
