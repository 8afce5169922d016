"""`/query` and `/highlight_query` over HTTP: answers, sessions, window, expiry, failures."""

import psycopg
import pytest

from agent.graph import DEGRADED_NOTE
from agent.inputs import MAX_QUESTION_CHARS
from agent.resources import Resources
from tests.conftest import serving
from tests.fakes import ScriptedChatModel, spied

QUESTION = "Which QoS policy makes DDS retransmit messages that were lost?"


@pytest.fixture(scope="module")
async def api(book):
    async with serving(book) as client:
        yield client


def with_model(resources: Resources, model: ScriptedChatModel) -> Resources:
    return Resources(resources.settings, resources.searcher, model)


async def ask(client, question: str = QUESTION, **body):  # type: ignore[no-untyped-def]
    response = await client.post("/query", json={"question": question, **body})
    assert response.status_code == 200, response.text
    return response.json()


async def test_query_answers_with_cited_sections_and_stores_the_turn(api):
    reply = await ask(api)
    assert "RELIABLE" in reply["answer"] and not reply["refused"]
    assert reply["sources"] and reply["chunks_used"] >= len(reply["sources"])
    assert any(s["url"].endswith("#qos") for s in reply["sources"])
    stored = (await api.get(f"/sessions/{reply['session_id']}")).json()["messages"]
    assert [(m["role"], m["status"]) for m in stored] == [
        ("user", "complete"),
        ("assistant", "complete"),
    ]
    assert stored[0]["content"] == QUESTION
    assert stored[1]["id"] == reply["message_id"]
    assert stored[1]["content"] == reply["answer"]
    assert stored[1]["sources"] == reply["sources"]


async def test_off_book_question_is_refused_without_sources(api):
    reply = await ask(api, "What is a good recipe for sourdough bread?")
    assert reply["refused"] and reply["sources"] == []
    assert reply["answer"].startswith("This isn't covered in the book")


async def test_a_question_of_the_longest_allowed_length_is_answered_not_a_500(api):
    log = "Error: lost sample from publisher on /scan after retry. " * 80
    pasted = log[: MAX_QUESTION_CHARS - len(QUESTION) - 1] + " " + QUESTION
    reply = await ask(api, pasted)  # the cross-encoder reads past its 192 word pieces
    assert any(s["url"].endswith("#qos") for s in reply["sources"])
    repeated = "What is" + " in" * ((MAX_QUESTION_CHARS - 8) // 3) + "?"
    assert (await ask(api, repeated))["refused"]


async def test_top_k_caps_the_sources(api):
    reply = await ask(api, "How do ROS 2 nodes communicate?", top_k=1)
    assert len(reply["sources"]) == 1


async def test_filters_keep_answers_inside_the_chosen_module(api):
    reply = await ask(api, "How is a robot simulated?", filters={"module": "isaac"})
    assert reply["sources"]
    assert all(s["file_path"].startswith("03-isaac/") for s in reply["sources"])


async def test_a_question_about_this_lesson_is_about_the_page_the_reader_is_on(api):
    question = "I finished this lesson. What should I take away from it?"
    page = "Voice to Action: Speech, Planning and ROS 2"
    reply = await ask(api, question, page_title=page)
    assert not reply["refused"]
    assert reply["sources"][0]["url"].endswith("/vla/voice-to-action#key-takeaways")
    assert "Whisper transcribes 16 kHz audio" in reply["answer"]
    elsewhere = await ask(api, question, page_title="Connecting Gazebo and ROS 2")
    assert elsewhere["sources"][0]["url"].endswith("/simulation/ros-gazebo-bridge#key-takeaways")


async def test_a_page_title_too_long_is_a_clear_422(api):
    response = await api.post("/query", json={"question": QUESTION, "page_title": "x" * 301})
    assert response.status_code == 422
    assert "page_title" in response.text


async def test_a_follow_up_is_understood_from_the_session(api):
    first = await ask(api, "What does the reliability QoS policy do?")
    follow_up = await ask(api, "And what about durability?", session_id=first["session_id"])
    assert "TRANSIENT_LOCAL" in follow_up["answer"]


async def test_history_window_is_exactly_the_last_ten_messages_of_the_session(book):
    model = ScriptedChatModel()
    async with serving(with_model(book, model)) as client:
        session = (await client.post("/sessions")).json()["session_id"]
        other = (await client.post("/sessions")).json()["session_id"]
        await ask(client, "What is a ROS 2 topic?", session_id=other)
        for n in range(6):
            await ask(client, f"Question {n} about ROS 2 topics?", session_id=session)
        stored = (await client.get(f"/sessions/{session}")).json()["messages"]
        seen = model.answer_calls()[-1]
    history = [m.text for m in seen[1:-1]]  # between the system prompt and the question
    assert len(stored) == 12
    assert history == [m["content"] for m in stored[:-2]][-10:]
    assert "What is a ROS 2 topic?" not in history  # another session's turn never leaks in


async def test_a_new_session_sends_no_history(book):
    model = ScriptedChatModel()
    async with serving(with_model(book, model)) as client:
        await ask(client, "What is a ROS 2 topic?")
        await ask(client, "What is a ROS 2 service?")  # no session id: a new session
    assert len(model.answer_calls()[-1]) == 2  # system prompt and question only


async def test_expired_session_restarts_its_window_and_says_so(book, database_url):
    model = ScriptedChatModel()
    async with serving(with_model(book, model)) as client:
        first = await ask(client, "What is a ROS 2 topic?")
        session = first["session_id"]
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE sessions SET last_active_at = now() - interval '25 hours' WHERE id = %s",
                (session,),
            )
        renewed = await ask(client, "What is a ROS 2 service?", session_id=session)
        assert len(model.answer_calls()[-1]) == 2  # nothing from before the expiry
        after = await ask(client, "And a ROS 2 action?", session_id=session)
        assert len(model.answer_calls()[-1]) == 4  # only the turn after the expiry
        view = (await client.get(f"/sessions/{session}")).json()
    assert renewed["session_expired"] and not after["session_expired"]
    assert not first["session_expired"]
    assert len(view["messages"]) == 6  # the old messages are kept, just not in the window


async def test_unknown_session_is_a_404(api):
    response = await api.post(
        "/query",
        json={"question": QUESTION, "session_id": "00000000-0000-4000-8000-000000000000"},
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_session"


async def test_failing_llm_falls_back_to_the_extractive_answer_and_says_so(book):
    model = ScriptedChatModel(fail_after_words=0)
    async with serving(with_model(book, model)) as client:
        reply = await ask(client)
    assert reply["answer"].startswith(DEGRADED_NOTE.strip()[:40])
    assert "RELIABLE" in reply["answer"] and reply["sources"]


async def test_an_llm_that_is_down_degrades_every_step_to_offline_and_says_so(book):
    model = ScriptedChatModel(down=True)
    selection = "Reliable delivery retransmits lost samples. Best effort drops them."
    async with serving(with_model(book, model)) as client:
        first = await ask(client)
        calls_in_first_turn = len(model.calls)
        follow_up = await ask(client, "And what about durability?", session_id=first["session_id"])
        highlight = await client.post(
            "/highlight_query",
            json={"question": "What does reliable do?", "selected_text": selection},
        )
    note = DEGRADED_NOTE.strip()[:40]
    assert first["answer"].startswith(note) and "RELIABLE" in first["answer"]
    assert first["sources"] and not first["refused"]
    assert calls_in_first_turn == 1  # after the grader's failure the turn stops asking the LLM
    assert follow_up["answer"].startswith(note) and "TRANSIENT_LOCAL" in follow_up["answer"]
    assert highlight.status_code == 200
    assert highlight.json()["answer"].startswith(note)
    assert "retransmits lost samples" in highlight.json()["answer"]


async def test_highlight_query_answers_from_the_selection_without_searching(book):
    resources, searcher, embeddings = spied(book)
    selection = (
        "The Zero Moment Point is the point on the ground where the net moment of the inertial "
        "and gravity forces has no horizontal component. Walking is stable while it stays "
        "inside the support polygon."
    )
    async with serving(resources) as client:
        embedded_at_start = embeddings.calls
        response = await client.post(
            "/highlight_query",
            json={"question": "When is walking stable?", "selected_text": selection},
        )
    assert response.status_code == 200
    body = response.json()
    assert body["source_context"] == selection
    assert "support polygon" in body["answer"]
    assert searcher.searches == 0 and embeddings.calls == embedded_at_start
