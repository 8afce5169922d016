"""A question that names a page by its name is searched again within that page."""

from pathlib import Path

from langchain_core.messages import HumanMessage

from agent.context import Context
from agent.graph import query_graph
from agent.resources import build_resources
from ingest.recorded import run_ingest

API_PAGE = """---
title: makeLoaf
---

# `makeLoaf(dough, oven?)`

Bakes one loaf from prepared dough and returns it when the crust is done.

## Arguments

1. `dough` _(Dough)_: the shaped, proofed dough to bake.
2. `oven` _(Oven)_: optional; the oven to use, the kitchen's default when left out.

## Returns

_(Loaf)_: the baked loaf, with its crust colour and core temperature recorded.
"""
GUIDE = """# Baking Guide

## Calling makeLoaf in the morning

Call `makeLoaf` once the dough has proofed. Most bakers call `makeLoaf` at dawn, and call
`makeLoaf` again at noon for the second batch.

## makeLoaf and proofing

Before `makeLoaf`, proof the dough for two hours. A dough that has not proofed makes
`makeLoaf` bake a dense brick.
"""
TUTORIAL = """# Your First Loaf

## Mixing

Mix flour, water, salt and starter. Knead for ten minutes, then let it rest before shaping it
for `makeLoaf`.

## Baking with makeLoaf

Now call `makeLoaf` with your dough. `makeLoaf` takes care of the timing.
"""


def write_book(docs: Path) -> None:
    (docs / "api").mkdir(parents=True)
    (docs / "api" / "make-loaf.md").write_text(API_PAGE)
    (docs / "guide.md").write_text(GUIDE)
    (docs / "tutorial.md").write_text(TUTORIAL)


async def test_a_section_of_the_named_page_joins_the_candidates(tmp_path, make_settings):
    write_book(tmp_path / "docs")
    settings = make_settings(book_id="named-pages")
    run_ingest(settings)
    resources = build_resources(settings)
    question = "What does makeLoaf give back?"

    def sections(results) -> list[tuple[str, list[str]]]:
        return [(p["title"], p["heading_path"][1:]) for p in results]

    searched = sections(hit.payload for hit in resources.searcher.search(question, 4))
    assert ("makeLoaf", ["Returns"]) not in searched  # the pages that say "makeLoaf" most win
    state = await query_graph.ainvoke(
        {"messages": [HumanMessage(question)]},
        config={"configurable": {"resources": resources}},
        context=Context(candidates=4),
    )
    assert ("makeLoaf", ["Returns"]) in sections(c["payload"] for c in state["candidates"])
