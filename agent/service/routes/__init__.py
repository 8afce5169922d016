"""The API's routes, one module per resource."""

from typing import Any

from agent.service.schemas import ErrorResponse

_COMMON_ERRORS = {
    400: "Malformed request (e.g. a body that is not JSON).",
    413: "Request body too large.",
    422: "A field is missing, has the wrong type or breaks its limits.",
    429: "Rate limited; see Retry-After.",
    503: "A dependency (database, search index) is unreachable; see Retry-After.",
}


def error_responses(not_found: str | None = None) -> dict[int | str, dict[str, Any]]:
    """The error responses of a route, for the OpenAPI docs (`not_found`: what 404 means)."""
    described = {**_COMMON_ERRORS, **({404: not_found} if not_found else {})}
    return {
        status: {"model": ErrorResponse, "description": description}
        for status, description in described.items()
    }
