"""The one vocabulary of structural sections: the headings a book gives its objectives,
prerequisites, takeaways, next steps, starting point, reviews and references.

Ingest marks such sections `structural`; the agent finds the one a question asks for ("what
should I know before starting?" wants the prerequisites). Phrases match inside a heading,
case-insensitively and whichever apostrophe it uses. Words that also title content
("requirements", "goal") are left out: a "Hardware Requirements" section is instructional.
"""

import re

STRUCTURAL_SECTIONS: dict[str, tuple[str, ...]] = {
    "learning objectives": (
        "objective",
        "what you will learn",
        "what you'll learn",
        "outcomes",
        "learning goals",
        "topics covered",
    ),
    "prerequisites": ("prerequisite", "before you begin"),
    "key takeaways": (
        "takeaway",
        "summary",
        "recap",
        "conclusion",
        "key points",
        "what you've learned",
        "what you learned",
    ),
    "next steps": ("next step", "next section", "next module", "next lesson", "what's next"),
    # "how to use this" alone also heads a hook's or a plugin's usage, which teaches
    "starting point": (
        "where to start",
        "where to begin",
        "start here",
        "begin here",
        "how to read this",
        "how to use this book",
        "how to use this guide",
        "how to use this tutorial",
        "how to use this handbook",
        "how to use this course",
        "learning path",
        "reading order",
    ),
    "review": (
        "check your understanding",
        "review questions",
        "assessment questions",
        "multiple choice",
        "short answer",
        "self-assessment",
        "exercise",
        "quiz",
        "answer key",
        "key terms",
        "glossary",
    ),
    "references": (
        "further reading",
        "further information",
        "see also",
        "references",
        "resources",
        "table of contents",
    ),
}
"""Each kind of structural section, and the phrases that title it."""


def titles_section(kind: str, heading: str) -> bool:
    """Whether `heading` titles a structural section of this kind."""
    lowered = heading.lower().replace("\u2019", "'")
    return any(phrase in lowered for phrase in STRUCTURAL_SECTIONS[kind])


def is_structural(heading: str) -> bool:
    """Whether `heading` titles any structural section."""
    return any(titles_section(kind, heading) for kind in STRUCTURAL_SECTIONS)


REVIEW_PAGE = re.compile(r"\b(quiz|quizzes|exam|exams)\b", re.IGNORECASE)
"""A page titled so ("Week 1 Quiz: Foundations") is questions for the reader: every section of
it reviews what other pages teach."""


def is_review_page(title: str) -> bool:
    """Whether a page's title names a quiz or an exam."""
    return bool(REVIEW_PAGE.search(title))
