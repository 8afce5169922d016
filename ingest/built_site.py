"""What a built Docusaurus site recorded: each doc's route and id, and the ids in each page.

`docusaurus build` leaves two records next to the docs: the generated metadata in
`<site>/.docusaurus/docusaurus-plugin-content-docs/default/*.json` (one file per doc: `source`,
`id`, `slug`, `permalink`, `frontMatter`) and the HTML in the output folder (`<site>/build` by
default), whose headings carry the ids Docusaurus gave them. The loader prefers these records
to its own rules where they exist; the citation check reads the HTML to see what resolves.
"""

import json
import os
import re
from dataclasses import dataclass
from functools import cached_property
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

GENERATED_DIR = ".docusaurus"
DOCS_METADATA_DIR = "docusaurus-plugin-content-docs/default"
BASE_URL_SETTING = re.compile(r'^\s*"baseUrl":\s*"(?P<base>[^"]*)"', re.MULTILINE)
HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
ZERO_WIDTH_SPACE = "\u200b"
"""Docusaurus's hash link after each heading's text holds only this character."""


@dataclass(frozen=True)
class RecordedDoc:
    """One doc as the docs plugin recorded it."""

    file_path: str
    """Path relative to the docs folder, `/`-separated."""
    id: str
    slug: str
    """Route inside the docs plugin (no base URL, no `routeBasePath`)."""
    permalink: str
    """Full path on the site (base URL and `routeBasePath` included)."""
    frontmatter: dict[str, Any]


@dataclass(frozen=True)
class RenderedHeading:
    """A heading of a built page that has an id (Docusaurus renders H1s without one)."""

    level: int
    id: str
    text: str


@dataclass(frozen=True)
class RenderedPage:
    """What a built page offers a link: the ids of its elements and its headings."""

    ids: frozenset[str]
    headings: tuple[RenderedHeading, ...]


class _PageParser(HTMLParser):
    """Collects every `id` attribute and the text of every heading that has an id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.headings: list[RenderedHeading] = []
        self._open: tuple[str, str] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element_id = dict(attrs).get("id")
        if element_id:
            self.ids.add(element_id)
        if tag in HEADING_TAGS and element_id and self._open is None:
            self._open = (tag, element_id)
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None and tag == self._open[0]:
            text = " ".join("".join(self._text).replace(ZERO_WIDTH_SPACE, "").split())
            self.headings.append(RenderedHeading(HEADING_TAGS[tag], self._open[1], text))
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)


def read_page(html_file: Path) -> RenderedPage:
    """The ids and headings of one built HTML page."""
    parser = _PageParser()
    parser.feed(html_file.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return RenderedPage(frozenset(parser.ids), tuple(parser.headings))


def page_file(build_dir: Path, path: str) -> Path | None:
    """The HTML file a site path (below the base URL) is served from, if the build has it.

    Covers every `trailingSlash` setting: `/docs/a` may be `docs/a/index.html` or `docs/a.html`.
    """
    relative = unquote(path).strip("/")
    if ".." in relative.split("/"):
        return None
    candidates = [build_dir / relative / "index.html", build_dir / f"{relative}.html"]
    if relative.endswith(".html"):
        candidates.insert(0, build_dir / relative)
    if not relative:
        candidates = [build_dir / "index.html"]
    return next((candidate for candidate in candidates if candidate.is_file()), None)


class BuiltSite:
    """A Docusaurus site folder whose docs have been built (or at least loaded) once."""

    def __init__(self, site_dir: Path, docs_dir: Path, build_dir: Path | None = None) -> None:
        self.site_dir = site_dir
        self.docs_dir = docs_dir
        default_build = site_dir / "build"
        self.build_dir = build_dir or (default_build if default_build.is_dir() else None)

    @classmethod
    def discover(cls, docs_dir: Path) -> "BuiltSite | None":
        """The site around `docs_dir` (its parent) if Docusaurus left its metadata there."""
        site_dir = Path(docs_dir).resolve().parent
        if not (site_dir / GENERATED_DIR / DOCS_METADATA_DIR).is_dir():
            return None
        return cls(site_dir, Path(docs_dir).resolve())

    @cached_property
    def base_url(self) -> str:
        """The `baseUrl` the site was built with (`/` when it cannot be read)."""
        config = self.site_dir / GENERATED_DIR / "docusaurus.config.mjs"
        try:
            match = BASE_URL_SETTING.search(config.read_text(encoding="utf-8"))
        except OSError:
            return "/"
        return match.group("base") if match else "/"

    @cached_property
    def docs(self) -> dict[str, RecordedDoc]:
        """Recorded docs of the current version by file path relative to the docs folder."""
        folder = self.site_dir / GENERATED_DIR / DOCS_METADATA_DIR
        docs_prefix = os.path.relpath(self.docs_dir, self.site_dir).replace(os.sep, "/")
        prefix = "@site/" + ("" if docs_prefix == "." else f"{docs_prefix}/")
        found = {}
        for path in sorted(folder.glob("site-*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            source = data.get("source") if isinstance(data, dict) else None
            if not isinstance(source, str) or not source.startswith(prefix):
                continue
            if data.get("version", "current") != "current" or "permalink" not in data:
                continue
            relative = source[len(prefix) :]
            found[relative] = RecordedDoc(
                file_path=relative,
                id=str(data.get("id", "")),
                slug=str(data.get("slug", "")),
                permalink=str(data["permalink"]),
                frontmatter=data.get("frontMatter") or {},
            )
        return found

    def rendered_page(self, doc: RecordedDoc) -> RenderedPage | None:
        """The built page of a doc, if the build has it and it is newer than the source."""
        if self.build_dir is None:
            return None
        base = self.base_url.rstrip("/")
        path = doc.permalink[len(base) :] if doc.permalink.startswith(base) else doc.permalink
        html_file = page_file(self.build_dir, path)
        source = self.docs_dir / doc.file_path
        try:
            stale = html_file is None or html_file.stat().st_mtime < source.stat().st_mtime
        except OSError:
            return None
        return None if stale or html_file is None else read_page(html_file)
