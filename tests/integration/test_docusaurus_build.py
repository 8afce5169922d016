"""Docusaurus itself builds the books, and every citation the index would give resolves.

The sample book (`book/`, packages from its lockfile) is built with and without
`future: {v4: true}`; the shared real books are built in throwaway sites (see
`tests/docusaurus_sites.py`). Our naming rules alone must give 100% resolving citations, and
every anchor must be the id of a heading with the cited heading's text. Build times are printed
(`pytest -s`) and recorded as test properties.
"""

from pathlib import Path

import pytest

from core.settings import Settings
from ingest.built_site import BuiltSite, page_file, read_page
from ingest.docusaurus import heading_plain_text
from ingest.site_check import CheckReport, check_citations, citations_from_docs

from ..conftest import SAMPLE_BOOK, corpus
from ..docusaurus_sites import BOOK, build, corpus_site, install_book_packages, missing_tools

pytestmark = pytest.mark.skipif(missing_tools() is not None, reason=str(missing_tools()))

CORPORA = [("humanoid-textbook", "docs"), ("redux-docs", "/"), ("prettier-docs", "docs")]
"""Each real book with its own docs `routeBasePath` (Redux serves its docs at the root)."""


@pytest.fixture(scope="module")
def book_packages() -> None:
    """book/'s packages, installed from package-lock.json (`npm ci`) when not already there."""
    install_book_packages()


def site_settings(route_base: str = "docs") -> Settings:
    return Settings(
        _env_file=None,
        site_url="http://localhost:3000",
        site_base_url="/",
        docs_route_base=route_base,
    )


def assert_all_resolve(report: CheckReport, out: Path, settings: Settings) -> None:
    shown = "\n".join(f"{r.citation.url}: {r.detail}" for r in report.broken[:20])
    assert report.broken == [], f"{report.summary()}\n{shown}"
    mismatched = []
    for result in report.results:
        citation = result.citation
        if citation.anchor is None:
            continue
        path = citation.page_url.removeprefix(settings.site_url.rstrip("/"))
        html_file = page_file(out, path)
        assert html_file is not None
        headings = {h.id: h.text for h in read_page(html_file).headings}
        wanted = " ".join(heading_plain_text(citation.heading).split())
        if headings.get(citation.anchor) != wanted:
            mismatched.append((citation.url, headings.get(citation.anchor), wanted))
    assert mismatched == [], mismatched[:20]


@pytest.mark.parametrize("v4", [False, True], ids=["v3-defaults", "future-v4"])
def test_sample_book_builds_and_every_citation_resolves(
    tmp_path, book_packages, record_property, v4
):
    settings = site_settings()
    env = {
        "SITE_URL": settings.site_url,
        "SITE_BASE_URL": settings.site_base_url,
        "DOCS_ROUTE_BASE": settings.docs_route_base,
        "DOCUSAURUS_FUTURE_V4": "true" if v4 else "false",
    }
    done = build(BOOK, tmp_path / "build", env)
    record_property("build_seconds", round(done.seconds, 1))
    print(f"\nsample book ({'future v4' if v4 else 'v3 defaults'}) built in {done.seconds:.1f} s")
    rules_only = citations_from_docs(SAMPLE_BOOK, settings, use_built_site=False)
    report = check_citations(rules_only, done.out_dir, settings)
    assert len(report.results) >= 100
    assert_all_resolve(report, done.out_dir, settings)
    recorded = citations_from_docs(
        SAMPLE_BOOK, settings, site=BuiltSite(BOOK, SAMPLE_BOOK, done.out_dir)
    )
    assert [c.url for c in recorded] == [c.url for c in rules_only]


@pytest.mark.corpus
@pytest.mark.parametrize(("name", "route_base"), CORPORA)
def test_real_book_builds_and_every_citation_resolves(
    tmp_path, book_packages, record_property, name, route_base
):
    docs = corpus(name)
    site = corpus_site(docs, tmp_path, route_base)
    done = build(site, tmp_path / "build")
    record_property("build_seconds", round(done.seconds, 1))
    settings = site_settings(route_base)
    report = check_citations(
        citations_from_docs(docs, settings, use_built_site=False), done.out_dir, settings
    )
    print(f"\n{name} built in {done.seconds:.1f} s; {report.summary()}")
    assert_all_resolve(report, done.out_dir, settings)
