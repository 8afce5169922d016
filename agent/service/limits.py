"""Request limits: body size (checked before the body is read) and per-key rate limits.

Rate limits are token buckets kept in this process: with N replicas behind a load balancer,
each allows its own share. That bounds abuse of one replica, which is their job here.
"""

import time
from collections import OrderedDict

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agent.service.errors import error_response


class RateLimiter:
    """`per_minute` requests per key, refilled continuously; 0 means unlimited."""

    def __init__(self, per_minute: int, max_keys: int = 100_000) -> None:
        self.capacity = float(per_minute)
        self.refill_per_second = per_minute / 60.0
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def retry_after(self, key: str) -> float | None:
        """Take one request for `key`: None if allowed, else seconds until one is."""
        if self.capacity == 0:
            return None
        now = time.monotonic()
        tokens, stamp = self._buckets.pop(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - stamp) * self.refill_per_second)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self.max_keys:  # forget the least recently seen client
            self._buckets.popitem(last=False)
        return None if allowed else (1.0 - tokens) / self.refill_per_second


class BodySizeLimit:
    """ASGI middleware: a request body over `max_bytes` is answered 413 without reading it all.

    A declared Content-Length is checked before anything is read; a chunked body is counted
    as it arrives and refused at the first byte over the limit.
    """

    def __init__(
        self, app: ASGIApp, max_bytes: int, per_path: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.per_path = per_path or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.per_path.get(scope["path"], self.max_bytes)
        too_large = f"the request body is larger than {cap:,} bytes"
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and not declared.isdigit():
            await error_response(400, "bad_request", "Content-Length is not a number")(
                scope, receive, send
            )
            return
        if declared is not None and int(declared) > cap:
            await error_response(413, "payload_too_large", too_large)(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > cap:
                raise HTTPException(413, too_large)  # answered by the API's error handler
            return message

        await self.app(scope, counting_receive, send)
