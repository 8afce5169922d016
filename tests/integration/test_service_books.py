"""One server, several books: a request names its book with `book_id` (default: the configured
one); an unknown book is a 404; sessions, citations and search stay inside their book."""

import json
from pathlib import Path

import pytest

from agent.resources import build_resources
from ingest.recorded import run_ingest
from tests.conftest import SAMPLE_BOOK, serving, settings_for

SECOND_SITE = "https://kettles.example"
KETTLE_PAGE = """---
title: Descaling the kettle
---

# Descaling the kettle

## Vinegar rinse

Fill the kettle halfway with white vinegar and water in equal parts, boil it once, and let it
stand for twenty minutes before you rinse it three times with clean water.

## How often

Descale every four weeks where the tap water is hard, and every three months where it is soft.
"""
WATTS_PAGE = """---
title: Power and wattage
---

# Power and wattage

A 3000 watt element boils one litre of water in about two minutes; a 2200 watt element takes
closer to three. The wattage is printed on the plate under the base.
"""


@pytest.fixture(scope="module")
def two_books(tmp_path_factory, database_url):
    """The sample book (configured) and a small kettle manual, ingested in one data folder."""
    import shutil

    folder = tmp_path_factory.mktemp("books")
    shutil.copytree(SAMPLE_BOOK, folder / "docs")
    kettle_docs: Path = folder / "kettle-docs"
    kettle_docs.mkdir()
    (kettle_docs / "descaling.md").write_text(KETTLE_PAGE)
    (kettle_docs / "wattage.md").write_text(WATTS_PAGE)
    settings = settings_for(folder, database_url)
    run_ingest(
        settings.model_copy(
            update={
                "book_id": "kettle-manual",
                "book_docs_dir": kettle_docs,
                "site_url": SECOND_SITE,
                "docs_name": "the Kettle Manual",
            }
        )
    )
    run_ingest(settings)
    return build_resources(settings)


@pytest.fixture(scope="module")
async def api(two_books):
    async with serving(two_books) as client:
        yield client


async def test_books_lists_every_ingested_book_and_the_default(api):
    response = await api.get("/books")
    assert response.status_code == 200
    assert response.json() == {"books": ["kettle-manual", "test-book"], "default": "test-book"}


async def test_a_question_is_answered_from_the_book_it_names(api):
    question = "How long should the vinegar stand in the kettle before rinsing?"
    kettle = await api.post("/query", json={"question": question, "book_id": "kettle-manual"})
    assert kettle.status_code == 200, kettle.text
    body = kettle.json()
    assert not body["refused"] and "twenty minutes" in body["answer"]
    assert body["sources"] and all(s["url"].startswith(SECOND_SITE) for s in body["sources"])
    default = (await api.post("/query", json={"question": question})).json()
    assert default["refused"]  # the configured robotics book says nothing about kettles
    assert default["answer"].startswith("This isn't covered in the book,")


async def test_a_refusal_names_the_documentation_as_its_book_was_ingested(api):
    question = "How do I bake sourdough bread at home?"
    kettle = await api.post("/query", json={"question": question, "book_id": "kettle-manual"})
    assert kettle.json()["answer"].startswith("This isn't covered in the Kettle Manual,")


async def test_search_and_reading_routes_stay_inside_the_named_book(api):
    found = await api.post(
        "/search", json={"text": "descale hard water", "book_id": "kettle-manual"}
    )
    assert found.status_code == 200, found.text
    body = found.json()
    assert body["book_id"] == "kettle-manual"
    assert {r["source_file"] for r in body["results"]} <= {"descaling.md", "wattage.md"}
    page = body["results"][0]["parent_doc_id"]
    assert (await api.get(f"/document/{page}")).status_code == 404  # not in the default book
    in_book = await api.get(f"/document/{page}", params={"book_id": "kettle-manual"})
    assert in_book.status_code == 200 and in_book.json()["chunks"]
    chunk = body["results"][0]["chunk_id"]
    around = await api.get(f"/context/{chunk}", params={"book_id": "kettle-manual"})
    assert around.status_code == 200 and chunk in {c["chunk_id"] for c in around.json()["chunks"]}


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("POST", "/query", {"json": {"question": "What is a node?", "book_id": "no-such-book"}}),
        ("POST", "/search", {"json": {"text": "nodes", "book_id": "no-such-book"}}),
        ("GET", "/context/abc", {"params": {"book_id": "no-such-book"}}),
        ("GET", "/document/intro", {"params": {"book_id": "no-such-book"}}),
        ("POST", "/sessions", {"params": {"book_id": "no-such-book"}}),
        (
            "POST",
            "/chat/invoke",
            {"json": {"input": {"question": "Hi?", "book_id": "no-such-book"}}},
        ),
    ],
)
async def test_an_unknown_book_is_a_404_that_names_it(api, method, path, kwargs):
    response = await api.request(method, path, **kwargs)
    assert response.status_code == 404, response.text
    error = response.json()["error"]
    assert error["code"] == "unknown_book" and "no-such-book" in error["message"]


async def test_a_session_belongs_to_the_book_it_was_made_for(api):
    first = await api.post(
        "/query", json={"question": "How often should I descale?", "book_id": "kettle-manual"}
    )
    session = first.json()["session_id"]
    follow_up = {"question": "And with soft water?", "session_id": session}
    elsewhere = await api.post("/query", json=follow_up)  # the default book knows no such session
    assert elsewhere.status_code == 404 and elsewhere.json()["error"]["code"] == "unknown_session"
    same = await api.post("/query", json={**follow_up, "book_id": "kettle-manual"})
    assert same.status_code == 200, same.text
    assert "three months" in same.json()["answer"]
    history = await api.get(f"/sessions/{session}", params={"book_id": "kettle-manual"})
    assert history.status_code == 200 and len(history.json()["messages"]) == 4


async def test_the_chat_stream_answers_from_the_named_book(api):
    question = {
        "question": "What wattage boils a litre in two minutes?",
        "book_id": "kettle-manual",
    }
    response = await api.post("/chat/stream", json={"input": question})
    assert response.status_code == 200
    chunks = [
        json.loads(line.removeprefix("data: "))
        for line in response.text.splitlines()
        if line.startswith("data: {")
    ]
    answer = "".join(c.get("answer") or "" for c in chunks)
    closing = next(c for c in chunks if c.get("sources"))
    assert "3000 watt" in answer
    assert all(s["url"].startswith(SECOND_SITE) for s in closing["sources"])
