"""Per-key rate limits: one token bucket per client address, one per session, and one per
address for failed webhook authentications.

Buckets are kept in this process: with N replicas behind a load balancer, each allows its own
share. That bounds abuse of one replica, which is their job here.
"""

import math
import time
import uuid
from collections import OrderedDict

from core.settings import Settings


class RateLimitedError(Exception):
    """A client or a session sent more than its share; it may try again in `retry_after` s."""

    def __init__(self, retry_after: int, who: str) -> None:
        super().__init__(f"{who} is rate limited for {retry_after} s")
        self.retry_after = retry_after
        self.who = who


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

    def blocked_for(self, key: str) -> float | None:
        """Seconds until `key` may try again, without taking anything; None if it may now."""
        if self.capacity == 0 or key not in self._buckets:
            return None
        tokens, stamp = self._buckets[key]
        tokens = min(self.capacity, tokens + (time.monotonic() - stamp) * self.refill_per_second)
        return None if tokens >= 1.0 else (1.0 - tokens) / self.refill_per_second


class RateLimits:
    """The service's limits: requests per client address, turns per session, and failed
    webhook authentications per address (GitHub never fails them; a guesser does)."""

    def __init__(self, settings: Settings) -> None:
        self.client = RateLimiter(settings.rate_limit_client_per_minute)
        self.session = RateLimiter(settings.rate_limit_session_per_minute)
        self.webhook_failures = RateLimiter(settings.webhook_failures_per_minute)

    def check_client(self, host: str) -> None:
        """Count a request from `host`; `RateLimitedError` when it sends too much."""
        _raise_if_limited(self.client.retry_after(host), "this client")

    def check_session(self, session_id: uuid.UUID | None) -> None:
        """Count a turn of the session, if any; `RateLimitedError` when it asks too fast."""
        if session_id is not None:
            _raise_if_limited(self.session.retry_after(str(session_id)), "this session")

    def check_webhook_sender(self, host: str) -> None:
        """`RateLimitedError` while `host` has failed to authenticate too often."""
        _raise_if_limited(self.webhook_failures.blocked_for(host), "this address")

    def count_webhook_failure(self, host: str) -> None:
        """Count a failed webhook authentication from `host`."""
        self.webhook_failures.retry_after(host)


def _raise_if_limited(wait: float | None, who: str) -> None:
    if wait is not None:
        raise RateLimitedError(max(1, math.ceil(wait)), who)
