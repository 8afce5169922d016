"""Check that every citation the index would give opens its page and section in a built site.

A citation is `page_url#anchor` (or `page_url` for a page's top), encoded as answers encode it
(`core.citation`). The check takes the book's
docs folder, loads and chunks it as an ingest would (no embeddings), and looks each distinct
citation up in the output folder of `docusaurus build`: the page must exist (`docs/a/index.html`
or `docs/a.html`, whatever `trailingSlash` says) and hold an element with the anchor as its id.
It can also read the citations stored in the index instead (`--index`).

    bookrag check-citations book/build --docs book/docs [--json] [--all] [--rules-only]

Exit status: 0 when every citation resolves, 1 when any is broken, 2 when the input is unusable.
SITE_URL, SITE_BASE_URL and DOCS_ROUTE_BASE must be the ones the site was built for.
"""

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from core.citation import citation_url
from core.settings import Settings, get_settings
from ingest.built_site import BuiltSite, RenderedPage, page_file, read_page
from ingest.chunker import chunk_pages
from ingest.loader import DocsFolderNotFoundError, load_documents

PAGE = "page"
ANCHOR = "anchor"


@dataclass(frozen=True)
class Citation:
    """A distinct citation URL and where it comes from (its first chunk)."""

    url: str
    """As answers cite it (`core.citation`): page URL and anchor, percent-encoded."""
    page_url: str
    anchor: str | None
    file_path: str
    heading: str


@dataclass(frozen=True)
class CitationResult:
    """A citation and, if it does not resolve, what is missing."""

    citation: Citation
    problem: str | None = None
    """None when the citation resolves; `page` or `anchor` for what is missing."""
    detail: str = ""

    @property
    def ok(self) -> bool:
        """Whether the link opens the cited page and section."""
        return self.problem is None


@dataclass
class CheckReport:
    """Every citation checked against one built site."""

    build_dir: Path
    results: list[CitationResult] = field(default_factory=list)

    @property
    def broken(self) -> list[CitationResult]:
        """Citations that do not resolve."""
        return [result for result in self.results if not result.ok]

    def summary(self) -> str:
        """One line: how many citations were checked and how many are broken, of which kind."""
        pages = sum(result.problem == PAGE for result in self.broken)
        anchors = sum(result.problem == ANCHOR for result in self.broken)
        return (
            f"{len(self.results)} citation URLs checked against {self.build_dir}: "
            f"{len(self.broken)} broken ({pages} pages, {anchors} anchors)"
        )

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data: counts, then every citation with its status."""
        return {
            "build_dir": str(self.build_dir),
            "checked": len(self.results),
            "broken": len(self.broken),
            "broken_pages": sum(result.problem == PAGE for result in self.broken),
            "broken_anchors": sum(result.problem == ANCHOR for result in self.broken),
            "citations": [
                {**asdict(result.citation), "ok": result.ok, "problem": result.problem}
                | ({"detail": result.detail} if result.detail else {})
                for result in self.results
            ],
        }


def citations_from_payloads(payloads: Iterable[dict[str, Any]]) -> list[Citation]:
    """Distinct citations of these chunk payloads, in URL order."""
    found: dict[str, Citation] = {}
    for payload in payloads:
        url = citation_url(payload)
        found.setdefault(
            url,
            Citation(
                url=url,
                page_url=str(payload["page_url"]),
                anchor=payload.get("anchor") or None,
                file_path=str(payload.get("file_path", "")),
                heading=str(payload.get("heading", "")),
            ),
        )
    return [found[url] for url in sorted(found)]


def citations_from_docs(
    docs_dir: Path,
    settings: Settings,
    use_built_site: bool = True,
    site: BuiltSite | None = None,
) -> list[Citation]:
    """Citations of a docs folder, chunked as an ingest would chunk it (nothing embedded).

    Like an ingest, the loader prefers what a built site around the docs recorded (`site`, else
    the one it finds); `use_built_site=False` checks our naming rules alone.
    """
    loaded = load_documents(docs_dir, settings, site=site, use_built_site=use_built_site)
    return citations_from_payloads(
        chunk.payload for chunk in chunk_pages(loaded.documents, settings)
    )


def citations_from_index(settings: Settings) -> list[Citation]:
    """Citations stored in the book's index (the embedding model only names the collection)."""
    from core.embeddings import make_embedding_model
    from core.store import Match, open_index

    index = open_index(settings, make_embedding_model(settings))
    fields = ["page_url", "anchor", "file_path", "heading"]
    points = index.points([Match("book_id", settings.book_id)], fields)
    return citations_from_payloads(point.payload for point in points)


def _site_path(page_url: str, settings: Settings) -> str | None:
    """The path of a page URL below the site's base URL, or None if it is not on this site."""
    site = urlsplit(settings.site_url)
    url = urlsplit(page_url)
    if (url.scheme, url.netloc) != (site.scheme, site.netloc):
        return None
    base = "/" + "/".join(part for part in (site.path, settings.site_base_url) if part.strip("/"))
    base = "/" + "/".join(piece for piece in base.split("/") if piece)
    path = url.path or "/"
    if base != "/" and not (path == base or path.startswith(base + "/")):
        return None
    return path[len(base) :] if base != "/" else path


def check_citations(
    citations: Sequence[Citation], build_dir: Path, settings: Settings
) -> CheckReport:
    """Look every citation up in a built site's output folder."""
    report = CheckReport(build_dir)
    pages: dict[Path, RenderedPage] = {}
    for citation in citations:
        page, _, fragment = citation.url.partition("#")
        path = _site_path(page, settings)
        if path is None:
            detail = f"not under SITE_URL {settings.site_url} + SITE_BASE_URL"
            report.results.append(CitationResult(citation, PAGE, detail))
            continue
        html_file = page_file(build_dir, path)
        if html_file is None:
            detail = f"no {path.strip('/') or 'index'}/index.html or .html in the build"
            report.results.append(CitationResult(citation, PAGE, detail))
            continue
        if html_file not in pages:
            pages[html_file] = read_page(html_file)
        anchor = unquote(fragment) if fragment else None
        ids = pages[html_file].ids
        if anchor is not None and anchor not in ids:
            detail = f"no element with id {anchor!r} in {html_file.relative_to(build_dir)}"
            report.results.append(CitationResult(citation, ANCHOR, detail))
            continue
        report.results.append(CitationResult(citation))
    return report


def run(args: argparse.Namespace, settings: Settings | None = None) -> int:
    """Run the check for parsed arguments; prints the report and returns the exit status."""
    settings = settings or get_settings()
    if not args.build.is_dir():
        print(
            f"error: build folder {args.build} does not exist; run docusaurus build",
            file=sys.stderr,
        )
        return 2
    try:
        if args.index:
            citations = citations_from_index(settings)
        else:
            docs = args.docs or settings.book_docs_dir
            citations = citations_from_docs(docs, settings, use_built_site=not args.rules_only)
    except DocsFolderNotFoundError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    report = check_citations(citations, args.build, settings)
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
    else:
        for result in report.results:
            if args.all or not result.ok:
                status = "ok" if result.ok else f"BROKEN {result.problem}"
                where = f"{result.citation.file_path} › {result.citation.heading}"
                detail = f": {result.detail}" if result.detail else ""
                print(f"{status:<14} {result.citation.url}  ({where}){detail}")
        print(report.summary(), file=sys.stderr)
    return 1 if report.broken else 0
