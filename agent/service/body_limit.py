"""Request body size: checked before the body is read, answered 413 in the API's error shape."""

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agent.service.errors import error_response


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
