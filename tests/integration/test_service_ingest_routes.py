"""The ingest routes' edge on a server without ingest workflows: who may call them, what a
webhook body must be, and the runs page's escaping."""

import hashlib
import hmac
import json
from datetime import UTC, datetime

from agent.service.pages import render_runs
from agent.service.schemas import IngestRun
from tests.conftest import serving

SECRET = "webhook-secret"
ADMIN_TOKEN = "admin-token"
PUSH = json.dumps(
    {"ref": "refs/heads/main", "after": "c0ffee", "commits": [{"modified": ["book/docs/a.md"]}]}
).encode()


def signed(body: bytes, event: str = "push") -> dict[str, str]:
    digest = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    return {"x-hub-signature-256": f"sha256={digest}", "x-github-event": event}


async def test_ingest_requests_are_authenticated_before_a_server_without_ingests_says_503(book):
    async with serving(book, admin_token=ADMIN_TOKEN, github_webhook_secret=SECRET) as client:
        admin = {"authorization": f"Bearer {ADMIN_TOKEN}"}
        anonymous = await client.post("/ingest_book", json={"full": True})
        anonymous_bad_body = await client.post("/ingest_book", json={"full": "sometimes"})
        manual = await client.post("/ingest_book", json={"full": True}, headers=admin)
        unsigned = await client.post("/webhook/github", content=PUSH)
        push = await client.post("/webhook/github", content=PUSH, headers=signed(PUSH))
        ping = await client.post("/webhook/github", content=b"{}", headers=signed(b"{}", "ping"))
    assert [r.status_code for r in (anonymous, anonymous_bad_body, unsigned)] == [401] * 3
    assert anonymous.json()["error"]["code"] == unsigned.json()["error"]["code"] == "unauthorized"
    for disabled in (manual, push):
        assert disabled.status_code == 503
        assert disabled.json()["error"] == {
            "code": "ingest_disabled",
            "message": "this server does not run ingests",
        }
    assert ping.status_code == 200 and ping.json() == {"status": "pong"}  # needs no ingest


async def test_a_signed_webhook_body_that_is_not_a_json_object_is_a_client_error(book):
    async with serving(book, github_webhook_secret=SECRET) as client:
        garbled = await client.post("/webhook/github", content=b"{nope", headers=signed(b"{nope"))
        listed = await client.post("/webhook/github", content=b"[1]", headers=signed(b"[1]"))
    assert garbled.status_code == 400
    assert garbled.json()["error"]["code"] == "malformed_json"
    assert listed.status_code == 422
    assert listed.json()["error"] == {
        "code": "invalid_request",
        "message": "the webhook body must be a JSON object",
    }


def test_the_runs_page_shows_every_recorded_value_as_text_never_markup():
    attack = '<script>alert("x")</script>'
    run = IngestRun.model_validate(
        {
            "run_id": attack,
            "status": "failed",
            "trigger": "webhook",
            "branch": attack,
            "commit": "<b>c0ffee</b>",
            "full": False,
            "requested_at": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
            "started_at": None,
            "ended_at": None,
            "error": attack,
            "summary": None,
            "steps": [
                {
                    "name": attack,
                    "status": "failed",
                    "attempts": 2,
                    "started_at": None,
                    "ended_at": None,
                    "error": attack,
                }
            ],
        }
    )
    page = render_runs([run])
    assert "<script" not in page and "<b>" not in page
    assert page.count("&lt;script&gt;") == 4  # run id, step name, step error, run error
    assert "(2 attempts)" in page and "2026-01-02 03:04:05" in page
    assert "No ingest runs yet." in render_runs([])
