"""Sessions, feedback, request limits and CORS over HTTP."""

import psycopg
import pytest

from tests.conftest import serving

QUESTION = "What does the reliability QoS policy do?"
NO_SESSION = "00000000-0000-4000-8000-000000000000"


@pytest.fixture(scope="module")
async def api(book):
    async with serving(book) as client:
        yield client


async def answered_session(client) -> tuple[str, int, int]:  # type: ignore[no-untyped-def]
    """A session with one turn: (session id, question message id, answer message id)."""
    session = (await client.post("/sessions")).json()["session_id"]
    reply = (await client.post("/query", json={"question": QUESTION, "session_id": session})).json()
    return session, reply["message_id"] - 1, reply["message_id"]


async def test_a_new_session_is_empty(api):
    created = await api.post("/sessions")
    assert created.status_code == 201
    view = (await api.get(f"/sessions/{created.json()['session_id']}")).json()
    assert view["messages"] == [] and view["expired"] is False


async def test_deleting_a_session_deletes_its_messages(api, database_url):
    session, _, answer = await answered_session(api)
    await api.post("/feedback", json={"session_id": session, "message_id": answer, "score": 1})
    assert (await api.delete(f"/sessions/{session}")).status_code == 204
    assert (await api.get(f"/sessions/{session}")).status_code == 404
    with psycopg.connect(database_url) as conn:
        left = conn.execute("SELECT count(*) FROM messages WHERE session_id = %s", (session,))
        assert left.fetchone() == (0,)
    assert (await api.delete(f"/sessions/{session}")).status_code == 404


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", f"/sessions/{NO_SESSION}", 404),
        ("DELETE", f"/sessions/{NO_SESSION}", 404),
        ("GET", "/sessions/not-a-uuid", 422),
    ],
)
async def test_unknown_or_malformed_session_ids_are_client_errors(api, method, path, status):
    response = await api.request(method, path)
    assert response.status_code == status
    assert response.json()["error"]["message"]


async def test_feedback_is_stored_on_the_answer_and_a_second_vote_replaces_it(api, database_url):
    session, _, answer = await answered_session(api)
    vote = {"session_id": session, "message_id": answer}
    first = await api.post("/feedback", json={**vote, "score": -1, "comment": "?"})
    second = await api.post("/feedback", json={**vote, "score": 1})
    assert first.status_code == second.status_code == 201
    assert first.json()["feedback_id"] == second.json()["feedback_id"]
    messages = (await api.get(f"/sessions/{session}")).json()["messages"]
    assert [m["feedback_score"] for m in messages] == [None, 1]
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT score, comment FROM feedback WHERE message_id = %s", (answer,))
        assert row.fetchone() == (1, None)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"message_id": 2**62, "score": 1}, 404, "unknown_message"),
        ({"message_id": 1, "score": 0}, 422, "invalid_request"),
        ({"message_id": "one", "score": 1}, 422, "invalid_request"),
        ({"message_id": 1, "score": 1, "comment": "x" * 2001}, 422, "invalid_request"),
    ],
)
async def test_bad_feedback_is_refused(api, body, status, code):
    session, _, _ = await answered_session(api)
    response = await api.post("/feedback", json={"session_id": session, **body})
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


async def test_a_question_cannot_be_rated(api):
    session, question, _ = await answered_session(api)
    vote = {"session_id": session, "message_id": question, "score": 1}
    response = await api.post("/feedback", json=vote)
    assert response.status_code == 404


async def test_a_body_over_the_cap_is_a_413_before_it_is_read(api):
    huge = b'{"question": "' + b"x" * 300_000 + b'"}'
    declared = await api.post("/query", content=huge, headers={"content-type": "application/json"})
    assert declared.status_code == 413
    assert declared.json()["error"]["code"] == "payload_too_large"

    async def chunks():  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b"x" * 10_000

    streamed = await api.post(
        "/query", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413


async def test_too_many_requests_from_one_client_is_a_429_with_retry_after(book):
    async with serving(book, rate_limit_client_per_minute=3) as client:
        statuses = [(await client.get("/sessions/not-a-uuid")).status_code for _ in range(4)]
        limited = await client.post("/query", json={"question": QUESTION})
        health = await client.get("/health")
    assert statuses == [422, 422, 422, 429]
    assert limited.status_code == 429 and int(limited.headers["retry-after"]) >= 1
    assert limited.json()["error"]["code"] == "rate_limited"
    assert health.status_code == 200  # probes are never limited


async def test_one_session_asking_too_fast_is_a_429_but_other_sessions_are_not(book):
    async with serving(book, rate_limit_session_per_minute=2) as client:
        busy = (await client.post("/sessions")).json()["session_id"]
        calm = (await client.post("/sessions")).json()["session_id"]
        turns = [
            (await client.post("/query", json={"question": QUESTION, "session_id": busy}))
            for _ in range(3)
        ]
        chat = await client.post(
            "/chat/stream", json={"input": {"question": QUESTION, "session_id": busy}}
        )
        other = await client.post("/query", json={"question": QUESTION, "session_id": calm})
    assert [t.status_code for t in turns] == [200, 200, 429]
    assert chat.status_code == 429
    assert other.status_code == 200


async def test_cors_allows_the_book_site_only(api, book):
    site = book.settings.site_url
    preflight = {"access-control-request-method": "POST"}
    allowed = await api.options("/query", headers={"origin": site, **preflight})
    refused = await api.options("/query", headers={"origin": "https://evil.example", **preflight})
    assert allowed.headers["access-control-allow-origin"] == site
    assert "access-control-allow-origin" not in refused.headers
