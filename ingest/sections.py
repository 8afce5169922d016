"""Split a page's Markdown into its heading tree of sections, reading the markdown-it token stream.

Headings are taken from the token stream, so a `#` line inside a code fence is never a heading
(frontmatter is already gone: the loader removed it). Every heading, H1 to H6 and nested ones
too, passes through one `HeadingSlugger` in page order, so anchors match the ids Docusaurus
renders; H1s take their turn but get no anchor, because Docusaurus renders them without an id.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ingest.docusaurus import HeadingSlugger, heading_slug_text, split_heading_id
from ingest.mdx import reader_text, strip_tags
from ingest.tokens import count_tokens

CLOSING_HASHES = re.compile(r"(?:[ \t]+#+)?[ \t]*$")
"""An ATX heading's optional closing sequence (`## Title ##`) and trailing spaces."""
BLOCK_KINDS = {
    "fence": "code",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "paragraph_open": "paragraph",
    "heading_open": "heading",
}


@dataclass(frozen=True)
class Block:
    """A top-level Markdown block: the unit a chunk is built from and never cut inside."""

    text: str
    kind: str
    """`code`, `table`, `list`, `paragraph`, `heading` (H4-H6 kept as text) or `other`."""
    tokens: int


@dataclass
class Section:
    """A heading and the blocks under it, up to the next heading of the same or higher level."""

    heading_path: list[str]
    """Heading texts from the page's H1 (or its title) down to this section's heading."""
    anchor: str | None
    """Docusaurus anchor of this section's heading; None for the top of the page."""
    blocks: list[Block] = field(default_factory=list)
    subsections: list["Section"] = field(default_factory=list)

    @property
    def heading(self) -> str:
        """This section's own heading text."""
        return self.heading_path[-1]

    def own_tokens(self) -> int:
        """Tokens of the blocks directly under this heading."""
        return sum(block.tokens for block in self.blocks)

    def total_tokens(self) -> int:
        """Tokens of the whole section, subsections included."""
        return self.own_tokens() + sum(sub.total_tokens() for sub in self.subsections)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Heading:
    """A heading of a page, as Docusaurus names it."""

    level: int
    text: str
    """Heading text as Markdown, without its explicit id, tags or comments."""
    slug_text: str
    """The plain text Docusaurus slugs (and shows): inline markup reduced to its words."""
    anchor: str | None
    """The id Docusaurus renders; None for an H1, which it renders without one."""
    explicit: bool
    """True when the source gives the id (`{/* #id */}` or `{#id}`)."""
    line: int
    """Index of the heading's first line in the body."""
    last_line: int
    """Index of the line where the heading's text ends (a setext heading spans lines)."""
    top_level: bool
    """False for a heading inside a blockquote, list or other container."""


def _tokens(body: str) -> list[Token]:
    return _parser().parse(body)


def _headings(tokens: list[Token]) -> dict[int, Heading]:
    """Every heading by token position, named with one slugger in page order (H1s included)."""
    slugger = HeadingSlugger()
    found = {}
    for position, token in enumerate(tokens):
        if token.type != "heading_open" or token.map is None:
            continue
        raw = tokens[position + 1].content
        text, explicit = split_heading_id(raw)
        anchor = explicit if explicit is not None else slugger.slug(text)
        level = int(token.tag[1])
        found[position] = Heading(
            level=level,
            text=reader_text(strip_tags(text) if "<" in text or "{/*" in text else text),
            slug_text=heading_slug_text(text),
            anchor=None if level == 1 else anchor,
            explicit=explicit is not None,
            line=token.map[0],
            last_line=token.map[0] if token.markup.startswith("#") else token.map[1] - 2,
            top_level=token.level == 0,
        )
    return found


def page_headings(body: str) -> list[Heading]:
    """Every heading of a page in order, with the id Docusaurus gives it."""
    return list(_headings(_tokens(body)).values())


def _top_level_blocks(body: str) -> list[tuple[Token, Heading | None, str]]:
    """(opening token, its heading if it is one, source text) of each top-level block."""
    lines = body.splitlines()
    tokens = _tokens(body)
    headings = _headings(tokens)
    blocks = []
    for position, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        start, end = token.map
        blocks.append((token, headings.get(position), "\n".join(lines[start:end]).strip("\n")))
    return blocks


def parse_sections(body: str, title: str) -> list[Section]:
    """The page as a list: its top section (H1 and text before the first H2), then H2 sections.

    H3 sections hang under their H2 as `subsections`; H4-H6 headings stay inside the text of
    their H3/H2 section. A page without an H1 uses `title` as the root of every heading path.
    Every heading, nested ones too, takes its turn in the page's slugger, as in Docusaurus; a
    section under a later H1 has no anchor, since Docusaurus gives H1s no id.
    """
    top = Section(heading_path=[title], anchor=None)
    sections = [top]
    current_h2: Section | None = None
    current: Section = top
    seen_h1 = False
    for token, heading, text in _top_level_blocks(body):
        if token.type == "hr":  # a thematic break says nothing (a section of only "---")
            continue
        if heading is None:
            kind = BLOCK_KINDS.get(token.type, "other")
            current.blocks.append(Block(text, kind, count_tokens(text)))
            continue
        if heading.level == 1 and not seen_h1 and current is top and not top.blocks:
            seen_h1 = True
            top.heading_path = [heading.text]
        elif heading.level <= 2:
            current_h2 = Section([top.heading_path[0], heading.text], heading.anchor)
            sections.append(current_h2)
            current = current_h2
        elif heading.level == 3:
            parent = current_h2 or top
            current = Section([*parent.heading_path, heading.text], heading.anchor)
            parent.subsections.append(current)
        else:
            shown = f"{'#' * heading.level} {heading.text}" if heading.explicit else text
            current.blocks.append(Block(shown, "heading", count_tokens(shown)))
    return sections


def first_h1(body: str) -> str | None:
    """Text of the page's first H1 outside code fences, if it has one."""
    for _, heading, _ in _top_level_blocks(body):
        if heading is not None and heading.level == 1:
            return heading.text
    return None


def adopt_heading_ids(body: str, rendered: Sequence[tuple[int, str, str]]) -> str:
    """The body with the heading ids a built page shows, where they differ from ours.

    `rendered` holds (level, text, id) of the built page's headings in order. Each heading of
    the body is matched, in order, to the next rendered heading of the same level and text; if
    any matched id differs from the one our rules give, every heading without an explicit id
    gets one (the rendered id where matched, ours elsewhere), so that no slug shifts.
    """
    headings = [heading for heading in page_headings(body) if heading.level > 1]
    chosen: dict[Heading, str] = {}
    cursor = 0
    for heading in headings:
        wanted = " ".join(heading.slug_text.split())
        for position in range(cursor, len(rendered)):
            level, text, rendered_id = rendered[position]
            if level == heading.level and " ".join(text.split()) == wanted:
                chosen[heading] = rendered_id
                cursor = position + 1
                break
    if all(
        heading.explicit or chosen.get(heading, heading.anchor) == heading.anchor
        for heading in headings
    ):
        return body
    lines = body.split("\n")
    for heading in headings:
        heading_id = chosen.get(heading, heading.anchor)
        if heading.explicit or not heading_id or "{" in heading_id or "}" in heading_id:
            continue
        line = CLOSING_HASHES.sub("", lines[heading.last_line])
        lines[heading.last_line] = f"{line} {{#{heading_id}}}"
    return "\n".join(lines)
