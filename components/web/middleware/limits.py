"""A size limit on every request body, enforced before the body is read whole.

Gradio's `max_file_size` covers only its upload route: without this, one 200 MB JSON body to
`/gradio_api/call/search` was read, parsed and answered (RSS 339 → 947 MB). `BodySizeLimitMiddleware` is a plain
ASGI middleware in front of every route (Gradio's, MCP's and the app's own): a body whose
`Content-Length` is over the limit is refused at once, unread; a body sent without a length (chunked)
is read into a buffer of at most the limit and handed on whole, or refused as soon as it passes it; a
request with both headers is refused (400), since the server reads the chunks, not the length; and the
bytes that arrive are counted whatever the headers say. It stands in the app's one list of middleware
(`server.py`), in front of every route, which also gives it the limits of particular paths (the webhook's).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from components.runtime import settings
from components.runtime.settings import KB, MB
from components.web.asgi import ASGIApp, Message, Receive, Scope, Send, answer, read_body, relative_path, replay

log = logging.getLogger(__name__)


def describe(limit: int) -> str:
    """`64 KB`, `1 MB`: a limit as the README and the 413 answer say it."""
    if limit % MB == 0:
        return f"{limit // MB} MB"
    return f"{limit // KB} KB" if limit % KB == 0 else f"{limit} bytes"


class BodySizeLimitMiddleware:
    """ASGI middleware: refuse any request body over `default` bytes (or `per_path[path]`) with 413.

    Starlette (from 1.6) ships `RequestBodyLimitMiddleware`, which this does not use: it answers a plain-text
    413 `Content Too Large` and keeps the connection, where every answer here is JSON (`{"error": "request body
    over 64 KB"}`, which callers and tests read) closed unread; it lets a request with both length headers through
    (refused 400 here) and reads a chunked body on the route's time, not before it (a route behind it that never
    reads is never refused)."""

    def __init__(
        self, app: ASGIApp, default: int = settings.REQUEST_BODY.value, per_path: Mapping[str, int] | None = None
    ):
        self.app = app
        self.default = default
        self.per_path = dict(per_path or {})

    def limit_for(self, scope: Scope) -> int:
        return self.per_path.get(relative_path(scope).rstrip("/") or "/", self.default)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope)
        headers = {k.lower(): v for k, v in scope.get("headers", ())}
        declared = headers.get(b"content-length")
        if declared is not None and b"transfer-encoding" in headers:
            # The server reads the chunked body and ignores the length (RFC 9112 §6.3): the length this
            # check would trust is not what arrives, so the request is refused, as §6.3 allows.
            await answer(send, 400, "Content-Length and Transfer-Encoding together")
            return
        if declared is not None:
            if not declared.strip().isdigit() or int(declared) > limit:
                await refuse(send, limit)
                return
            # the server delivers no more than the declared length; counted all the same
            await self.app(scope, counted(receive, limit), send)
            return
        if b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # no body (a GET, a HEAD)
            return
        body = await read_body(receive, limit)
        if body is None:
            await refuse(send, limit)
            return
        await self.app(scope, replay(body, receive), send)


def counted(receive: Receive, limit: int) -> Receive:
    """A `receive` that counts the body bytes that actually arrive and, past `limit`, tells the app the client
    went away (whatever the headers claimed)."""
    received = 0

    async def wrapped() -> Message:
        nonlocal received
        message = await receive()
        received += len(message.get("body", b""))
        if received > limit:
            log.warning("refused a body longer than its Content-Length (%d bytes arrived)", received)
            return {"type": "http.disconnect"}
        return message

    return wrapped


async def refuse(send: Send, limit: int) -> None:
    """413 with a short JSON error; the connection is closed, so the rest of the body is never read."""
    await answer(send, 413, f"request body over {describe(limit)}")
