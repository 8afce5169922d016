"""Sections and their anchors: the ids Docusaurus renders for a page's headings."""

from ingest.mdx import clean_mdx
from ingest.sections import adopt_heading_ids, first_h1, page_headings, parse_sections


def anchors(body: str) -> list[tuple[str, str | None]]:
    return [(h.text, h.anchor) for h in page_headings(body)]


def test_h1_has_no_anchor_but_takes_its_slug():
    # Docusaurus slugs every heading, then renders H1s without their id (theme Heading).
    body = "# Title\n\nIntro.\n\n## Title\n\nText.\n\n# Second Part\n\nMore.\n"
    assert anchors(body) == [("Title", None), ("Title", "title-1"), ("Second Part", None)]
    top, h2, later_h1 = parse_sections(body, "Page")
    assert top.anchor is None and top.heading_path == ["Title"]
    assert h2.anchor == "title-1"
    assert later_h1.anchor is None and later_h1.heading_path == ["Title", "Second Part"]


def test_text_under_an_h1_that_is_not_first_cites_the_page_top():
    body = "Before the title.\n\n# Title\n\nUnder the title.\n\n## Part\n\nText.\n"
    sections = parse_sections(body, "Page")
    assert [s.anchor for s in sections] == [None, None, "part"]


def test_nested_headings_take_their_turn_in_the_slugger():
    body = "> ## Quoted\n\n## Quoted\n\n- ## In a list\n\n## In a list\n"
    assert [h.anchor for h in page_headings(body)] == [
        "quoted",
        "quoted-1",
        "in-a-list",
        "in-a-list-1",
    ]
    assert [s.anchor for s in parse_sections(body, "P")[1:]] == ["quoted-1", "in-a-list-1"]


def test_both_explicit_id_syntaxes_and_repeats():
    body = (
        "## Quality of Service {/* #qos */}\n\n## Classic {#classic-id}\n\n"
        "### Task\n\n### Task\n\n#### Deep {#deep}\n\nText.\n"
    )
    assert anchors(body) == [
        ("Quality of Service", "qos"),
        ("Classic", "classic-id"),
        ("Task", "task"),
        ("Task", "task-1"),
        ("Deep", "deep"),
    ]
    sections = parse_sections(body, "P")
    assert sections[1].heading_path == ["P", "Quality of Service"]
    deep = sections[2].subsections[1].blocks[0]
    assert deep.text == "#### Deep"  # the id syntax is not shown as text


def test_cleaning_mdx_keeps_heading_ids_and_tags_for_the_slugger():
    body = "import X from './x';\n\n## Quality of Service {/* #qos */}\n\n## Foo <Badge />\n"
    cleaned = clean_mdx(body)
    assert "## Quality of Service {/* #qos */}" in cleaned
    assert anchors(cleaned) == [("Quality of Service", "qos"), ("Foo", "foo-")]


def test_first_h1_is_shown_without_its_id():
    assert first_h1("## Not this\n\n# Title {/* #t */}\n") == "Title"


def test_a_built_pages_ids_are_adopted_only_where_ours_differ():
    body = "## Overview\n\nText.\n\n### Overview\n\n## Setup ##\n\n## Custom {#mine}\n"
    same = [(2, "Overview", "overview"), (3, "Overview", "overview-1"), (2, "Setup", "setup")]
    assert adopt_heading_ids(body, same) == body
    rendered = [(2, "Overview", "intro"), (3, "Overview", "overview-1"), (2, "Setup", "setup")]
    adopted = adopt_heading_ids(body, rendered)
    assert anchors(adopted) == [
        ("Overview", "intro"),
        ("Overview", "overview-1"),
        ("Setup", "setup"),
        ("Custom", "mine"),
    ]
    # a heading the built page does not have keeps our id (frozen so later slugs do not shift)
    assert anchors(adopt_heading_ids(body + "\n## Overview\n", rendered))[-1] == (
        "Overview",
        "overview-2",
    )


def test_headings_read_as_a_reader_sees_them_and_code_spans_stay_literal():
    body = (
        "## --filter &lt;package_name>\n\nA.\n\n"
        "## Array\\<string>\n\nB.\n\n"
        "## `&lt;URL&gt;` settings\n\nC.\n"
    )
    assert anchors(body) == [
        ("--filter <package_name>", "--filter-package_name"),
        ("Array<string>", "arraystring"),
        ("`&lt;URL&gt;` settings", "lturlgt-settings"),
    ]
