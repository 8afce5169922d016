"""What routes depend on, as `Annotated` aliases: the app's shared parts, a database connection,
rate limits, and who may call the ingest routes.

Every dependency is `async def`, even where it awaits nothing: FastAPI runs a plain `def` one in a
thread pool, and the rate limiter's buckets are not meant to be touched from several threads.
"""

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Query, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from agent.resources import Resources
from agent.service.errors import ApiError
from agent.service.github import (
    Delivery,
    bearer_allowed,
    may_be_signed,
    read_if_signed,
    valid_bearer,
    verify_delivery,
)
from agent.service.ingest_queue import IngestQueue
from agent.service.lifecycle import Lifecycle
from agent.service.rate_limits import RateLimits
from core.settings import Settings


async def lifecycle_of(request: Request) -> Lifecycle:
    """What the app was started with."""
    lifecycle: Lifecycle = request.app.state.lifecycle
    return lifecycle


LifecycleDep = Annotated[Lifecycle, Depends(lifecycle_of)]


async def _settings(lifecycle: LifecycleDep) -> Settings:
    return lifecycle.settings


async def _resources(lifecycle: LifecycleDep) -> Resources:
    return lifecycle.resources


async def _rate_limits(lifecycle: LifecycleDep) -> RateLimits:
    return lifecycle.limits


async def _ingest_queue(lifecycle: LifecycleDep) -> IngestQueue:
    return lifecycle.ingest


SettingsDep = Annotated[Settings, Depends(_settings)]
ResourcesDep = Annotated[Resources, Depends(_resources)]
RateLimitsDep = Annotated[RateLimits, Depends(_rate_limits)]
IngestQueueDep = Annotated[IngestQueue, Depends(_ingest_queue)]


async def get_pool(lifecycle: LifecycleDep) -> AsyncConnectionPool:
    """The connection pool, once the schema is in place (503 when the database is down)."""
    await lifecycle.schema.ensure()
    return lifecycle.pool


PoolDep = Annotated[AsyncConnectionPool, Depends(get_pool)]


async def get_connection(pool: PoolDep) -> AsyncIterator[AsyncConnection]:
    """One pooled connection for the request."""
    async with pool.connection() as conn:
        yield conn


ConnectionDep = Annotated[AsyncConnection, Depends(get_connection)]


async def _book_param(
    lifecycle: LifecycleDep,
    book_id: Annotated[
        str | None,
        Query(max_length=100, description="The book (`GET /books`); omitted = the configured one."),
    ] = None,
) -> Resources:
    return await lifecycle.book(book_id)


BookDep = Annotated[Resources, Depends(_book_param)]
"""The resources of the book named by the `book_id` query parameter (404 when unknown)."""


async def limit_client(request: Request, limits: RateLimitsDep) -> None:
    """Count the request against its client address (429 when it sends too much)."""
    limits.check_client(request.client.host if request.client else "unknown")


RateLimited = Depends(limit_client)


async def github_delivery(
    request: Request, settings: SettingsDep, limits: RateLimitsDep
) -> Delivery:
    """A webhook call signed with the webhook secret or bearing `RAG_SECRET` (else 401).

    A call that carries neither is refused before its body is read, and an address that keeps
    failing is refused (429) before anything else, so unsigned posts cost no memory.
    """
    host = request.client.host if request.client else "unknown"
    limits.check_webhook_sender(host)
    secret, token = settings.github_webhook_secret, settings.rag_secret
    delivery = None
    if bearer_allowed(request.headers, token):
        delivery = verify_delivery(await request.body(), request.headers, secret, token)
    elif secret and may_be_signed(request.headers, secret):
        signature = request.headers.get("x-hub-signature-256")
        body = await read_if_signed(request.stream(), secret, signature)
        if body is not None:  # the signature covers the raw bytes: kept unparsed
            delivery = verify_delivery(body, request.headers, secret, token)
    if delivery is None:
        limits.count_webhook_failure(host)
        raise ApiError(401, "unauthorized", "missing or wrong webhook signature or bearer token")
    return delivery


GitHubDelivery = Annotated[Delivery, Depends(github_delivery)]


session_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="SessionToken",
    description="The `session_token` returned when the session was made (never put it in a URL).",
)


async def session_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(session_bearer)],
) -> str | None:
    """The session token the caller bears, if any."""
    return credentials.credentials if credentials else None


SessionTokenDep = Annotated[str | None, Depends(session_token)]


async def require_admin(request: Request, settings: SettingsDep) -> None:
    """Only a caller bearing `ADMIN_TOKEN` (401 otherwise, or when none is configured)."""
    token = settings.admin_token
    if not token or not valid_bearer(token, request.headers.get("authorization")):
        raise ApiError(401, "unauthorized", "missing or wrong admin bearer token")


AdminOnly = Depends(require_admin)
