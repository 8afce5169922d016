"""Reference-style links keep their targets in the chunks an answer quotes."""

from pathlib import Path

from core.settings import Settings
from ingest.chunker import chunk_pages
from ingest.links import inline_references
from ingest.loader import load_documents


def test_reference_links_become_inline_links_and_the_rest_stays_as_written():
    page = (
        "[`jest-dom`][gh] adds matchers; see [its\nusage][gh-usage], "
        "[gh][] and [api].\nA [checkbox] and `[code][gh]` stay, as does [inline](./x.md).\n\n"
        "## The [gh][] heading\n\n```md\n[in a fence][gh]\n```\n\n"
        '[gh]: https://github.com/example/jest-dom "Jest DOM"\n'
        "[gh-usage]: https://github.com/example/jest-dom#usage\n[API]: ./api.md#setup\n"
    )
    body = inline_references(page)
    assert body.startswith('[`jest-dom`](https://github.com/example/jest-dom "Jest DOM") adds')
    assert "[its\nusage](https://github.com/example/jest-dom#usage)" in body
    assert '[gh](https://github.com/example/jest-dom "Jest DOM")' in body
    assert "[api](./api.md#setup)" in body  # labels match whatever their case; targets as written
    assert "A [checkbox] and `[code][gh]` stay, as does [inline](./x.md)." in body
    assert "## The [gh][] heading" in body and "```md\n[in a fence][gh]\n```" in body
    assert inline_references("No [definitions][here].") == "No [definitions][here]."


def test_a_loaded_pages_chunks_quote_reference_links_with_their_targets(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "matchers.md").write_text(
        "# Matchers\n\nCheck out [jest-dom's documentation][gh] for every matcher.\n\n"
        "[gh]: https://github.com/example/jest-dom\n"
    )
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    documents = load_documents(docs, settings, use_built_site=False).documents
    (chunk,) = chunk_pages(documents, settings)
    assert chunk.payload["text"] == (
        "Check out [jest-dom's documentation](https://github.com/example/jest-dom) for every "
        "matcher."
    )
