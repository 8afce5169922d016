"""Docusaurus 3 naming rules as pure functions: number prefixes, doc ids, routes, heading ids.

Each rule restates what Docusaurus 3.10's docs plugin and MDX loader do, and the unit tests use
the cases of Docusaurus's own test suite:
- Number prefixes (`DefaultNumberPrefixParser`): `01-intro` → `intro`, but a name starting like a
  version or a date (`^\\d+[-_.]\\d+`: `1.1-intro`, `2021-01-31-post`, `8.0`) is left whole.
- Doc ids: folders without number prefixes, then frontmatter `id` or the unprefixed file name.
  `parse_number_prefixes: false` in the frontmatter keeps every prefix.
- Routes (`getSlug`): an absolute frontmatter `slug` is the route; a relative one is resolved
  against the page's folder like a URL (`../x`, `./x`); without a slug, a category index
  (`index`, `README`, or a file named exactly like its folder, any case, prefixes included) takes
  the folder's route with a trailing slash, any other page `folder/` + its id.
- Heading ids: a trailing comment `{/* #id */}` (MDX; `<!-- #id -->` in CommonMark), else the
  classic `{#id}`, else github-slugger 1.5 over the heading's text (repeats get `-1`, `-2`, ...;
  explicit ids do not count as repeats). H1s are slugged too but rendered without an id.
"""

import re
import unicodedata
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt

IGNORED_PREFIX = re.compile(r"^[0-9]+[-_.][0-9]+")
"""Names that start like a version (`1.1-intro`, `8.0`) or a date (`2021-01-31`): no prefix."""
NUMBER_PREFIX = re.compile(r"^(?P<number>[0-9]+)\s*[-_.]+\s*(?P<suffix>[^-_.\s].*)$")
CLASSIC_HEADING_ID = re.compile(r"\s*\{#(?P<id>(?:.(?!\{#|\}))*.)\}$")
"""`Heading {#id}`: the id runs to the last `}` and cannot contain `{#` or `}`."""
MDX_COMMENT_AT_END = re.compile(r"\s*\{/\*(?P<comment>(?:(?!\*/).)*)\*/\}$", re.DOTALL)
"""A heading that ends with one MDX comment expression: `Heading {/* #id */}`."""
HTML_COMMENT_AT_END = re.compile(r"\s*<!--(?P<comment>(?:(?!-->).)*)-->$", re.DOTALL)
"""A heading that ends with one HTML comment: `Heading <!-- #id -->`."""
INDEX_NAMES = ("index", "readme")
SLUGGER_KEPT_SYMBOLS = (
    (0x24B6, 0x24E9),
    (0x1F130, 0x1F149),
    (0x1F150, 0x1F169),
    (0x1F170, 0x1F189),
)
"""Circled and squared Latin letters: alphabetic symbols (So) that github-slugger keeps."""


def parse_number_prefix(name: str) -> tuple[str, int | None]:
    """(name without its number prefix, the prefix) of a file (no extension) or folder name."""
    if IGNORED_PREFIX.match(name):
        return name, None
    match = NUMBER_PREFIX.match(name)
    if match is None:
        return name, None
    return match.group("suffix"), int(match.group("number"))


def strip_number_prefix(name: str) -> str:
    """`01-intro` → `intro`; `1.1-intro`, `2021-01-31-post` and `8.0` stay whole."""
    return parse_number_prefix(name)[0]


def _split(file_path: str) -> tuple[list[str], str]:
    """Folder segments and the file name without its extension."""
    *folders, name = file_path.split("/")
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return [part for part in folders if part and part != "."], stem


def _parses_prefixes(frontmatter: dict[str, Any]) -> bool:
    return frontmatter.get("parse_number_prefixes") is not False


def _unprefixed(name: str, frontmatter: dict[str, Any]) -> str:
    return strip_number_prefix(name) if _parses_prefixes(frontmatter) else name


def is_category_index(file_path: str) -> bool:
    """`index.md`, `README.md` or `guides/guides.md` (names as written, any case) index a folder."""
    folders, stem = _split(file_path)
    names = {*INDEX_NAMES, folders[-1].lower()} if folders else set(INDEX_NAMES)
    return stem.lower() in names


def doc_id(file_path: str, frontmatter: dict[str, Any]) -> str:
    """Docusaurus doc id: folders without number prefixes, then frontmatter `id` or file name."""
    folders, stem = _split(file_path)
    explicit = frontmatter.get("id")
    base = str(explicit) if explicit is not None else _unprefixed(stem, frontmatter)
    return "/".join([*(_unprefixed(folder, frontmatter) for folder in folders), base])


def resolve_pathname(to: str, base: str) -> str:
    """`to` resolved against the route `base` as a browser resolves a relative URL path.

    `base` is a folder route ending with `/`; `..` never climbs above `/`; a result that ends
    in `/`, `.` or `..` keeps a trailing slash.
    """
    parts = to.split("/") if to.startswith("/") else [*base.split("/")[:-1], *to.split("/")]
    kept: list[str] = []
    for part in parts:
        if part == "..":
            if kept:
                kept.pop()
        elif part not in ("", "."):
            kept.append(part)
    resolved = "/" + "/".join(kept)
    if parts[-1] in ("", ".", "..") and not resolved.endswith("/"):
        resolved += "/"
    return resolved


def page_slug(file_path: str, frontmatter: dict[str, Any]) -> str:
    """The page's route inside the docs plugin (Docusaurus's `slug`), starting with `/`."""
    slug = frontmatter.get("slug")
    slug = str(slug) if slug is not None else None
    if slug is not None and slug.startswith("/"):
        return slug
    folders, _ = _split(file_path)
    folder_route = "/" + "".join(f"{_unprefixed(folder, frontmatter)}/" for folder in folders)
    if not slug and is_category_index(file_path):
        return folder_route
    base = slug if slug is not None else doc_id(file_path, frontmatter).rsplit("/", 1)[-1]
    return resolve_pathname(base, folder_route)


def page_url(slug: str, site_url: str, base_url: str, route_base: str) -> str:
    """Absolute URL of a page: site origin + `baseUrl` + docs `routeBasePath` + slug.

    A slug that ends with `/` (a category index) keeps its trailing slash, as Docusaurus's
    permalink does. The path is percent-encoded where a URL needs it (spaces, non-ASCII).
    """
    parts = [part.strip("/") for part in (base_url, route_base, slug)]
    path = "/".join(part for part in parts if part)
    trailing = "/" if path and slug.endswith("/") else ""
    encoded = quote(f"/{path}{trailing}", safe="/!$&'()*+,;=:@%~")
    return f"{site_url.rstrip('/')}{encoded}"


def _comment_heading_id(comment: str) -> str | None:
    """The id of a heading-id comment (`#my-id`, first word only), or None."""
    words = comment.strip().split(" ")
    first = words[0] if words else ""
    return (first[1:] or None) if first.startswith("#") else None


def split_heading_id(raw: str, mdx: bool = True) -> tuple[str, str | None]:
    """A heading's Markdown split into (text, explicit id); no explicit id → (text, None).

    `Quality of Service {/* #qos */}` and `Quality of Service {#qos}` both give
    (`Quality of Service`, `qos`). The comment must be the heading's last node and start with
    `#`; any other trailing comment stays in the text (Docusaurus slugs it). Docusaurus compiles
    every page as MDX by default (`markdown.format: 'mdx'`); only pages compiled as CommonMark
    (`mdx=False`) take an HTML comment, `<!-- #qos -->`, instead of the MDX one.
    """
    text = raw.strip()
    match = (MDX_COMMENT_AT_END if mdx else HTML_COMMENT_AT_END).search(text)
    if match is not None:
        found = _comment_heading_id(match.group("comment"))
        if found is not None:
            return text[: match.start()].strip(), found
    match = CLASSIC_HEADING_ID.search(text)
    if match is not None:
        return text[: match.start()].strip(), match.group("id").strip()
    return text, None


@lru_cache(maxsize=1)
def _inline_parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _inline_text(markdown: str, line_break: str) -> str:
    tokens = _inline_parser().parseInline(markdown)
    children = tokens[0].children if tokens else None
    pieces = []
    for child in children or []:
        if child.type in ("text", "code_inline", "image"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(line_break)
    return "".join(pieces)


def heading_plain_text(markdown: str) -> str:
    """A heading's text as a reader sees it: inline code, links and emphasis reduced to text."""
    return _inline_text(markdown, " ")


def heading_slug_text(markdown: str) -> str:
    """The text Docusaurus slugs: what a reader sees (image alt included), HTML tags left out.

    The space before a tag that is left out stays (`Foo <Badge />` slugs to `foo-`), as in
    Docusaurus.
    """
    return _inline_text(markdown, "\n")


def _is_kept(char: str) -> bool:
    """github-slugger 1.5 keeps letters, marks, decimal and letter numbers, `_`, `-` and space."""
    if char in "- ":
        return True
    category = unicodedata.category(char)
    if category[0] in "LM" or category in ("Nd", "Nl", "Pc"):
        return True
    return any(low <= ord(char) <= high for low, high in SLUGGER_KEPT_SYMBOLS)


def slugify(text: str) -> str:
    """github-slugger's `slug()`: lower-case, drop punctuation and symbols, spaces → `-`.

    Letters added to Unicode after github-slugger's tables (Unicode 13) are kept here and
    dropped there; no book we know uses them in a heading.
    """
    return "".join(c for c in text.lower() if _is_kept(c)).replace(" ", "-")


class HeadingSlugger:
    """Anchors for one page's headings in order; a repeated anchor gets `-1`, `-2`, ..."""

    def __init__(self) -> None:
        self._occurrences: dict[str, int] = {}

    def slug(self, heading_markdown: str) -> str:
        """The anchor Docusaurus gives a heading with this (id-less) Markdown text."""
        original = slugify(heading_slug_text(heading_markdown))
        result = original
        while result in self._occurrences:
            self._occurrences[original] += 1
            result = f"{original}-{self._occurrences[original]}"
        self._occurrences[result] = 0
        return result

    def heading_id(self, raw_heading: str, mdx: bool = True) -> tuple[str, str]:
        """(text, id) of a heading's raw Markdown: its explicit id, else the next slug."""
        text, explicit = split_heading_id(raw_heading, mdx)
        return text, explicit if explicit is not None else self.slug(text)
