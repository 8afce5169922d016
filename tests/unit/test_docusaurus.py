"""Docusaurus rules: number prefixes, routes, doc ids, heading anchors, MDX cleaning."""

import pytest

from agent.offline.text import is_label
from core.settings import Settings
from ingest.chunker import chunk_pages
from ingest.docusaurus import (
    HeadingSlugger,
    doc_id,
    is_category_index,
    page_slug,
    page_url,
    parse_number_prefix,
    slugify,
    split_heading_id,
    strip_number_prefix,
)
from ingest.loader import load_documents
from ingest.mdx import clean_mdx

# Docusaurus's own cases (plugin-content-docs numberPrefix.test.ts), then the humanoid book's.
STRIPPED = [
    *("1-My Doc", "01-My Doc", "001-My Doc", "001 - My Doc", "001      -    My Doc"),
    *("999      -        My Doc", "1---My Doc", "01---My Doc", "001 --- My Doc"),
    *("1___My Doc", "001 ___ My Doc", "1.My Doc", "01.My Doc", "001 . My Doc"),
    "999      .       My Doc",
]
NOT_PREFIXED = [
    *("MyDoc", "a1-My Doc", "My Doc-000", "My Doc - 1", "Hey - 03 - My Doc", "00abc01-My Doc"),
    *("My 001- Doc", "My -001 Doc", "2021-01-31 - Doc", "31-01-2021 - Doc", "2021_01_31 - Doc"),
    *("2021.01.31 - Doc", "2021-01 - Doc", "01.2021 - Doc", "2021-01-31", "21_01", "01", "2021"),
    *("8.0", "8.0.0", "14.2.16", "18.2", "8.0 - Doc", "8.0.0 - Doc", "8_0", "14_2_16"),
    *("1.1-introduction-to-physical-ai", "2.4-gazebo-ros2-integration"),
]


@pytest.mark.parametrize("name", STRIPPED)
def test_number_prefixes_are_stripped(name):
    assert strip_number_prefix(name) == "My Doc"


@pytest.mark.parametrize("name", NOT_PREFIXED)
def test_version_and_date_like_names_and_names_without_prefix_are_kept(name):
    assert strip_number_prefix(name) == name


def test_number_prefix_value_and_prefixes_along_a_path():
    assert parse_number_prefix("0046036 - My Doc") == ("My Doc", 46036)
    assert parse_number_prefix("0-My Doc") == ("My Doc", 0)
    path = "0-MyRootFolder0/1 - MySubFolder1/2.  MyDeepFolder2/3 _MyDoc3.md"
    assert doc_id(path, {}) == "MyRootFolder0/MySubFolder1/MyDeepFolder2/MyDoc3"
    assert doc_id(path, {"parse_number_prefixes": False}) == path.removesuffix(".md")


# Docusaurus's getSlug cases (slug.test.ts) as file paths and frontmatter.
@pytest.mark.parametrize(
    ("path", "frontmatter", "slug"),
    [
        ("dir/doc.md", {}, "/dir/doc"),
        ("dir/subdir/doc.md", {}, "/dir/subdir/doc"),
        ("dir/subdir/index.md", {}, "/dir/subdir/"),
        ("dir/subdir/inDEx.mdx", {}, "/dir/subdir/"),
        ("dir/subdir/readme.md", {}, "/dir/subdir/"),
        ("dir/subdir/reADMe.mdx", {}, "/dir/subdir/"),
        ("dir/subdir/subdir.md", {}, "/dir/subdir/"),
        ("dir/subdir/suBDir.mdx", {}, "/dir/subdir/"),
        ("dir/subdir/index.md", {"slug": "/my/frontMatterSlug"}, "/my/frontMatterSlug"),
        ("001-dir1/002-dir2/doc.md", {}, "/dir1/dir2/doc"),
        ("001-dir1/002-dir2/doc.md", {"parse_number_prefixes": False}, "/001-dir1/002-dir2/doc"),
        ("dir with spâce/hey $hello/my dôc.md", {}, "/dir with spâce/hey $hello/my dôc"),
        ("doc.md", {}, "/doc"),
        ("doc.md", {"slug": "/abc/def"}, "/abc/def"),
        ("any/any/doc.md", {"slug": "/abc/def"}, "/abc/def"),
        ("doc.md", {"slug": "abc/def"}, "/abc/def"),
        ("dir/doc.md", {"slug": "abc/def"}, "/dir/abc/def"),
        ("dir/subdir/doc.md", {"slug": "abc/def"}, "/dir/subdir/abc/def"),
        ("dir/doc.md", {"slug": "./abc/def"}, "/dir/abc/def"),
        ("dir/doc.md", {"slug": "./abc/../def"}, "/dir/def"),
        ("dir/subdir/doc.md", {"slug": "../abc/def"}, "/dir/abc/def"),
        ("dir/subdir/doc.md", {"slug": "../../../../../abc/../def"}, "/def"),
        # A category index is named as written: number prefixes are not stripped to compare.
        ("01-guides/guides.md", {}, "/guides/guides"),
        ("01-guides/01-guides.md", {}, "/guides/"),
        ("x/01-index.md", {}, "/x/index"),
        # The humanoid book: version-like folders keep their names.
        ("module-1/1.1-intro-to-physical-ai/index.md", {}, "/module-1/1.1-intro-to-physical-ai/"),
        ("module-1/1.1-intro/lesson.md", {}, "/module-1/1.1-intro/lesson"),
        ("01-ros2/02-topics.md", {"id": "ros2-topics"}, "/ros2/ros2-topics"),
        ("01-ros2/02-topics.md", {"slug": "relative/"}, "/ros2/relative/"),
    ],
)  # fmt: skip
def test_page_slugs_follow_docusaurus(path, frontmatter, slug):
    assert page_slug(path, frontmatter) == slug


def test_category_index_names():
    assert is_category_index("guides/README.md") and is_category_index("index.mdx")
    assert not is_category_index("guides/intro.md")


def test_page_url_joins_site_base_url_and_route_base_and_keeps_a_trailing_slash():
    assert page_url("/ros2/topics", "https://book.dev", "/", "docs") == (
        "https://book.dev/docs/ros2/topics"
    )
    assert page_url("/ros2/topics", "https://x.io/", "/handbook/", "/") == (
        "https://x.io/handbook/ros2/topics"
    )
    assert page_url("/guides/", "https://x.io", "/", "docs") == "https://x.io/docs/guides/"
    assert page_url("/", "https://x.io", "/", "/") == "https://x.io/"
    assert page_url("/a b/dôc", "https://x.io", "/", "docs") == "https://x.io/docs/a%20b/d%C3%B4c"


def test_doc_id_uses_folders_without_prefixes_and_frontmatter_id():
    assert doc_id("01-ros2/02-topics.md", {}) == "ros2/topics"
    assert doc_id("01-ros2/02-topics.md", {"id": "t"}) == "ros2/t"
    assert doc_id("module-1/1.1-intro/index.md", {}) == "module-1/1.1-intro/index"


# Docusaurus's heading-id cases (mdx-loader remark/headings/__tests__/index.test.ts).
@pytest.mark.parametrize(
    ("heading", "text", "heading_id"),
    [
        ("Heading One {#custom_h1}", "Heading One", "custom_h1"),
        ("Heading Two {#custom-heading-two}", "Heading Two", "custom-heading-two"),
        ("With *Bold* {#custom-with-bold}", "With *Bold*", "custom-with-bold"),
        ("With *Bold* hello{#custom-bold-hello}", "With *Bold* hello", "custom-bold-hello"),
        ("Snake-cased ID {#this_is_custom_id}", "Snake-cased ID", "this_is_custom_id"),
        ("{#id-only}", "", "id-only"),
        ("{#text-after} custom ID", "{#text-after} custom ID", None),
        ("Heading One {/* #custom_h1 */}", "Heading One", "custom_h1"),
        ("{/* #id-only */}", "", "id-only"),
        ("With *Bold* {/* #custom-with-bold */}", "With *Bold*", "custom-with-bold"),
        ("Heading {/* #id1 whatever comment #id2 */}", "Heading", "id1"),
        ("Quality of Service {/* #qos */}", "Quality of Service", "qos"),
    ],
)  # fmt: skip
def test_explicit_heading_ids_in_both_syntaxes(heading, text, heading_id):
    assert split_heading_id(heading) == (text, heading_id)


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("{/* #custom-id */} some text", "-custom-id--some-text"),
        ("some text {someExpression /* #custom-id */}", "some-text-someexpression--custom-id-"),
        ("some text {/* #id1 *//* #id2 */}", "some-text--id1--id2-"),
        ("Heading {/* my-id */}", "heading--my-id-"),
        ("Heading {/* # */}", "heading---"),
        ("{#text-after} custom ID", "text-after-custom-id"),
        ('<span class="normal-header">Normal</span>', "normal"),
        ("Heading <!-- #not-in-mdx -->", "heading-"),
    ],
)
def test_comments_that_are_not_ids_are_slugged_like_docusaurus(heading, slug):
    assert HeadingSlugger().heading_id(heading) == (split_heading_id(heading)[0], slug)


def test_html_comment_ids_are_for_pages_compiled_as_commonmark():
    assert split_heading_id("Heading One <!-- #custom_h1 -->", mdx=False) == (
        "Heading One",
        "custom_h1",
    )
    assert split_heading_id("<!-- #id-only -->", mdx=False) == ("", "id-only")
    assert split_heading_id("<!-- #custom-id --> some text", mdx=False)[1] is None
    assert HeadingSlugger().heading_id("Heading <!-- my-id -->", mdx=False)[1] == "heading-"


def test_github_style_ids_with_repeats():
    # Docusaurus's "creates GitHub-style headings ids" list, in order, through one slugger.
    cases = [
        ("I ♥ unicode", "i--unicode"),
        ("Dash-dash", "dash-dash"),
        ("en–dash", "endash"),
        ("em–dash", "emdash"),
        ("😄 unicode emoji", "-unicode-emoji"),
        ("😄-😄 unicode emoji", "--unicode-emoji"),
        ("😄_😄 unicode emoji", "_-unicode-emoji"),
        ("", ""),
        ("", "-1"),
        ("Initial spaces", "initial-spaces"),
        ("Final spaces", "final-spaces"),
        ("Duplicate", "duplicate"),
        ("Duplicate", "duplicate-1"),
        (":ok: No underscore", "ok-no-underscore"),
        (":ok_hand: Single", "ok_hand-single"),
        (":ok_hand::hatched_chick: Two in a row", "ok_handhatched_chick-two-in-a-row"),
        (":ok_hand: :hatched_chick: Two in a row", "ok_hand-hatched_chick-two-in-a-row"),
    ]  # fmt: skip
    slugger = HeadingSlugger()
    assert [slugger.slug(text) for text, _ in cases] == [slug for _, slug in cases]


def test_github_slugger_cases_non_latin_and_repeats_of_suffixed_slugs():
    # github-slugger's own test cases.
    slugger = HeadingSlugger()
    assert [slugger.slug(t) for t in ("foo", "foo", "foo 1", "foo-1", "foo")] == [
        "foo", "foo-1", "foo-1-1", "foo-1-2", "foo-2",
    ]  # fmt: skip
    assert slugify("Привет non-latin 你好") == "привет-non-latin-你好"
    assert slugify("Профили пользователей") == "профили-пользователей"
    assert slugify("heading with a period.txt") == "heading-with-a-periodtxt"
    assert slugify("exchange.bind_headers(exchange, routing [, bindCallback])") == (
        "exchangebind_headersexchange-routing--bindcallback"
    )
    assert slugify("😄 - an emoji") == "---an-emoji"
    assert slugify("x² ½ Ⓐ") == "x--ⓐ"  # numbers that are not digits go; circled letters stay
    assert slugify("Über Straße ΟΔΟΣ") == "über-straße-οδος"


def test_inline_markup_is_reduced_to_its_text():
    slugger = HeadingSlugger()
    assert slugger.slug("`createSelector` Overview") == "createselector-overview"
    assert slugger.slug("[Links](https://x.io) and *emphasis*") == "links-and-emphasis"
    assert slugger.slug("Redux’s “Store”") == "reduxs-store"
    assert slugger.slug("![alt text](https://x.io/a.png) image") == "alt-text-image"
    assert slugger.slug("Foo <Badge />") == "foo-"  # the space before a dropped tag stays


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


def test_a_twoslash_block_keeps_the_lines_the_page_shows():
    body = (
        'Set it:\n\n```ts twoslash title="client.ts"\n// @filename: server.ts\n'
        "export const router = {};\n// @filename: client.ts\n// ---cut---\n"
        "// @errors: 2322\nconst link = httpBatchLink({ maxURLLength: 2083 });\n//    ^?\n"
        "// ---cut-start---\nhidden();\n// ---cut-end---\nlink.use();\n"
        "// ---cut-after---\n}\n```\n\nAfter."
    )
    assert clean_mdx(body).split("\n") == [
        "Set it:",
        "",
        '```ts twoslash title="client.ts"',
        "const link = httpBatchLink({ maxURLLength: 2083 });",
        "link.use();",
        "```",
        "",
        "After.",
    ]
    plain = "```ts\n// @filename: server.ts\n// ---cut---\nx();\n```"
    assert clean_mdx(plain) == plain
    titled = '```ts title="A twoslash demo"\n// ---cut---\nx();\n```'
    assert clean_mdx(titled) == titled
    shown = "```ts twoslash\n// @noErrors\n// @ts-expect-error\nx();\n```"
    assert clean_mdx(shown) == "```ts twoslash\n// @ts-expect-error\nx();\n```"


def test_a_twoslash_snippet_shows_where_a_block_includes_it():
    body = (
        "Guard it:\n\n```twoslash include admin\nconst t = init();\n// - setup\n"
        "export const adminProcedure = t.procedure.use(isAdmin);\n```\n\n"
        "```ts twoslash\n// @include: admin\n```\n\n"
        "```ts twoslash\n// @include: admin-setup\n// ---cut---\nt.router({});\n```"
    )
    assert clean_mdx(body).split("\n") == [
        "Guard it:",
        "",
        "",
        "```ts twoslash",
        "const t = init();",
        "export const adminProcedure = t.procedure.use(isAdmin);",
        "```",
        "",
        "```ts twoslash",
        "t.router({});",
        "```",
    ]


def test_a_fence_nested_deep_in_a_list_item_is_code_too():
    body = "- Option\n\n  - Nested\n\n     ```md\n     :::\n   ```\n\n:::note\nMind it.\n:::\n"
    cleaned = clean_mdx(body)
    assert "     :::\n" in cleaned
    assert "Note:\nMind it." in cleaned and "\n:::" not in cleaned


def test_inline_code_with_angle_brackets_is_prose():
    assert clean_mdx("Wrap the app in `<Provider>` first.") == "Wrap the app in `<Provider>` first."


def test_a_code_element_is_the_code_span_it_shows():
    prose = 'Bake only <code>Loaf("rye")</code>, not <code>a &lt; b</code>.'
    assert clean_mdx(prose) == 'Bake only `Loaf("rye")`, not `a < b`.'
    # in a table row, its escapes and entities resolved and its pipe kept inside the cell
    row = "| `auto` | <code>--crust=\\<soft&#124;hard></code> | <code>crust: soft</code> |"
    assert clean_mdx(row) == "| `auto` | `--crust=<soft\\|hard>` | `crust: soft` |"
    # one written inside a code span is prose
    assert clean_mdx("Write `<code>x</code>` for code.") == "Write `<code>x</code>` for code."


def test_comments_that_span_lines_go_with_everything_inside():
    body = "Intro.\n\n<!--\nNote:\n- `echo {} > x` breaks on Windows.\n-->\n\nAfter."
    assert clean_mdx(body).split() == ["Intro.", "After."]
    cleaned = clean_mdx("Keep <!-- hidden\nstill hidden --> this, {/* a\nnote */} too.")
    assert "hidden" not in cleaned and "note" not in cleaned
    assert cleaned.split() == ["Keep", "this,", "too."]
    assert clean_mdx("Type `<!--` to open one.") == "Type `<!--` to open one."
    assert "never closed" not in clean_mdx("Start.\n\n<!-- never closed\nmore")


def test_a_comment_holding_inline_code_goes_whole():
    body = "Intro.\n\n{/* Uses a `<a>`-link to keep the build green */}\n\nRead <!-- a `b` --> on."
    assert clean_mdx(body).split() == ["Intro.", "Read", "on."]
    assert clean_mdx("`{/* x */}` is a JSX comment.") == "`{/* x */}` is a JSX comment."


def test_a_jsx_string_expression_is_its_string():
    body = "<p>\n  <a href='/x'>Docs</a>{' '}\n  <a href='/y'>API</a>{\" and more\"}\n</p>"
    assert clean_mdx(body).split() == ["Docs", "API", "and", "more"]
    assert clean_mdx("Pass `{' '}` between tags.") == "Pass `{' '}` between tags."
    assert clean_mdx('<TabItem value="py" label={"Python"}>').strip() == "**Python**"


def test_a_tab_alone_on_its_line_titles_what_it_holds_as_a_label():
    tabs = (
        'Send a callback:\n\n<Tabs>\n  <TabItem value="c2s" label="From client to server">\n\n'
        "*Client*\n\n```js\nsocket.emit('hi', ack);\n```\n\n  </TabItem>\n</Tabs>\n"
    )
    parts = [part.strip() for part in clean_mdx(tabs).split("\n\n") if part.strip()]
    assert parts[:3] == ["Send a callback:", "**From client to server**", "*Client*"]
    assert is_label(parts[1]) and is_label(parts[2])
    # a name inside a sentence stays a word of it; a closing tag or one with no name adds none
    assert clean_mdx('Press <Kbd label="Enter" /> to run.') == "Press  to run."
    assert clean_mdx('Use <Term title="DDS">it</Term> here.') == "Use DDS\nit here."
    assert clean_mdx('<TabItem value="npm">\n\nRun it.\n\n</TabItem>').strip() == "Run it."
    assert clean_mdx('<abbr title="Robot Operating System">\nROS\n</abbr>').split() == [
        "Robot",
        "Operating",
        "System",
        "ROS",
    ]  # an HTML element's title is no label
    in_item = '- Set `strict`:\n\n  <Tabs>\n  <TabItem value="a" label="A">\n\n  ```js\n  a\n  ```'
    assert "\n  **A**\n" in clean_mdx(in_item)  # a tab inside a list item stays in the item


def test_an_html_table_keeps_its_rows():
    body = (
        'Compatibility:\n\n<table>\n  <tr>\n    <th rowspan="2">Client</th>\n'
        '    <th colspan="2">Server</th>\n  </tr>\n  <tr><td>3.x</td><td>4.x</td></tr>\n'
        "  <tr>\n    <td>2.x</td>\n    <td><b>YES</b><sup>1</sup></td>\n"
        "    <td>NO <code>a|b</code></td>\n  </tr>\n</table>\n\n[1] With a flag."
    )
    assert clean_mdx(body).split("\n") == [
        "Compatibility:",
        "",
        "",
        "| Client | Server 3.x | Server 4.x |",
        "|---|---|---|",
        "| 2.x | YES¹ | NO `a\\|b` |",
        "",
        "",
        "[1] With a flag.",
    ]


def test_an_html_table_ends_where_it_closes_and_only_there():
    nested = "<table><tr><td><table><tr><td>in</td></tr></table></td><td>b</td></tr>\n"
    nested += "<tr><td>c</td><td colSpan={2}>d</td></tr></table> After it."
    assert clean_mdx(nested).split("\n") == [
        "",
        "| in | b |  |",
        "|---|---|---|",
        "| c | d | d |",
        "",
        " After it.",
    ]
    assert clean_mdx("<table><tr><td><img src='x.png' /></td></tr></table>\n\nLogos.").split() == [
        "Logos."
    ]
    unclosed = "<table><tr><td>a</td></tr>\n\nProse after.\n\n## Next"
    assert "Prose after." in clean_mdx(unclosed) and "## Next" in clean_mdx(unclosed)
    component = "<Table rows={rows} />\n\nProse after.\n\n## Next"
    assert clean_mdx(component).split("\n")[-3:] == ["Prose after.", "", "## Next"]
    spans_past_the_end = (
        '<table><tr><th rowspan="1">h</th></tr><tr><td rowspan="3">x</td></tr></table>'
    )
    assert clean_mdx(spans_past_the_end).strip().split("\n") == ["| h |", "|---|", "| x |"]


def test_admonitions_become_labelled_text():
    cleaned = clean_mdx(":::tip Use QoS\nMatch both ends.\n:::\n\n:::note[Heads up!]\nText.\n:::\n")
    assert "Tip: Use QoS.\n\nMatch both ends." in cleaned
    assert "Note: Heads up!\n\nText." in cleaned
    assert ":::" not in cleaned
    assert clean_mdx(":::info\nBody\n:::").startswith("Info:\nBody")


def test_an_untitled_admonition_label_leads_its_first_paragraph():
    cleaned = clean_mdx("Before.\n\n:::info\n\nNot available in legacy mode.\n\n:::\n\nAfter.")
    assert "Info:\nNot available in legacy mode." in cleaned
    assert clean_mdx(":::warning\n\n```js\nx()\n```\n:::").startswith("Warning:\n```js")


def test_an_admonition_inside_a_list_item_stays_in_the_item():
    item = "- Bake with `--timer`:\n\n  :::tip\n\n  Pass `--timer` twice for two trays.\n\n  :::\n"
    assert "\n  Tip:\n  Pass `--timer` twice for two trays." in clean_mdx(item)
    titled = "- Bake:\n\n  :::note Heads up\n  Preheat.\n  :::\n"
    assert "\n  Note: Heads up.\n" in clean_mdx(titled)


def test_a_collapsible_blocks_summary_becomes_a_label_over_its_text():
    one_line = (
        'Tips.\n\n<details id="ssr"><summary>Server Side Rendering (SSR)'
        '<a href="#ssr" class="tip-anchor"></a></summary>\nCall `enableStaticRendering(true)`.\n'
        "</details>\n"
    )
    cleaned = clean_mdx(one_line)
    assert "\n**Server Side Rendering (SSR)**\n\n" in cleaned
    assert is_label(next(part for part in cleaned.split("\n\n") if "Server" in part))
    assert "Call `enableStaticRendering(true)`." in cleaned
    over_lines = "<details>\n  <summary>\n    <b>Example</b>\n  </summary>\n\n  Body.\n</details>"
    assert [p.strip() for p in clean_mdx(over_lines).split("\n\n") if p.strip()] == [
        "**Example**",
        "Body.",
    ]
    assert "summary" not in clean_mdx("<details><summary></summary>\nText.\n</details>")
    in_code = "Use `<summary>` for the title.\nNext line.\n\nMore.\n`<summary>x</summary>`"
    assert clean_mdx(in_code) == in_code  # prose about the element: nothing joined or labelled
    emphasised = "<details><summary>**Tip:** it is _not_ `in_place`</summary>\nText.\n</details>"
    assert "**Tip: it is not `in_place`**" in clean_mdx(emphasised)  # one bold title


def test_a_collapsible_blocks_title_is_among_the_headings_of_the_chunk_holding_it(tmp_path):
    (tmp_path / "tips.md").write_text(
        "# Tips\n\n## Rendering\n\nComponents re-render.\n\n<details><summary>**Tip:** Server Side "
        "Rendering</summary>\n\nCall `enableStaticRendering(true)`.\n\n</details>\n\n"
        "## Other\n\nText.\n"
    )
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    documents = load_documents(tmp_path, settings, use_built_site=False).documents
    chunks = chunk_pages(documents, settings)
    headings = {chunk.payload["heading"]: chunk.payload["section_headings"] for chunk in chunks}
    assert headings == {"Rendering": ["Tip: Server Side Rendering"], "Other": []}


def test_a_github_alert_becomes_a_labelled_quote():
    cleaned = clean_mdx("Text.\n\n> [!IMPORTANT]\n> Install the extension first.\n\nAfter.")
    assert "> Important:\n> Install the extension first." in cleaned
    assert "[!" not in cleaned


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
