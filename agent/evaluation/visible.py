"""Text as a reader sees it, for comparing what a question set expects with what we produce.

A question set's facts and gold headings are written by people reading the rendered page: a
fact copied from a browser has no `**`, backticks or link syntax, and an answer that shows
"**TSDF** (truncated signed distance field) [2]" does state "TSDF (truncated signed distance
field)". So both sides are compared as rendered: inline markup reduced to its words (code
spans, emphasis, links to their text, images to their alt text), an answer's citation marks
(" [2]") left out, typographic quotes and apostrophes folded to ASCII, whitespace collapsed
and case ignored. Code blocks keep their text as written.
"""

import re
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

CITATION = re.compile(r"\s*\[\d+\](?=\s|$)")
"""An answer's citation mark after a sentence or excerpt: " [2]"."""
TYPOGRAPHIC = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def _inline(children: list[Token]) -> str:
    """Inline tokens as read; citation marks are dropped from prose, never from code."""
    pieces, prose = [], ""
    for child in children:
        if child.type == "text":
            prose += child.content
        elif child.type in ("softbreak", "hardbreak"):
            prose += " "
        elif child.type == "image":
            prose += _inline(child.children or [])
        elif child.type == "code_inline":
            pieces += [CITATION.sub("", prose), child.content]
            prose = ""
    return "".join([*pieces, CITATION.sub("", prose)])


def _fold(text: str) -> str:
    return " ".join(text.translate(TYPOGRAPHIC).split()).casefold()


def visible_text(markdown: str) -> str:
    """`markdown` as its rendered page reads, folded for comparison (see the module docstring)."""
    blocks = []
    for token in _parser().parse(markdown):
        if token.type == "inline":
            blocks.append(_inline(token.children or []))
        elif token.type in ("fence", "code_block"):
            blocks.append(token.content)
    return _fold("\n".join(blocks))


@lru_cache(maxsize=8192)
def visible_inline(markdown: str) -> str:
    """One line of Markdown (a heading) as it reads, folded for comparison: parsed as inline
    text, so that "1. Install" stays a heading's words rather than becoming a list."""
    tokens = _parser().parseInline(markdown)
    return _fold(_inline(tokens[0].children or []) if tokens else "")


def states(answer: str, fact: str) -> bool:
    """Whether a reader of `answer` reads `fact` in it. A fact is plain text as a reader
    copies it (backticks around code aside), so it is folded, not parsed: `__init__` stays."""
    return _fold(fact.replace("`", "")) in visible_text(answer)
