"""Every failure becomes `{"error": {"code", "message"}}` with the right status, in one place.

Routes, dependencies and the parts they use raise the domain's own exceptions (an unknown
session, a rate limit, an ingest engine that is down...); this module decides what each means
over HTTP: status, code, message and headers. Only the edge (routes and `deps`) raises
`ApiError` directly, for what is HTTP's own business (a missing token, a 404 of a route).
Nothing reaches a client as a traceback: an unexpected error is logged here and answered 500.
"""

import logging
from http import HTTPStatus
from typing import Any

import httpx
import psycopg
import psycopg_pool
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse
from starlette.exceptions import HTTPException

from agent.conversations.feedback import FeedbackTargetError
from agent.conversations.sessions import UnknownSessionError
from agent.inputs import InvalidTurnError
from agent.retrieval.search import BookNotIngestedError, UnknownBookError
from agent.service.github import MalformedPayloadError, PayloadNotObjectError
from agent.service.ingest_queue import IngestDisabledError, IngestUnavailableError
from agent.service.rate_limits import RateLimitedError
from core.database import DatabaseUnavailableError
from core.store import StoreLockedError

log = logging.getLogger("bookrag.service")

DATABASE_ERRORS = (
    DatabaseUnavailableError,
    psycopg.OperationalError,
    psycopg_pool.PoolTimeout,
    psycopg_pool.PoolClosed,
)
VECTOR_STORE_ERRORS = (
    ResponseHandlingException,
    UnexpectedResponse,
    httpx.TransportError,
    StoreLockedError,
)


class ApiError(Exception):
    """An error the API answers with a status, a stable code and a message for people."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The API's error body."""
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def as_api_error(error: BaseException) -> ApiError:
    """What an exception means for a client."""
    if isinstance(error, ApiError):
        return error
    if isinstance(error, UnknownSessionError):
        return ApiError(404, "unknown_session", str(error))
    if isinstance(error, FeedbackTargetError):
        return ApiError(404, "unknown_message", str(error))
    if isinstance(error, InvalidTurnError):
        return ApiError(422, "invalid_turn", str(error))
    if isinstance(error, RateLimitedError):
        message = f"too many requests from {error.who}; retry in {error.retry_after} s"
        return ApiError(429, "rate_limited", message, {"Retry-After": str(error.retry_after)})
    if isinstance(error, UnknownBookError):
        return ApiError(404, "unknown_book", str(error))
    if isinstance(error, BookNotIngestedError):
        return ApiError(503, "not_ingested", str(error), {"Retry-After": "30"})
    if isinstance(error, IngestDisabledError):
        return ApiError(503, "ingest_disabled", str(error))
    if isinstance(error, IngestUnavailableError):
        return ApiError(503, "ingest_unavailable", str(error))
    if isinstance(error, MalformedPayloadError):
        return ApiError(400, "malformed_json", str(error))
    if isinstance(error, PayloadNotObjectError):
        return ApiError(422, "invalid_request", str(error))
    if isinstance(error, DATABASE_ERRORS):
        return _unavailable("database_unavailable", "the conversation database", error)
    if isinstance(error, VECTOR_STORE_ERRORS):
        return _unavailable("vector_store_unavailable", "the book's search index", error)
    log.error("unexpected error", exc_info=error)
    return ApiError(500, "internal_error", "an unexpected error occurred; it has been logged")


def _unavailable(code: str, what: str, error: BaseException) -> ApiError:
    log.warning("%s: %s", code, error)
    message = f"{what} is unreachable right now; try again shortly"
    return ApiError(503, code, message, {"Retry-After": "5"})


def _validation_message(errors: list[Any]) -> tuple[str, str]:
    first = errors[0] if errors else {}
    if not isinstance(first, dict):  # LangServe reports an unreadable body as a plain string
        return "malformed_json", f"the request body is not valid JSON: {first}"
    if first.get("type") == "json_invalid":
        return "malformed_json", "the request body is not valid JSON"
    where = _field(first) or "body"
    fields = {_field(error) for error in errors if isinstance(error, dict)}
    more = f" (and {len(fields) - 1} more problems)" if len(fields) > 1 else ""
    problem = str(first.get("msg", "invalid value")).removeprefix("Value error, ")
    return "invalid_request", f"{where}: {problem}{more}"


def _field(error: dict[str, Any]) -> str:
    """Where an error is, as a client names it: `filters.hardware_tier`, not pydantic's union
    branches (`constrained-int`, `function-after[...]`) or the `body` root."""
    parts = list(error.get("loc", ()))
    if parts[:1] == ["body"]:
        parts = parts[1:]
    return ".".join(str(p) for p in parts if isinstance(p, int) or str(p).isidentifier())


async def _on_validation(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    code, message = _validation_message(list(error.errors()))
    return error_response(400 if code == "malformed_json" else 422, code, message)


async def _on_http(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    return http_error_response(error)


def http_error_response(error: HTTPException) -> JSONResponse:
    """An HTTP error (raised by Starlette or a middleware) in the API's error shape."""
    status = HTTPStatus(error.status_code)
    code = status.phrase.lower().replace(" ", "_").replace("-", "_")
    message = error.detail if isinstance(error.detail, str) else status.description
    headers = dict(error.headers) if error.headers else None
    return error_response(error.status_code, code, message, headers)


async def _on_any(_: Request, error: Exception) -> JSONResponse:
    api = as_api_error(error)
    return error_response(api.status, api.code, api.message, api.headers)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every error of `app` in the API's error shape.

    Known errors get their own handler so Starlette treats them as answered, not as crashes;
    `Exception` is the last resort (Starlette still logs it as a server error).
    """
    known = (
        ApiError,
        UnknownSessionError,
        FeedbackTargetError,
        InvalidTurnError,
        RateLimitedError,
        BookNotIngestedError,
        UnknownBookError,
        IngestDisabledError,
        IngestUnavailableError,
        MalformedPayloadError,
        PayloadNotObjectError,
        *DATABASE_ERRORS,
        *VECTOR_STORE_ERRORS,
    )
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(HTTPException, _on_http)
    for kind in (*known, Exception):
        app.add_exception_handler(kind, _on_any)
