"""Webhook credentials and push parsing."""

import hashlib
import hmac

from agent.service.github import action_request_id, push_of, valid_bearer, valid_signature

# GitHub's documented example ("Validating webhook deliveries").
SECRET = "It's a Secret to Everybody"
PAYLOAD = b"Hello, World!"
SIGNATURE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"


def test_githubs_documented_test_vector_passes():
    assert valid_signature(SECRET, PAYLOAD, SIGNATURE)


def test_wrong_secret_altered_body_sha1_and_missing_signatures_fail():
    sha1 = "sha1=" + hmac.new(SECRET.encode(), PAYLOAD, hashlib.sha1).hexdigest()
    assert not valid_signature("another secret", PAYLOAD, SIGNATURE)
    assert not valid_signature(SECRET, PAYLOAD + b" ", SIGNATURE)
    assert not valid_signature(SECRET, PAYLOAD, sha1)
    assert not valid_signature(SECRET, PAYLOAD, None)
    assert not valid_signature(SECRET, PAYLOAD, SIGNATURE.removeprefix("sha256="))


def test_bearer_token_must_match_exactly():
    assert valid_bearer("s3cret", "Bearer s3cret")
    assert valid_bearer("s3cret", "bearer s3cret")
    assert not valid_bearer("s3cret", "Bearer s3cret2")
    assert not valid_bearer("s3cret", "Basic s3cret")
    assert not valid_bearer("s3cret", None)


def test_a_push_lists_the_paths_its_commits_touched():
    push = push_of(
        {
            "ref": "refs/heads/main",
            "after": "abc123",
            "commits": [
                {"added": ["book/docs/new.md"], "modified": [], "removed": []},
                {"added": [], "modified": ["README.md"], "removed": ["book/docs/old/x.mdx"]},
            ],
        }
    )
    assert push.branch == "main" and push.commit == "abc123"
    assert push.files == {"book/docs/new.md", "README.md", "book/docs/old/x.mdx"}
    assert push.touches("book/docs/**")
    assert not push_of({"ref": "refs/heads/main", "after": "a", "commits": [
        {"modified": ["src/app.py"]}
    ]}).touches("book/docs/**")  # fmt: skip


def test_the_actions_call_names_no_files_and_gets_a_stable_id():
    push = push_of({"branch": "refs/heads/main", "commit": "abc123"})
    assert push.files is None and push.touches("book/docs/**")
    assert push.branch == "main" and push.commit == "abc123"
    assert action_request_id(push) == action_request_id(push_of(
        {"branch": "refs/heads/main", "commit": "abc123"}
    ))  # fmt: skip
    assert action_request_id(push) != action_request_id(push_of({"branch": "main", "commit": "x"}))
