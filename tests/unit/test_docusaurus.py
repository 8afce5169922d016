"""Docusaurus rules: number prefixes, routes, doc ids, heading anchors, MDX cleaning."""

import pytest

from ingest.docusaurus import (
    HeadingSlugger,
    doc_id,
    page_slug,
    page_url,
    split_heading_id,
    strip_number_prefix,
)
from ingest.mdx import clean_mdx


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("01-intro", "intro"),
        ("1_setup", "setup"),
        ("02.basics", "basics"),
        ("10 - Advanced", "Advanced"),
        ("2021-01-31-post", "2021-01-31-post"),
        ("1.0", "1.0"),
        ("1.2.3-notes", "1.2.3-notes"),
        ("intro", "intro"),
        ("1.1-introduction", "1-introduction"),
    ],
)
def test_number_prefixes_are_stripped_like_docusaurus(name, expected):
    assert strip_number_prefix(name) == expected


@pytest.mark.parametrize(
    ("path", "frontmatter", "slug"),
    [
        ("01-ros2/02-topics.md", {}, "/ros2/topics"),
        ("01-ros2/02-topics.md", {"id": "ros2-topics"}, "/ros2/ros2-topics"),
        ("01-ros2/02-topics.md", {"slug": "/custom/url"}, "/custom/url"),
        ("01-ros2/02-topics.md", {"slug": "relative"}, "/ros2/relative"),
        ("01-ros2/index.md", {}, "/ros2/"),
        ("guides/README.md", {}, "/guides/"),
        ("guides/guides.md", {}, "/guides/"),
        ("intro.md", {}, "/intro"),
        ("a/b/03-deep.mdx", {}, "/a/b/deep"),
    ],
)
def test_page_slugs_follow_docusaurus(path, frontmatter, slug):
    assert page_slug(path, frontmatter) == slug


def test_page_url_joins_site_base_url_and_route_base():
    assert page_url("/ros2/topics", "https://book.dev", "/", "docs") == (
        "https://book.dev/docs/ros2/topics"
    )
    assert page_url("/ros2/topics", "https://x.io/", "/handbook/", "/") == (
        "https://x.io/handbook/ros2/topics"
    )


def test_doc_id_uses_folders_without_prefixes_and_frontmatter_id():
    assert doc_id("01-ros2/02-topics.md", {}) == "ros2/topics"
    assert doc_id("01-ros2/02-topics.md", {"id": "t"}) == "ros2/t"


def test_custom_heading_id_is_split_from_the_text():
    assert split_heading_id("Quality of Service {#qos}") == ("Quality of Service", "qos")
    assert split_heading_id("Plain heading") == ("Plain heading", None)


def test_slugger_matches_github_slugger_and_suffixes_repeats():
    slugger = HeadingSlugger()
    assert slugger.slug("Hello, World!") == "hello-world"
    assert slugger.slug("`createSelector` Overview") == "createselector-overview"
    assert slugger.slug("[Links](https://x.io) and *emphasis*") == "links-and-emphasis"
    assert slugger.slug("Redux’s “Store”") == "reduxs-store"
    assert slugger.slug("Über Straße") == "über-straße"
    assert slugger.slug("Example") == "example"
    assert slugger.slug("Example") == "example-1"
    assert slugger.slug("Example") == "example-2"
    assert slugger.slug("snake_case and-dash") == "snake_case-and-dash"


def test_mdx_imports_and_tags_go_but_text_inside_components_stays():
    body = (
        "import Tabs from '@theme/Tabs';\n"
        "import {\n  A,\n  B,\n} from './parts';\n\n"
        '<Tabs>\n<TabItem value="py" label="Python">\n\nUse **rclpy**.\n\n</TabItem>\n</Tabs>\n'
    )
    cleaned = clean_mdx(body)
    assert "import" not in cleaned and "<Tabs>" not in cleaned and "TabItem" not in cleaned
    assert "Use **rclpy**." in cleaned
    assert "Python" in cleaned


def test_code_fences_are_never_touched():
    body = "```jsx\nimport x from 'y'\n<App />\n:::tip\n```\n\n~~~\nexport const a = 1\n~~~\n"
    assert clean_mdx(body) == body.rstrip("\n")


def test_inline_code_with_angle_brackets_is_prose():
    assert clean_mdx("Wrap the app in `<Provider>` first.") == "Wrap the app in `<Provider>` first."


def test_admonitions_become_labelled_text():
    cleaned = clean_mdx(":::tip Use QoS\nMatch both ends.\n:::\n\n:::note[Heads up]\nText.\n:::\n")
    assert "Tip: Use QoS\nMatch both ends." in cleaned
    assert "Note: Heads up\nText." in cleaned
    assert ":::" not in cleaned
    assert clean_mdx(":::info\nBody\n:::").startswith("Info:\nBody")


def test_imported_partial_is_expanded_in_place():
    body = "import Warn from './_warn.mdx';\n\nBefore.\n\n<Warn />\n\nAfter."
    cleaned = clean_mdx(body, lambda path: "Partial text." if path == "./_warn.mdx" else None)
    assert cleaned.index("Before.") < cleaned.index("Partial text.") < cleaned.index("After.")


def test_unknown_self_closing_component_vanishes_and_multiline_tag_is_joined():
    body = '<LiteYouTubeEmbed\n  id="abc"\n/>\n\nText stays.'
    cleaned = clean_mdx(body)
    assert "LiteYouTube" not in cleaned and "abc" not in cleaned and "Text stays." in cleaned


def test_jsx_attribute_with_template_literal_keeps_its_title():
    body = '<Details title={`Why "containers" matter`}>\n\nBecause.\n\n</Details>'
    cleaned = clean_mdx(body)
    assert 'Why "containers" matter' in cleaned and "<" not in cleaned
