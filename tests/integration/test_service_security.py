"""The service as an attacker or a careless client meets it: conversations that belong to their
reader, inputs that are always a clear 4xx, and no internals on the wire."""

import hashlib
import hmac
import json
import uuid

import psycopg
import pytest

from agent.conversations.sessions import open_session, session_uuid
from agent.service.chat_route import ChatChunk
from tests.conftest import serving, sse_events

QUESTION = "What does the reliability QoS policy do?"
SECRET = "webhook-secret"


@pytest.fixture(scope="module")
async def api(book):
    async with serving(book, github_webhook_secret=SECRET) as client:
        yield client


async def owned_session(client) -> tuple[str, str, int]:  # type: ignore[no-untyped-def]
    """A session with one answered turn: (id, token, the answer's message id)."""
    created = (await client.post("/sessions")).json()
    session, token = created["session_id"], created["session_token"]
    reply = await client.post("/query", json={"question": QUESTION, "session_id": session})
    return session, token, reply.json()["message_id"]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def test_a_session_answers_only_to_its_own_token(api):
    session, token, answer = await owned_session(api)
    _, other_token, _ = await owned_session(api)
    api.tokens.clear()  # from here on, only the headers given below are sent
    turn = {"question": QUESTION, "session_id": session}
    vote = {"session_id": session, "message_id": answer, "score": -1}
    for headers in ({}, bearer(other_token), bearer("x" * 43)):
        assert (await api.get(f"/sessions/{session}", headers=headers)).status_code == 404
        assert (await api.post("/query", json=turn, headers=headers)).status_code == 404
        chat = await api.post("/chat/invoke", json={"input": turn}, headers=headers)
        assert chat.status_code == 404
        assert (await api.post("/feedback", json=vote, headers=headers)).status_code == 404
        assert (await api.delete(f"/sessions/{session}", headers=headers)).status_code == 404
    missing = await api.get(f"/sessions/{uuid.uuid4()}", headers=bearer(token))
    wrong = await api.get(f"/sessions/{session}", headers=bearer(other_token))
    assert wrong.status_code == missing.status_code == 404  # a wrong token tells nothing
    assert wrong.json()["error"]["code"] == missing.json()["error"]["code"] == "unknown_session"
    view = await api.get(f"/sessions/{session}", headers=bearer(token))
    assert view.status_code == 200 and len(view.json()["messages"]) == 2  # nothing was added


async def test_votes_over_a_range_of_message_ids_touch_no_other_readers_answers(api, database_url):
    victims = [await owned_session(api) for _ in range(3)]
    for session, token, answer in victims:  # each reader rates their own answer
        vote = {"session_id": session, "message_id": answer, "score": 1}
        assert (await api.post("/feedback", json=vote, headers=bearer(token))).status_code == 201
    attacker, attacker_token, own_answer = await owned_session(api)
    statuses = set()
    for message_id in range(own_answer - 20, own_answer + 5):
        vote = {"session_id": attacker, "message_id": message_id, "score": -1}
        response = await api.post("/feedback", json=vote, headers=bearer(attacker_token))
        statuses.add((message_id == own_answer, response.status_code))
    assert statuses == {(True, 201), (False, 404)}  # 404 alike for missing and not-yours
    with psycopg.connect(database_url) as conn:
        scores = conn.execute(
            "SELECT score FROM feedback WHERE message_id = ANY(%s)",
            ([answer for _, _, answer in victims],),
        ).fetchall()
    assert scores == [(1,), (1,), (1,)]  # every reader's own vote stands


async def test_command_line_sessions_are_not_reachable_over_http(api, book):
    session = session_uuid("alice")  # computable by anyone
    async with await psycopg.AsyncConnection.connect(
        book.settings.database_url, autocommit=True
    ) as conn:
        await open_session(conn, session, book.settings.book_id)
    for headers in ({}, bearer("alice"), bearer("")):
        assert (await api.get(f"/sessions/{session}", headers=headers)).status_code == 404


def deep_json(depth: int) -> bytes:
    return b'{"input": ' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("route", ["/chat/invoke", "/chat/stream", "/query", "/search"])
@pytest.mark.parametrize(
    "body",
    [
        deep_json(60_000),
        b'{"input": {"question": "\xff\xfe bad bytes"}}',
        b"\xc3\x28",
        b'{"input": {"question": "Why?", "session_id": ' + b"9" * 5000 + b"}}",
        b'{"question": "Why?", "session_id": ' + b"9" * 5000 + b"}",
    ],
    ids=["60000-deep", "invalid-utf8-in-string", "invalid-utf8", "5000-digits", "5000-digits-"],
)
async def test_hostile_json_bodies_are_a_400(api, route, body):
    response = await api.post(route, content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("/query", {"question": QUESTION, "top_k": True}, "top_k"),
        ("/search", {"text": "qos", "proficiency_levels": ["A1"] * 10_000}, "proficiency"),
        ("/search", {"text": "qos", "module": "ros\x002"}, "module"),
        ("/search", {"text": "qos", "parent_doc_id": "a\x00b"}, "parent_doc_id"),
    ],
)
async def test_malformed_fields_are_a_422_naming_the_field(api, route, body, field):
    response = await api.post(
        route, content=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert field in response.json()["error"]["message"]


async def test_a_nul_in_a_run_id_is_a_client_error(api):
    response = await api.get("/ingest/runs/a%00b")
    assert 400 <= response.status_code < 500
    assert response.json()["error"]["message"]


def signed(body: bytes) -> dict[str, str]:
    digest = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    return {
        "x-hub-signature-256": f"sha256={digest}",
        "x-github-event": "push",
        "x-github-delivery": str(uuid.uuid4()),
        "content-type": "application/json",
    }


@pytest.mark.parametrize(
    "payload",
    [
        {"ref": "refs/heads/main", "after": "c0ffee", "commits": [1]},
        {"ref": "refs/heads/main", "after": "c0ffee", "commits": "many"},
        {"ref": "refs/heads/main", "after": "c0ffee", "commits": {"a": 1}},
        {"ref": "refs/heads/ma\x00in", "after": "c0ffee", "commits": []},
        {"ref": 7, "after": ["x"], "commits": []},
    ],
)
async def test_a_signed_but_malformed_push_is_a_422(api, payload):
    body = json.dumps(payload).encode()
    response = await api.post("/webhook/github", content=body, headers=signed(body))
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"]


async def test_stream_events_is_not_served(api):
    response = await api.post("/chat/stream_events", json={"input": {"question": QUESTION}})
    assert response.status_code in (404, 405)


async def test_stream_log_carries_the_turn_not_the_graphs_internal_state(api):
    response = await api.post("/chat/stream_log", json={"input": {"question": QUESTION}})
    assert response.status_code == 200
    assert "RELIABLE" in response.text  # the answer streams
    assert '"/logs/' not in response.text  # no inner run of the graph is logged
    assert "payload" not in response.text and "candidates" not in response.text
    # every operation writes the turn's streamed chunks or its final output, field by field
    # (the log re-sends the answer so far with each chunk, so its size grows with the answer's)
    ops = [op for kind, data in sse_events(response.text) if kind == "data" for op in data["ops"]]
    written = {tuple(op["path"].split("/")[1:3]) for op in ops} - {()}
    fields = set(ChatChunk.model_fields)
    assert written and all(
        path[0] == "streamed_output" or (path[0] == "final_output" and set(path[1:]) <= fields)
        for path in written
    ), written


async def test_an_unsigned_webhook_post_is_refused_before_its_body_is_read(book):
    pulled = 0

    async def body():
        nonlocal pulled
        for _ in range(20):
            pulled += 1
            yield b"x" * 1_000_000

    async with serving(book, github_webhook_secret=SECRET) as client:
        response = await client.post(
            "/webhook/github", content=body(), headers={"x-github-event": "push"}
        )
    assert response.status_code == 401
    assert pulled <= 1  # at most the first chunk was offered; nothing was buffered


async def test_a_forged_signature_is_refused_and_an_address_that_keeps_failing_is_throttled(book):
    body = json.dumps({"ref": "refs/heads/main", "after": "c0ffee", "commits": []}).encode()
    forged = {**signed(body), "x-hub-signature-256": "sha256=" + "0" * 64}
    async with serving(book, github_webhook_secret=SECRET, webhook_failures_per_minute=3) as client:
        statuses = [
            (await client.post("/webhook/github", content=body, headers=forged)).status_code
            for _ in range(5)
        ]
        genuine = await client.post("/webhook/github", content=body, headers=signed(body))
    assert statuses == [401, 401, 401, 429, 429]
    assert genuine.status_code == 429  # the address waits, whatever it sends now
