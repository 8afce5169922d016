"""Docusaurus conventions as pure functions: number prefixes, doc ids, page routes, heading anchors.

The rules follow Docusaurus 3's docs plugin: `DefaultNumberPrefixParser` for `01-intro.md`
style names (date- and version-like names are left alone), `getSlug` for routes (frontmatter
`slug`, else folder + `id`/file name, with category index files taking the folder's route),
and github-slugger for heading ids (`{#custom-id}` wins; repeats get `-1`, `-2`).
"""

import posixpath
import re
import unicodedata
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

DATE_LIKE_PREFIX = re.compile(r"^(?:\d{2}|\d{4})[-_.]\d{2}(?:[-_.](?:\d{2}|\d{4}))?.*$")
VERSION_LIKE_PREFIX = re.compile(r"^\d+[-_.]\d+(?:$|[-_.]\d+)")
NUMBER_PREFIX = re.compile(r"^(?P<number>\d+)\s*[-_.]+\s*(?P<suffix>[^-_.\s].*)$")
CUSTOM_HEADING_ID = re.compile(r"\s*\{#(?P<id>[^{}\s]+)\}\s*$")
INDEX_NAMES = {"index", "readme"}


def strip_number_prefix(name: str) -> str:
    """`01-intro` → `intro`; `2021-01-31-post` and `1.0` keep their numbers, as in Docusaurus."""
    if DATE_LIKE_PREFIX.match(name) or VERSION_LIKE_PREFIX.match(name):
        return name
    match = NUMBER_PREFIX.match(name)
    return match.group("suffix") if match else name


def _split(file_path: str) -> tuple[list[str], str]:
    """Folder segments and the file name without extension."""
    folder, name = posixpath.split(file_path)
    stem = name.rsplit(".", 1)[0]
    return [part for part in folder.split("/") if part], stem


def _is_category_index(folders: list[str], stem: str) -> bool:
    """`index`, `README`, or a file named like its folder stands for the folder."""
    lowered = strip_number_prefix(stem).lower()
    if lowered in INDEX_NAMES:
        return True
    return bool(folders) and lowered == strip_number_prefix(folders[-1]).lower()


def doc_id(file_path: str, frontmatter: dict[str, Any]) -> str:
    """Docusaurus doc id: folders without number prefixes, then frontmatter `id` or file name."""
    folders, stem = _split(file_path)
    base = str(frontmatter.get("id") or strip_number_prefix(stem))
    return "/".join([*(strip_number_prefix(f) for f in folders), base])


def page_slug(file_path: str, frontmatter: dict[str, Any]) -> str:
    """The page's route inside the docs plugin, starting with `/`."""
    folders, stem = _split(file_path)
    folder_route = "/" + "".join(f"{strip_number_prefix(f)}/" for f in folders)
    slug = frontmatter.get("slug")
    if isinstance(slug, str) and slug.startswith("/"):
        return slug
    if not slug and _is_category_index(folders, stem):
        return folder_route
    base = str(slug or frontmatter.get("id") or strip_number_prefix(stem))
    return posixpath.normpath(posixpath.join(folder_route, base))


def page_url(slug: str, site_url: str, base_url: str, route_base: str) -> str:
    """Absolute URL of a page: site origin + `baseUrl` + docs `routeBasePath` + slug."""
    parts = [part.strip("/") for part in (base_url, route_base, slug)]
    path = "/".join(part for part in parts if part)
    return f"{site_url.rstrip('/')}/{path}"


def split_heading_id(raw: str) -> tuple[str, str | None]:
    """`Quality of Service {#qos}` → (`Quality of Service`, `qos`); no id → (text, None)."""
    match = CUSTOM_HEADING_ID.search(raw)
    if match is None:
        return raw.strip(), None
    return raw[: match.start()].strip(), match.group("id")


@lru_cache(maxsize=1)
def _inline_parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def heading_plain_text(markdown: str) -> str:
    """A heading's text as a reader sees it: inline code, links and emphasis reduced to text."""
    tokens = _inline_parser().parseInline(markdown)
    children = tokens[0].children if tokens else None
    pieces = []
    for child in children or []:
        if child.type in ("text", "code_inline"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
    return "".join(pieces)


def _is_removed(char: str) -> bool:
    """github-slugger drops controls, punctuation and symbols, but keeps `-` and `_`."""
    if char in "-_ ":
        return False
    return unicodedata.category(char)[0] in "CPS"


def slugify(text: str) -> str:
    """github-slugger's `slug()`: lower-case, drop punctuation and symbols, spaces → `-`."""
    return "".join(c for c in text.lower() if not _is_removed(c)).replace(" ", "-")


class HeadingSlugger:
    """Anchors for one page's headings in order; a repeated anchor gets `-1`, `-2`, ..."""

    def __init__(self) -> None:
        self._occurrences: dict[str, int] = {}

    def slug(self, heading_markdown: str) -> str:
        """The anchor Docusaurus gives a heading with this (id-less) Markdown text."""
        original = slugify(heading_plain_text(heading_markdown))
        result = original
        while result in self._occurrences:
            self._occurrences[original] += 1
            result = f"{original}-{self._occurrences[original]}"
        self._occurrences[result] = 0
        return result
