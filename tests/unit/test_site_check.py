"""The citation check against a built site: pages, anchors, URL forms, report and exit status."""

import json
from pathlib import Path
from typing import Any

import pytest

from agent.cli import main as bookrag
from core.settings import Settings
from ingest.site_check import (
    ANCHOR,
    PAGE,
    Citation,
    check_citations,
    citations_from_docs,
    citations_from_payloads,
)


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def cite(url: str) -> Citation:
    page, _, anchor = url.partition("#")
    return Citation(url, page, anchor or None, "p.md", "H")


@pytest.fixture
def build(tmp_path: Path) -> Path:
    out = tmp_path / "build"
    write(out, "docs/a/index.html", '<h2 id="overview">Overview</h2><h3 id=über-straße>Ü</h3>')
    write(out, "docs/b.html", "<main id=content><h2 id='x'>X</h2></main>")
    write(out, "docs/guides/index.html", "<h1>Guides</h1>")
    return out


def test_pages_and_anchors_that_exist_resolve_in_either_trailing_slash_layout(build):
    urls = [
        "http://localhost:3000/docs/a#overview",
        "http://localhost:3000/docs/a/#overview",
        "http://localhost:3000/docs/a#%C3%BCber-stra%C3%9Fe",
        "http://localhost:3000/docs/a#über-straße",
        "http://localhost:3000/docs/b#x",
        "http://localhost:3000/docs/guides/",
    ]
    report = check_citations([cite(u) for u in urls], build, settings())
    assert report.broken == [] and len(report.results) == len(urls)


def test_missing_pages_and_anchors_are_told_apart(build):
    urls = [
        "http://localhost:3000/docs/a#gone",
        "http://localhost:3000/docs/nowhere",
        "https://elsewhere.dev/docs/a",
        "http://localhost:3000/docs/../secret",
    ]
    report = check_citations([cite(u) for u in urls], build, settings())
    assert [(r.citation.url, r.problem) for r in report.broken] == [
        (urls[0], ANCHOR),
        (urls[1], PAGE),
        (urls[2], PAGE),
        (urls[3], PAGE),
    ]
    assert "3 pages, 1 anchors" in report.summary()


def test_base_url_is_stripped_before_looking_in_the_build(build):
    s = settings(site_url="https://x.io", site_base_url="/book/")
    ok = check_citations([cite("https://x.io/book/docs/a#overview")], build, s)
    outside = check_citations([cite("https://x.io/docs/a#overview")], build, s)
    assert ok.broken == [] and outside.broken[0].problem == PAGE


def test_citations_are_distinct_urls_with_page_top_for_no_anchor():
    payloads: list[dict[str, Any]] = [
        {"page_url": "u", "anchor": "a", "file_path": "f", "heading": "A"},
        {"page_url": "u", "anchor": "a", "file_path": "f", "heading": "A"},
        {"page_url": "u", "anchor": None, "file_path": "f", "heading": "T"},
    ]
    assert [c.url for c in citations_from_payloads(payloads)] == ["u", "u#a"]


def test_command_lists_citations_as_json_and_fails_when_one_is_broken(
    tmp_path, capsys, monkeypatch
):
    docs = tmp_path / "docs"
    write(docs, "01-a.md", "# A\n\nTop.\n\n## Overview\n\nText.\n\n## Missing\n\nText.\n")
    out = tmp_path / "out"
    write(out, "docs/a/index.html", '<h2 id="overview">Overview</h2>')
    assert [c.url for c in citations_from_docs(docs, settings())] == [
        "http://localhost:3000/docs/a",
        "http://localhost:3000/docs/a#missing",
        "http://localhost:3000/docs/a#overview",
    ]
    assert bookrag(["check-citations", str(out), "--docs", str(docs), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert (report["checked"], report["broken"], report["broken_anchors"]) == (3, 1, 1)
    assert [c["ok"] for c in report["citations"]] == [True, False, True]
    write(out, "docs/a/index.html", '<h2 id="overview">O</h2><h2 id="missing">M</h2>')
    assert bookrag(["check-citations", str(out), "--docs", str(docs)]) == 0
    assert bookrag(["check-citations", str(tmp_path / "no-build"), "--docs", str(docs)]) == 2
    assert bookrag(["check-citations", str(out), "--docs", str(tmp_path / "no-docs")]) == 2
