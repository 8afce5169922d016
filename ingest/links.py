"""Reference-style links made inline, so a quoted sentence keeps its link.

A page may write `[api][]` or `[jest-dom][gh]` (or `[gh]`) and define `[api]: ./api.md` lines
further down. The chunker's Markdown parser drops those definition lines, so a chunk, and an
answer quoting it, would show `[api][]` as literal text with nowhere to go. A link into the book
becomes an inline one, `[api](./api.md "title")`, its target as written (the reader's chat
resolves it against the cited page, as it does the page's other links). A link to another site
becomes its text: an answer shows no more of it unless the deployment lets links reach that
host, and an address is not the book's words. Indexed, `[standard]: https://standardjs.com/…`
made the Prettier docs "name" StandardJS, so "What does StandardJS say about using var versus
let?" was answered rather than refused. Labels match as CommonMark matches them (case and runs
of white space ignored). A label with no definition, and anything inside code or a heading,
stays as written.
"""

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference

from ingest.mdx import ATX_HEADING, FENCE_OPEN, closes_fence

LINK_TEXT = r"(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*"
"""A link's text: no bracket except escaped ones or one nested pair (an image in a link)."""
CODE_OR_REFERENCE = re.compile(
    rf"(?P<code>(`+)(?:(?!\2).)+?\2)"
    rf"|(?<![!\]\\])\[(?P<text>{LINK_TEXT})\](?:\[(?P<label>[^\[\]\n]*)\]|(?![\[(:]))",
    re.DOTALL,
)
r"""An inline code span (left as it is), or a reference link: full `[text][label]`, collapsed
`[text][]` or shortcut `[text]` (not an image, nor an inline link `[text](…)`)."""

OFF_BOOK = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")
"""A target with a scheme (`https:`, `mailto:`) or a host of its own: not a page of the book."""


def inline_references(body: str) -> str:
    """`body` with its reference-style links written inline, or as their text when they lead
    off the book (module docstring)."""
    env: dict = {}
    MarkdownIt("commonmark").parse(body, env)  # collects the page's link definitions
    definitions = env.get("references", {})
    if not definitions:
        return body

    def inline(match: re.Match[str]) -> str:
        if match["code"] is not None:
            return match[0]
        label = match["label"] or match["text"]  # `[text][]` and `[text]` name themselves
        definition = definitions.get(normalizeReference(label))
        if definition is None:
            return match[0]
        if OFF_BOOK.match(definition["href"]):
            return match["text"]
        title = definition.get("title")
        titled = f' "{title}"' if title and '"' not in title else ""
        return f"[{match['text']}]({definition['href']}{titled})"

    return _in_prose(body, lambda prose: CODE_OR_REFERENCE.sub(inline, prose))


def _in_prose(body: str, change: Callable[[str], str]) -> str:
    """`body` with `change` applied to each run of lines outside fenced code blocks and
    headings (a heading's text stays as written: it names its section)."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in body.split("\n"):
        if fence is None and ((opened := FENCE_OPEN.match(line)) or ATX_HEADING.match(line)):
            fence = opened.group("fence") if opened else None
            out += [change("\n".join(prose))] if prose else []
            prose = []
        elif fence is None:
            prose.append(line)
            continue
        elif closes_fence(line, fence):
            fence = None
        out.append(line)
    out += [change("\n".join(prose))] if prose else []
    return "\n".join(out)
