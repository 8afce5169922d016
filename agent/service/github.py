"""GitHub webhook deliveries: who sent them (signature or bearer token), and what they changed.

Signatures follow GitHub's documentation: `X-Hub-Signature-256` is `sha256=` followed by the
hex HMAC-SHA256 of the raw body keyed with the webhook secret, compared in constant time.
"""

import hashlib
import hmac
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any


def valid_signature(secret: str, body: bytes, header: str | None) -> bool:
    """Whether `header` is the sha256 signature of `body` under `secret`."""
    if not header or not header.startswith("sha256="):
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(f"sha256={expected}", header)


def valid_bearer(token: str, header: str | None) -> bool:
    """Whether an `Authorization` header carries exactly this bearer token."""
    scheme, _, given = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip(), token)


@dataclass(frozen=True)
class Push:
    """What a push (or the GitHub Action's call) asks to ingest."""

    branch: str | None
    commit: str | None
    files: frozenset[str] | None
    """Paths the push touched; None when the sender does not list them (the Action)."""

    def touches(self, pattern: str) -> bool:
        """Whether the push changed a path matching `pattern` (unknown: assume it did)."""
        return self.files is None or any(fnmatchcase(path, pattern) for path in self.files)


def push_of(payload: dict[str, Any]) -> Push:
    """A push event's branch, head commit and touched paths; or the Action's branch/commit."""
    ref = payload.get("ref") or payload.get("branch")
    branch = ref.removeprefix("refs/heads/") if isinstance(ref, str) else None
    commit = payload.get("after") or payload.get("commit")
    if "commits" not in payload:
        return Push(branch, commit if isinstance(commit, str) else None, None)
    files: set[str] = set()
    for change in payload.get("commits") or []:
        for kind in ("added", "modified", "removed"):
            files.update(path for path in change.get(kind) or [] if isinstance(path, str))
    head = None if payload.get("deleted") else commit
    return Push(branch, head if isinstance(head, str) else None, frozenset(files))


def action_request_id(push: Push) -> str:
    """A stable id for the Action's call, so a re-run of the same commit is one request."""
    digest = hashlib.sha256(f"{push.branch}\n{push.commit}".encode()).hexdigest()[:24]
    return f"action-{digest}"
