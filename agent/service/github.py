"""GitHub webhook deliveries: who sent them (signature or bearer token), and what they changed.

Signatures follow GitHub's documentation: `X-Hub-Signature-256` is `sha256=` followed by the
hex HMAC-SHA256 of the raw body keyed with the webhook secret, compared in constant time.
"""

import asyncio
import hashlib
import hmac
import json
import tempfile
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

SPOOL_IN_MEMORY_BYTES = 1 << 20
"""Most of an unverified webhook body held in memory; the rest waits on disk."""


class PayloadError(ValueError):
    """A delivery's body that is not the JSON object GitHub (or the Action) sends."""


class MalformedPayloadError(PayloadError):
    """The body is not JSON at all."""


class PayloadNotObjectError(PayloadError):
    """The body is JSON, but not the object a push sends (the message says which field)."""


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
class Delivery:
    """A webhook call whose sender proved itself: its event and its raw, unparsed body."""

    event: str
    body: bytes
    delivery_id: str | None
    """GitHub's `X-GitHub-Delivery` id; only trusted (and so only kept) when signed."""


def verify_delivery(
    body: bytes,
    headers: Mapping[str, str],
    webhook_secret: str | None,
    action_token: str | None,
) -> Delivery | None:
    """The delivery, when signed with `webhook_secret` or bearing `action_token`; else None.

    `headers` must look names up case-insensitively (as Starlette's `Headers` do). A secret
    that is not configured accepts nothing.
    """
    signed = bool(webhook_secret) and valid_signature(
        webhook_secret or "", body, headers.get("x-hub-signature-256")
    )
    bearer = bearer_allowed(headers, action_token)
    if not (signed or bearer):
        return None
    delivery_id = headers.get("x-github-delivery") if signed else None
    return Delivery(headers.get("x-github-event", "push"), body, delivery_id)


async def read_if_signed(
    chunks: AsyncIterator[bytes], secret: str, header: str | None
) -> bytes | None:
    """The body, if `header` is its signature under `secret`; else None.

    The signature is computed as the body arrives and the body is spooled to a temporary file
    past 1 MiB, so a large post with a forged signature never sits in memory.
    """
    mac = hmac.new(secret.encode(), digestmod=hashlib.sha256)
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY_BYTES) as spool:
        async for chunk in chunks:
            mac.update(chunk)
            await asyncio.to_thread(spool.write, chunk)
        if not hmac.compare_digest(f"sha256={mac.hexdigest()}", header or ""):
            return None
        await asyncio.to_thread(spool.seek, 0)
        return await asyncio.to_thread(spool.read)


def bearer_allowed(headers: Mapping[str, str], action_token: str | None) -> bool:
    """Whether the call bears the Action's token (decidable before reading the body)."""
    return bool(action_token) and valid_bearer(action_token or "", headers.get("authorization"))


def may_be_signed(headers: Mapping[str, str], webhook_secret: str | None) -> bool:
    """Whether a signature could be checked at all: a secret is set and a signature sent."""
    return bool(webhook_secret) and headers.get("x-hub-signature-256", "").startswith("sha256=")


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


def parse_push(body: bytes) -> Push:
    """The push a delivery's body describes (`PayloadError` when it is not a JSON object)."""
    try:
        payload = json.loads(body)
    except ValueError:  # also bytes that are not UTF-8 (UnicodeDecodeError)
        raise MalformedPayloadError("the webhook body is not valid JSON") from None
    if not isinstance(payload, dict):
        raise PayloadNotObjectError("the webhook body must be a JSON object")
    return push_of(payload)


def push_of(payload: dict[str, Any]) -> Push:
    """A push event's branch, head commit and touched paths; or the Action's branch/commit.

    A field of the wrong type, or text with a NUL, is a `PayloadNotObjectError` naming it.
    """
    ref = _text(payload, "ref") or _text(payload, "branch")
    branch = ref.removeprefix("refs/heads/") if ref else None
    commit = _text(payload, "after") or _text(payload, "commit")
    if "commits" not in payload:
        return Push(branch, commit, None)
    commits = payload["commits"]
    if not isinstance(commits, list) or not all(isinstance(c, dict) for c in commits):
        raise PayloadNotObjectError("commits: must be a list of commit objects")
    files: set[str] = set()
    for change in commits:
        for kind in ("added", "modified", "removed"):
            paths = change.get(kind) or []
            if not isinstance(paths, list) or not all(_clean(path) for path in paths):
                raise PayloadNotObjectError(f"commits.{kind}: must be a list of paths")
            files.update(paths)
    head = None if payload.get("deleted") else commit
    return Push(branch, head, frozenset(files))


def _text(payload: dict[str, Any], field: str) -> str | None:
    value = payload.get(field)
    if value is None:
        return None
    if not _clean(value):
        raise PayloadNotObjectError(f"{field}: must be text without NUL characters")
    return str(value)


def _clean(value: Any) -> bool:
    return isinstance(value, str) and "\x00" not in value


def action_request_id(push: Push) -> str:
    """A stable id for the Action's call, so a re-run of the same commit is one request."""
    digest = hashlib.sha256(f"{push.branch}\n{push.commit}".encode()).hexdigest()[:24]
    return f"action-{digest}"
