"""The judge of output safety: render Markdown with a real renderer that lets raw HTML through,
and check what would reach a browser."""

from html.parser import HTMLParser

from markdown_it import MarkdownIt

from core.safety import LinkPolicy, url_scheme

RENDERER = MarkdownIt("commonmark", {"html": True}).enable("table")
MARKUP_TAGS = {
    "p", "em", "strong", "code", "pre", "a", "img", "ul", "ol", "li", "blockquote", "hr", "br",
    "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
"""The tags Markdown itself produces; any other tag came from raw HTML."""


class RenderedHtml(HTMLParser):
    """Every start tag and its attributes in rendered HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))


def rendered_tags(markdown: str) -> list[tuple[str, dict[str, str]]]:
    """The start tags a browser would get from `markdown`."""
    parser = RenderedHtml()
    parser.feed(RENDERER.render(markdown))
    return parser.tags


def assert_safe(markdown: str, policy: LinkPolicy) -> None:
    """No raw HTML, no event handler, no disallowed link, no image from elsewhere."""
    for tag, attrs in rendered_tags(markdown):
        assert tag in MARKUP_TAGS, (tag, markdown)
        assert not any(name.startswith("on") for name in attrs), (attrs, markdown)
        if tag == "a":
            assert policy.allows_link(attrs["href"]), (attrs, markdown)
        if tag == "img":
            assert policy.allows_image(attrs["src"]), (attrs, markdown)
            assert url_scheme(attrs["src"]) not in {"javascript", "data", "vbscript"}
