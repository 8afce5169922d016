"""JSON bodies are checked before anything parses them: valid UTF-8, nested no deeper than a
limit, numbers a parser can hold. A body that fails is a 400 saying why, so no route (the
LangServe ones included) ever meets a body that makes its parser recurse to death or raise
something unexpected.
"""

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agent.service.errors import error_response, http_error_response

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects a request may have (ours need 4)."""


class JsonGuard:
    """ASGI middleware: a JSON request body that is not sound is answered 400 before routing.

    It reads the body (the body-size middleware, outside this one, has capped it) and hands the
    same bytes on. `skip` paths (the webhook, whose signature covers raw bytes and which must
    not be buffered before it is authenticated) are passed through untouched.
    """

    def __init__(self, app: ASGIApp, skip: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.skip = skip

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _json_request(scope) or scope["path"] in self.skip:
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            try:
                message = await receive()
            except HTTPException as error:  # the body-size cap, counted outside this middleware
                await http_error_response(error)(scope, receive, send)
                return
            if message["type"] != "http.request":
                await self.app(scope, _replay(b"", message, receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        problem = json_problem(body)
        if problem is not None:
            await error_response(400, "malformed_json", problem)(scope, receive, send)
            return
        await self.app(scope, _replay(body, None, receive), send)


def json_problem(body: bytes) -> str | None:
    """What is wrong with a JSON request body, or None when it is sound."""
    if not body:
        return None  # routes that need a body say so themselves
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"the request body is not valid UTF-8 (byte {error.start})"
    if nesting_depth(text) > MAX_DEPTH:
        return f"the request body is nested deeper than {MAX_DEPTH} levels"
    try:
        json.loads(text)
    except ValueError as error:  # bad syntax, or a number too long to convert
        return f"the request body is not valid JSON: {error}"
    return None


def nesting_depth(text: str) -> int:
    """The deepest nesting of `[`/`{` in JSON text (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _json_request(scope: Scope) -> bool:
    if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
        return False
    content_type = dict(scope["headers"]).get(b"content-type", b"")
    return b"json" in content_type.lower()


def _replay(body: bytes, pending: Message | None, receive: Receive) -> Receive:
    """A `receive` that gives the app the body already read, then what comes next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return pending or {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
