"""The loader on small docs trees: pages, partials, problems and derived metadata."""

import json
import os
from pathlib import Path

import pytest

from core.settings import Settings
from ingest.chunker import chunk_pages
from ingest.loader import DocsFolderNotFoundError, load_documents

from ..conftest import corpus


@pytest.fixture
def settings() -> Settings:
    return Settings(_env_file=None, max_file_bytes=10_000)  # type: ignore[call-arg]


def write(root: Path, relative: str, text: str | bytes) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)


def test_pages_are_found_in_path_order_and_partials_are_not_pages(tmp_path, settings):
    write(tmp_path, "02-b/page.md", "# B\n")
    write(tmp_path, "01-a/page.mdx", "# A\n")
    write(tmp_path, "_partials/_x.mdx", "partial")
    write(tmp_path, "01-a/_hidden.md", "partial")
    write(tmp_path, ".git/x.md", "no")
    write(tmp_path, "notes.txt", "no")
    result = load_documents(tmp_path, settings)
    assert [d.file_path for d in result.documents] == ["01-a/page.mdx", "02-b/page.md"]
    assert result.problems == []


def test_frontmatter_keys_are_kept_and_contract_fields_derived(tmp_path, settings):
    write(
        tmp_path,
        "01-ros2/02-topics.md",
        "---\ntitle: Topics\nmodule: ros2\nchapter: '1'\nlesson: 2\nhardware_tier: 3\n"
        "proficiency_level: B1\ncustom: kept\nkeywords: [a]\ntags: [b, {label: c}]\n"
        "---\n# Topics\n",
    )
    (doc,) = load_documents(tmp_path, settings).documents
    assert doc.title == "Topics"
    assert doc.metadata["custom"] == "kept"
    assert doc.metadata["chapter"] == 1 and doc.metadata["lesson"] == 2
    assert doc.metadata["hardware_tier"] == 3 and doc.metadata["proficiency_level"] == "B1"
    assert doc.metadata["keywords"] == ["a", "b", "c"]
    assert doc.page_url == "http://localhost:3000/docs/ros2/topics"
    assert doc.doc_id == "ros2/topics"


def test_missing_fields_are_derived_from_folders(tmp_path, settings):
    write(tmp_path, "module-2/sub/page.md", "Body without frontmatter or H1.\n")
    write(tmp_path, "top.md", "# Top Page\n")
    first, second = load_documents(tmp_path, settings).documents
    assert first.metadata["module"] == "module-2" and first.metadata["chapter"] == 2
    assert first.metadata["hardware_tier"] == 1
    assert first.title == "Page"
    assert second.metadata["module"] is None and second.title == "Top Page"


def test_category_labels_are_collected_outermost_first(tmp_path, settings):
    write(tmp_path, "01-a/_category_.json", '{"label": "Module A"}')
    write(tmp_path, "01-a/02-b/_category_.json", "{broken json")
    write(tmp_path, "01-a/02-b/page.md", "# P\n")
    (doc,) = load_documents(tmp_path, settings).documents
    assert doc.metadata["category_labels"] == ["Module A"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("---\ntitle: [unclosed\n---\n# x\n", "invalid YAML frontmatter"),
        (b"\x00\x01binary", "binary file"),
        (b"caf\xe9 latin-1", "not UTF-8"),
        ("x" * 20_000, "over the 10,000-byte limit"),
    ],
)
def test_bad_files_are_reported_with_a_reason_and_the_rest_is_loaded(
    tmp_path, settings, content, reason
):
    write(tmp_path, "bad.md", content)
    write(tmp_path, "good.md", "# Good\n")
    result = load_documents(tmp_path, settings)
    assert [d.file_path for d in result.documents] == ["good.md"]
    (problem,) = result.problems
    assert problem.file_path == "bad.md" and problem.failed and reason in problem.reason


def test_empty_and_draft_pages_are_skipped_not_failed(tmp_path, settings):
    write(tmp_path, "empty.md", "  \n")
    write(tmp_path, "draft.md", "---\ndraft: true\n---\n# D\n")
    write(tmp_path, "hidden.md", "---\nunlisted: true\n---\n# U\n")
    result = load_documents(tmp_path, settings)
    assert [d.file_path for d in result.documents] == ["hidden.md"]
    assert result.documents[0].metadata["unlisted"] is True
    assert {(p.file_path, p.failed) for p in result.problems} == {
        ("draft.md", False),
        ("empty.md", False),
    }


def test_frontmatter_comment_lines_are_not_headings(tmp_path, settings):
    write(tmp_path, "p.md", "---\n# a YAML comment\ntitle: Real\n---\nText.\n")
    (doc,) = load_documents(tmp_path, settings).documents
    assert doc.title == "Real" and "# a YAML comment" not in doc.body


def test_missing_docs_folder_is_a_clear_error(tmp_path, settings):
    with pytest.raises(DocsFolderNotFoundError, match="BOOK_DOCS_DIR"):
        load_documents(tmp_path / "nope", settings)


def test_partial_import_outside_the_docs_root_is_ignored(tmp_path, settings):
    write(tmp_path / "outside", "_secret.mdx", "SECRET")
    docs = tmp_path / "docs"
    write(docs, "p.mdx", "import S from '../outside/_secret.mdx';\n\n<S />\n\nVisible.")
    (doc,) = load_documents(docs, settings).documents
    assert "SECRET" not in doc.body and "Visible." in doc.body


def test_version_like_folders_index_pages_and_comment_ids_give_docusaurus_urls(tmp_path, settings):
    write(tmp_path, "module-1/1.1-introduction/index.md", "# Intro\n\nText.\n")
    write(tmp_path, "module-1/1.1-introduction/01-lesson.md", "## Part {/* #p */}\n\nText.\n")
    write(tmp_path, "guides/README.md", "---\nslug: ../start/\n---\nText.\n")
    readme, lesson, index = load_documents(tmp_path, settings).documents
    base = "http://localhost:3000/docs"
    assert index.page_url == f"{base}/module-1/1.1-introduction/"
    assert lesson.page_url == f"{base}/module-1/1.1-introduction/lesson"
    assert readme.page_url == f"{base}/start/"
    (chunk,) = [c for c in chunk_pages([lesson], settings) if c.payload["anchor"]]
    assert chunk.payload["anchor"] == "p" and chunk.payload["heading"] == "Part"


def built_site(root: Path, docs: dict[str, str], metadata: dict, pages: dict[str, str]) -> Path:
    """A site folder as `docusaurus build` leaves it: docs, .docusaurus metadata, build HTML."""
    for relative, text in docs.items():
        write(root / "docs", relative, text)
    folder = root / ".docusaurus" / "docusaurus-plugin-content-docs" / "default"
    for number, (relative, data) in enumerate(metadata.items()):
        record = {"source": f"@site/docs/{relative}", "version": "current", **data}
        write(folder, f"site-docs-{number}.json", json.dumps(record))
    write(root / ".docusaurus", "docusaurus.config.mjs", 'export default {\n  "baseUrl": "/",\n}')
    for relative, html in pages.items():
        write(root / "build", relative, html)
    return root / "docs"


def test_a_built_sites_routes_and_heading_ids_are_preferred(tmp_path, settings):
    docs = built_site(
        tmp_path,
        {"a.md": "---\nid: a\n---\n## Overview\n\nText.\n", "b.md": "## B\n\nText.\n"},
        {
            "a.md": {
                "id": "recorded-a",
                "slug": "/elsewhere",
                "permalink": "/docs/elsewhere",
                "frontMatter": {"id": "a"},
            },
            "b.md": {
                "id": "b",
                "slug": "/b",
                "permalink": "/docs/b",
                "frontMatter": {"slug": "/old"},
            },
        },
        {"docs/elsewhere/index.html": '<h2 id="plugin-made">Overview<a>\u200b</a></h2>'},
    )
    a, b = load_documents(docs, settings).documents
    assert a.doc_id == "recorded-a" and a.page_url == "http://localhost:3000/docs/elsewhere"
    (chunk,) = chunk_pages([a], settings)
    assert chunk.payload["anchor"] == "plugin-made"
    assert b.page_url == "http://localhost:3000/docs/b"  # recorded with other frontmatter: ours
    ours = load_documents(docs, settings, use_built_site=False).documents[0]
    assert ours.page_url == "http://localhost:3000/docs/a" and ours.doc_id == "a"


def test_a_build_older_than_the_page_is_not_trusted_for_heading_ids(tmp_path, settings):
    docs = built_site(
        tmp_path,
        {"a.md": "## Overview\n\nText.\n"},
        {"a.md": {"id": "a", "slug": "/a", "permalink": "/docs/a", "frontMatter": {}}},
        {"docs/a.html": '<h2 class="anchor" id="old-id">Overview</h2>'},
    )
    old = (docs / "a.md").stat().st_mtime - 60
    os.utime(tmp_path / "build" / "docs" / "a.html", (old, old))
    (chunk,) = chunk_pages(load_documents(docs, settings).documents, settings)
    assert chunk.payload["anchor"] == "overview"


@pytest.mark.corpus
def test_real_corpora_load_without_failures_and_expand_partials():
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    for name in ("humanoid-textbook", "redux-docs"):
        result = load_documents(corpus(name), settings)
        assert not [p for p in result.problems if p.failed], name
        for doc in result.documents:
            fence = False
            for line in doc.body.splitlines():
                fence ^= line.lstrip().startswith("```")
                assert fence or not line.startswith(("import ", "export ")), doc.file_path
    redux = load_documents(corpus("redux-docs"), settings)
    assert "components/_FundamentalsWarning.mdx" not in {d.file_path for d in redux.documents}
    overview = next(d for d in redux.documents if d.file_path.endswith("part-1-overview.md"))
    partial = (corpus("redux-docs") / "components/_FundamentalsWarning.mdx").read_text()
    longest_line = max(partial.splitlines(), key=len)
    assert "FundamentalsWarning" not in overview.body
    assert longest_line in overview.body
