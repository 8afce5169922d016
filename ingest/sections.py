"""Split a page's Markdown into its heading tree of sections, reading the markdown-it token stream.

Headings are taken from the token stream, so a `#` line inside a code fence is never a heading
(frontmatter is already gone: the loader removed it). Every heading, H1 to H6, passes through
one `HeadingSlugger` in page order, so anchors match the ones Docusaurus renders.
"""

from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ingest.docusaurus import HeadingSlugger, split_heading_id
from ingest.tokens import count_tokens

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


def _top_level_blocks(body: str) -> list[tuple[Token, Token | None, str]]:
    """(opening token, inline token of a heading, source text) of each top-level block."""
    lines = body.splitlines()
    tokens = _parser().parse(body)
    blocks = []
    for position, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        start, end = token.map
        inline = tokens[position + 1] if token.type == "heading_open" else None
        blocks.append((token, inline, "\n".join(lines[start:end]).strip("\n")))
    return blocks


def parse_sections(body: str, title: str) -> list[Section]:
    """The page as a list: its top section (H1 and text before the first H2), then H2 sections.

    H3 sections hang under their H2 as `subsections`; H4-H6 headings stay inside the text of
    their H3/H2 section. A page without an H1 uses `title` as the root of every heading path.
    """
    slugger = HeadingSlugger()
    top = Section(heading_path=[title], anchor=None)
    sections = [top]
    current_h2: Section | None = None
    current: Section = top
    seen_h1 = False
    for token, inline, text in _top_level_blocks(body):
        if token.type != "heading_open" or inline is None:
            kind = BLOCK_KINDS.get(token.type, "other")
            current.blocks.append(Block(text, kind, count_tokens(text)))
            continue
        level = int(token.tag[1])
        heading, custom_id = split_heading_id(inline.content)
        anchor = custom_id or slugger.slug(heading)
        if level == 1 and not seen_h1 and current is top and not top.blocks:
            seen_h1 = True
            top.heading_path = [heading]
        elif level <= 2:
            current_h2 = Section([top.heading_path[0], heading], anchor)
            sections.append(current_h2)
            current = current_h2
        elif level == 3:
            parent = current_h2 or top
            current = Section([*parent.heading_path, heading], anchor)
            parent.subsections.append(current)
        else:
            current.blocks.append(Block(text, "heading", count_tokens(text)))
    return sections


def first_h1(body: str) -> str | None:
    """Text of the page's first H1 outside code fences, if it has one."""
    for token, inline, _ in _top_level_blocks(body):
        if token.tag == "h1" and inline is not None:
            return split_heading_id(inline.content)[0]
    return None
