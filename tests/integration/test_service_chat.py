"""The LangServe `/chat` routes: streaming order, stored turns, refused config, failures."""

import pytest

from agent.resources import Resources, build_resources
from tests.conftest import serving, sse_events
from tests.fakes import ScriptedChatModel
from tests.loopback import free_port

QUESTION = "Which QoS policy makes DDS retransmit messages that were lost?"


@pytest.fixture(scope="module")
async def api(book):
    async with serving(book) as client:
        yield client


async def stream(client, **chat_input):  # type: ignore[no-untyped-def]
    response = await client.post("/chat/stream", json={"input": chat_input})
    assert response.status_code == 200, response.text
    return sse_events(response.text)


async def test_stream_sends_answer_chunks_then_sources_then_end(api):
    events = await stream(api, question=QUESTION)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "metadata" and kinds[-1] == "end"
    data = [payload for kind, payload in events if kind == "data"]
    assert len(data) >= 3
    assert all(set(chunk) == {"answer"} for chunk in data[:-1])
    closing = data[-1]
    assert closing["sources"] and closing["message_id"] and closing["refused"] is False
    answer = "".join(chunk["answer"] for chunk in data[:-1])
    assert "RELIABLE" in answer
    stored = (await api.get(f"/sessions/{closing['session_id']}")).json()["messages"]
    assert stored[-1]["id"] == closing["message_id"]
    assert stored[-1]["content"] == answer.strip()
    assert stored[-1]["sources"] == closing["sources"]


async def test_the_playground_and_the_docs_are_served(api):
    playground = await api.get("/chat/playground/index.html")
    assert playground.status_code == 200 and "<html" in playground.text.lower()
    schema = (await api.get("/chat/input_schema")).json()
    assert set(schema["properties"]) == {
        "question",
        "session_id",
        "selected_text",
        "filters",
        "page_title",
        "book_id",
    }
    docs = (await api.get("/openapi.json")).json()
    assert {"/query", "/highlight_query", "/search", "/chat/stream", "/feedback"} <= set(
        docs["paths"]
    )


async def test_invoke_returns_the_whole_turn_and_keeps_the_session(api):
    session = (await api.post("/sessions")).json()["session_id"]
    body = {"input": {"question": QUESTION, "session_id": session}}
    output = (await api.post("/chat/invoke", json=body)).json()["output"]
    assert output["session_id"] == session and "RELIABLE" in output["answer"]
    follow_up = {"input": {"question": "And what about durability?", "session_id": session}}
    second = (await api.post("/chat/invoke", json=follow_up)).json()["output"]
    assert "TRANSIENT_LOCAL" in second["answer"]


async def test_stream_with_selected_text_answers_from_it_with_no_sources(api):
    selection = "Gazebo Harmonic pairs with ROS 2 Jazzy. Gazebo Fortress pairs with ROS 2 Humble."
    events = await stream(api, question="Which Gazebo goes with Humble?", selected_text=selection)
    data = [payload for kind, payload in events if kind == "data"]
    assert "Fortress" in "".join(chunk.get("answer") or "" for chunk in data)
    assert data[-1]["sources"] == []


@pytest.mark.parametrize(
    "config",
    [
        {"configurable": {"session_id": "00000000-0000-4000-8000-000000000000"}},
        {"configurable": {"resources": None, "llm_model": "openai:gpt-4o"}},
        {"tags": ["x"]},
    ],
)
async def test_client_config_is_refused(api, config):
    body = {"input": {"question": QUESTION}, "config": config}
    for endpoint in ("invoke", "stream"):
        response = await api.post(f"/chat/{endpoint}", json=body)
        assert response.status_code == 422
        assert response.json()["error"]["code"] == "config_not_allowed"


async def test_unknown_session_is_refused_before_the_stream_starts(api):
    body = {"input": {"question": QUESTION, "session_id": "00000000-0000-4000-8000-00000000000f"}}
    response = await api.post("/chat/stream", json=body)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_session"


@pytest.mark.parametrize(
    ("chat_input", "problem"),
    [
        ({"question": ""}, "question"),
        ({"question": "   \n "}, "question"),
        ({"question": "\x1f\x1c"}, "question"),  # separators that Python strips
        ({"question": "Why?", "page_title": "\x1e"}, "page_title"),
        ({"question": "x" * 4001}, "question"),
        ({"question": 42}, "question"),
        ({"question": "Why?", "selected_text": "y" * 20_001}, "selected_text"),
        ({"question": "Why?", "filters": {"hardware_tier": 9}}, "hardware_tier"),
        ({"question": "Why?", "filters": {"colour": "red"}}, "colour"),
        ({"question": "Why?", "session_id": "not-a-uuid"}, "session_id"),
        ({"selected_text": "Some text."}, "question"),
    ],
)
async def test_bad_chat_input_is_a_422_naming_the_field(api, chat_input, problem):
    for route in ("/chat/stream", "/chat/stream_log", "/chat/invoke"):
        response = await api.post(route, json={"input": chat_input})
        assert response.status_code == 422, route
        error = response.json()["error"]
        assert error["code"] == "invalid_request" and problem in error["message"]


async def test_malformed_json_is_a_400(api):
    response = await api.post(
        "/chat/invoke",
        content=b'{"input": {"question": ',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


async def test_llm_failing_mid_stream_stores_the_turn_as_failed_and_out_of_the_window(book):
    model = ScriptedChatModel(answer="Reliable delivery retransmits lost samples [1].")
    async with serving(Resources(book.settings, book.searcher, model)) as client:
        session = (await client.post("/sessions")).json()["session_id"]
        model.fail_after_words = 2
        events = await stream(client, question=QUESTION, session_id=session)
        assert events[-1][0] == "error"
        assert not any(kind == "data" and "sources" in (payload or {}) for kind, payload in events)
        model.fail_after_words = None
        await stream(client, question="What is a ROS 2 topic?", session_id=session)
        stored = (await client.get(f"/sessions/{session}")).json()["messages"]
    assert [m["status"] for m in stored] == ["failed", "failed", "complete", "complete"]
    assert stored[1]["content"] == "Reliable delivery "  # what the reader saw, marked failed
    assert len(model.answer_calls()[-1]) == 2  # the failed turn is not in the next window


async def test_unreachable_vector_store_is_a_503_and_the_session_stays_clean(book):
    settings = book.settings.model_copy(update={"qdrant_url": f"http://127.0.0.1:{free_port()}"})
    async with serving(build_resources(settings)) as client:
        assert (await client.get("/health")).status_code == 200
        ready = await client.get("/ready")
        session = (await client.post("/sessions")).json()["session_id"]
        response = await client.post("/query", json={"question": QUESTION, "session_id": session})
        stored = (await client.get(f"/sessions/{session}")).json()["messages"]
    assert ready.status_code == 503 and not ready.json()["parts"]["qdrant"]["ok"]
    assert ready.json()["parts"]["postgres"]["ok"]
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "vector_store_unavailable"
    assert response.headers["retry-after"]
    assert all(m["status"] == "failed" for m in stored)


async def test_unreachable_database_is_a_503_and_health_stays_up(book):
    dead = f"postgresql://postgres@127.0.0.1:{free_port()}/none"
    async with serving(book, database_url=dead, db_pool_timeout_seconds=0.5) as client:
        health = await client.get("/health")
        ready = await client.get("/ready")
        query = await client.post("/query", json={"question": QUESTION})
        chat = await client.post("/chat/invoke", json={"input": {"question": QUESTION}})
        session = await client.post("/sessions")
    assert health.status_code == 200
    assert ready.status_code == 503 and not ready.json()["parts"]["postgres"]["ok"]
    for response in (query, chat, session):
        assert response.status_code == 503, response.text
        assert response.json()["error"]["code"] == "database_unavailable"
