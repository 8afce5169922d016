"""Reference-style links lead where the page's links lead, in the chunks an answer quotes."""

from pathlib import Path

from core.settings import Settings
from ingest.chunker import chunk_pages
from ingest.links import inline_references
from ingest.loader import load_documents


def test_reference_links_into_the_book_become_inline_and_off_site_ones_their_text():
    page = (
        "[`jest-dom`][gh] adds matchers; see [its\nusage][gh-usage], "
        "[gh][] and [api].\nA [checkbox] and `[code][gh]` stay, as does [inline](./x.md).\n\n"
        "## The [gh][] heading\n\n```md\n[in a fence][gh]\n```\n\n"
        '[gh]: https://github.com/example/jest-dom "Jest DOM"\n'
        "[gh-usage]: https://github.com/example/jest-dom#usage\n[API]: ./api.md#setup\n"
    )
    body = inline_references(page)
    opening = "`jest-dom` adds matchers; see its\nusage, gh and [api](./api.md#setup)."
    assert body.startswith(opening)
    assert "github.com" not in body.split("\n\n[gh]:")[0]  # an address is not the book's words
    assert "A [checkbox] and `[code][gh]` stay, as does [inline](./x.md)." in body
    assert "## The [gh][] heading" in body and "```md\n[in a fence][gh]\n```" in body
    assert inline_references("No [definitions][here].") == "No [definitions][here]."
    titled = inline_references('See [the API][].\n\n[the  api]: ../api.md "The API"\n')
    assert titled.startswith('See [the API](../api.md "The API").')  # case and spaces ignored


def test_a_loaded_pages_chunks_quote_reference_links_as_a_reader_sees_them(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "matchers.md").write_text(
        "# Matchers\n\nCheck out [jest-dom's documentation][gh] for every [matcher].\n\n"
        "[gh]: https://github.com/example/jest-dom\n[matcher]: ./api/matchers.md\n"
    )
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    documents = load_documents(docs, settings, use_built_site=False).documents
    (chunk,) = chunk_pages(documents, settings)
    assert chunk.payload["text"] == (
        "Check out jest-dom's documentation for every [matcher](./api/matchers.md)."
    )
