"""The event loop is never blocked: every route runs while `blockbuster` watches for it."""

from blockbuster import blockbuster_ctx

from agent.resources import Resources
from tests.conftest import serving
from tests.fakes import ScriptedChatModel

QUESTION = "Which QoS policy makes DDS retransmit messages that were lost?"


async def exercise(client) -> list[int]:  # type: ignore[no-untyped-def]
    """One request to every route; returns their statuses."""
    session = (await client.post("/sessions")).json()["session_id"]
    found = (await client.post("/search", json={"text": "QoS reliability"})).json()["results"]
    chunk, page = found[0]["chunk_id"], found[0]["parent_doc_id"]
    responses = [
        await client.post("/query", json={"question": QUESTION, "session_id": session}),
        await client.post("/chat/stream", json={"input": {"question": QUESTION}}),
        await client.post("/chat/invoke", json={"input": {"question": "And durability?"}}),
        await client.post("/highlight_query", json={"question": "Why?", "selected_text": "So."}),
        await client.post("/search", json={"text": "gazebo bridge", "hardware_tier": 2}),
        await client.get(f"/context/{chunk}"),
        await client.get(f"/document/{page}"),
        await client.get(f"/sessions/{session}"),
        await client.post("/feedback", json={"message_id": 1, "score": 1}),
        await client.get("/ready"),
        await client.get("/health"),
        await client.delete(f"/sessions/{session}"),
    ]
    return [response.status_code for response in responses]


async def test_offline_routes_never_block_the_event_loop(book):
    async with serving(book) as client:
        await exercise(client)  # first use: imports and caches may touch files
        with blockbuster_ctx():
            statuses = await exercise(client)
    assert all(status < 500 for status in statuses), statuses


async def test_llm_routes_never_block_the_event_loop(book):
    resources = Resources(book.settings, book.searcher, ScriptedChatModel())
    async with serving(resources) as client:
        await exercise(client)
        with blockbuster_ctx():
            statuses = await exercise(client)
    assert all(status < 500 for status in statuses), statuses
