"""A question about an initialism alone is answered from the name the book declares it for,
not from the longer names that start with it."""

from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage

from agent.context import Context
from agent.graph import graph
from agent.resources import build_resources
from agent.retrieval.vocabulary import book_vocabulary
from ingest.recorded import run_ingest

KIT = """# Rye Bread Kit

Bake rye at home with the [Rye Bread Kit](https://example.com/kit) (RBK): one box with the
flour, a dried starter and a proofing basket, and a card of timings.

## What is in the box

The flour is milled for rye, the starter wakes in a day, and the basket is cane.
"""
QUERY = """# RBK Query

**RBK Query** is a timer app for the RBK. RBK Query tells you when each loaf of the RBK is
ready, and RBK Query keeps a log of every RBK bake.

## RBK Query alerts

RBK Query rings when a loaf of the RBK has proofed, and again when the RBK loaf is baked.
"""
QUERY_SETUP = """# Setting up RBK Query

Install RBK Query, pair it with your RBK, and RBK Query lists the RBK timings for you.
"""


def write_book(docs: Path) -> None:
    docs.mkdir(parents=True)
    (docs / "kit.md").write_text(KIT)
    (docs / "query.md").write_text(QUERY)
    (docs / "query-setup.md").write_text(QUERY_SETUP)


@pytest.fixture(scope="module")
def kit_book(tmp_path_factory, database_url):
    from tests.conftest import settings_for

    folder = tmp_path_factory.mktemp("kit")
    write_book(folder / "docs")
    settings = settings_for(folder, database_url, book_id="declared-initialisms")
    run_ingest(settings)
    return build_resources(settings)


async def ask(resources, question: str, context: Context | None = None) -> dict:
    return await graph.ainvoke(
        {"messages": [HumanMessage(question)]},
        config={"configurable": {"resources": resources}},
        context=context or Context(),
    )


def test_the_vocabulary_holds_the_initialisms_the_book_declares(kit_book):
    declared = book_vocabulary(kit_book.searcher.index).declared_initialisms
    assert declared == {"rbk": "Rye Bread Kit"}


@pytest.mark.parametrize("question", ["what's rbk", "What is RBK?"])
async def test_an_initialism_asked_about_alone_is_answered_from_its_declared_name(
    kit_book, question
):
    result = await ask(kit_book, question)
    assert result["sources"][0]["title"] == "Rye Bread Kit"
    assert "one box with the flour" in result["answer"]
    # read as typed, the pages of the longer name that starts with it say "RBK" most
    as_typed = await ask(kit_book, question, Context(book_spelling=False))
    assert as_typed["sources"][0]["title"] != "Rye Bread Kit"
