"""Rule-based rewriting of a follow-up into a standalone question (the no-LLM path).

A question that leans on the conversation (a pronoun such as "it" or "they", an elliptical
opening such as "what about…" or "only for…", or too few topic words of its own) gets the topic
words of the previous user turns appended, e.g. "How is it different from a service?" after
"What is a ROS 2 topic?" becomes "How is it different from a service? (ROS 2 topic)". The
retriever and the grader then see the topic the reader means. The names an earlier turn mentions
only in the scene it set ("My CI machine is slow… How do I give a service call more time?") are
the reader's setting, not its topic, and are not carried. A question about "this lesson" or
"this page" gets the title of the page the reader is on instead, when the chat sends it.
"""

import re
from collections.abc import Sequence

from langchain_core.messages import AnyMessage, HumanMessage

from agent.offline.text import (
    asking_sentences,
    framing_terms,
    scene_names,
    terms,
    topic_terms,
)

ANAPHORA = re.compile(
    r"\b(it|its|it's|they|them|their|theirs|this|that|these|those|one|ones|he|she|there)\b",
    re.IGNORECASE,
)
ELLIPSIS = re.compile(
    r"^\s*(and|also|what about|how about|what else|why|how so|in what way|compared|same|"
    r"more|another|then|so|but|or|what if|only|just|even|for|with|without|in|on|instead)\b",
    re.IGNORECASE,
)
"""An opening that goes on from the turn before: a new ask ("and…", "what about…") or a
fragment that narrows or varies it ("only for the html files?", "with TypeScript?", "or should
I…?"), however many topic words the fragment has."""
PAGE_REFERENCE = re.compile(
    r"\b(this|the current) (page|lesson|chapter|section|module|tutorial|article|part|unit|guide)\b",
    re.IGNORECASE,
)
BEFORE_A_NUMBER = re.compile(
    r"(from|in|into|to|at|on|onto|with|than|only|just|exactly|per|for|by|over|under|within)",
    re.IGNORECASE,
)
"""Words after which "one" is a number ("in one process"), not a pronoun ("which one")."""
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+#-]*")
TOPIC_TURNS = 2
APPENDED_TOPIC = re.compile(r"\s+(\([^()]*\))$")


def needs_context(question: str) -> bool:
    """Whether a question cannot be understood without the turns before it."""
    return points_back(question) or bool(ELLIPSIS.match(question)) or len(topic_terms(question)) < 2


def points_back(question: str) -> bool:
    """Whether a word of `question` stands for something said before. "One" does only as a
    pronoun ("which one", "each one", "one of those", "the auth one"); as a number, after a
    preposition or "only" and before a word that names a thing ("from one gait to another", "in
    one process"), it points back at nothing."""
    for found in ANAPHORA.finditer(question):
        if found.group(0).lower() != "one" or not _counts(question, found.start(), found.end()):
            return True
    return False


def _counts(question: str, start: int, end: int) -> bool:
    """Whether the "one" at `start:end` counts a thing named by the word after it."""
    before = WORD.findall(question[:start])
    after = WORD.match(question, end + 1) if question[end : end + 1] == " " else None
    return (
        bool(before)
        and BEFORE_A_NUMBER.fullmatch(before[-1]) is not None
        and after is not None
        and bool(topic_terms(after.group(0)))
    )


def topic_words(text: str) -> list[str]:
    """The words of `text` that carry its topic, in order, without repeats."""
    found: list[str] = []
    seen: set[frozenset[int]] = set()
    for word in WORD.findall(text):
        word_terms = terms(word) - framing_terms()
        if (word_terms or word.isdigit()) and word_terms not in seen:
            seen.add(word_terms)
            found.append(word.rstrip("."))
    return found


def condense_rules(question: str, history: Sequence[AnyMessage]) -> str:
    """The standalone form of `question`, given the earlier messages of the conversation."""
    return with_earlier_topic(question, history) if needs_context(question) else question


def with_earlier_topic(question: str, history: Sequence[AnyMessage]) -> str:
    """`question` with the topic words of the previous user turns appended (those it does not
    say itself, nor only the scene an earlier turn set); unchanged when there are none."""
    earlier = [m.text for m in history if isinstance(m, HumanMessage)][-TOPIC_TURNS:]
    if not earlier:
        return question
    own = {w.lower() for w in topic_words(question)}
    setting = {name for turn in earlier for name in scene_names(turn)}
    context = [
        w for w in topic_words(" ".join(earlier)) if w.lower() not in own and w not in setting
    ]
    return f"{question} ({' '.join(context)})" if context else question


def about_the_page(question: str, page_title: str | None) -> str | None:
    """`question` with the title of the page the reader is on appended, as a follow-up's topic
    is, when it asks about that page ("What should I take away from this lesson?"); else None.
    """
    title = " ".join((page_title or "").replace("(", " ").replace(")", " ").split())
    if not title or not refers_to_the_page(question):
        return None
    return f"{question} ({title})"


def refers_to_the_page(question: str) -> bool:
    """Whether a question names the page the reader is on ("this lesson", "the current page")."""
    return bool(PAGE_REFERENCE.search(question))


def asking_part(question: str) -> str:
    """The sentences of `question` that ask, with the topic condensing appended to a follow-up:
    what the reader asks about, without the scene they set before asking."""
    asked = appended_topic(question)[0]
    return asking_sentences(asked) + question.strip()[len(asked) :]


def appended_topic(question: str) -> tuple[str, str]:
    """The question and the topic `condense_rules` appended to it ("(ROS 2 topic)"; "" when
    none). The topic belongs to the whole question, not to its last sentence: grading reads it
    with the asking sentence, and decomposition searches it as a part of its own."""
    question = question.strip()
    found = APPENDED_TOPIC.search(question)
    return (question[: found.start()], found.group(1)) if found else (question, "")
