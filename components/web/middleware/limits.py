"""A size limit on every request body, enforced before the body is read whole.

Gradio's `max_file_size` covers only its upload route: without this, one 200 MB JSON body to
`/gradio_api/call/search` was read, parsed and answered (RSS 339 → 947 MB). `BodyLimit` is a plain
ASGI middleware in front of every route (Gradio's, MCP's and the app's own): a body whose
`Content-Length` is over the limit is refused at once, unread; a body sent without a length (chunked)
is read into a buffer of at most the limit and handed on whole, or refused as soon as it passes it; a
request with both headers is refused (400), since the server reads the chunks, not the length; and the
bytes that arrive are counted whatever the headers say.
`OneLineErrors` turns an exception that escapes a route into one log line (and a body already begun is
ended whole): Gradio's routes raise on
input they do not expect (`POST /gradio_api/call/NAME` with an unknown NAME, `/gradio_api/queue/join`
with an unknown `fn_index`), and each such call printed a 40-to-70-line traceback.
Both stand in the app's one list of middleware (`server.py`), in front of every route.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse

from components.runtime import settings
from components.runtime.settings import KB, MB
from components.web.asgi import ASGIApp, Message, Receive, RefusalLog, Scope, Send, answer, read_body, relative_path
from components.web.routes import webhook

log = logging.getLogger(__name__)

# The endpoints take a few short strings; MCP messages and Gradio's queue calls are a few KB.
DEFAULT_LIMIT = settings.REQUEST_BODY.value
# A Hub webhook payload is a few KB (the route also checks its own limit, wherever it is mounted).
PATH_LIMITS = {webhook.PATH: webhook.MAX_BODY}


def describe(limit: int) -> str:
    """`64 KB`, `1 MB`: a limit as the README and the 413 answer say it."""
    if limit % MB == 0:
        return f"{limit // MB} MB"
    return f"{limit // KB} KB" if limit % KB == 0 else f"{limit} bytes"


class BodyLimit:
    """ASGI middleware: refuse any request body over `default` bytes (or `per_path[path]`) with 413."""

    def __init__(self, app: ASGIApp, default: int = DEFAULT_LIMIT, per_path: Mapping[str, int] | None = None):
        self.app = app
        self.default = default
        self.per_path = dict(PATH_LIMITS if per_path is None else per_path)

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


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands the buffered body on in one message, then waits as the server's would."""
    sent = False

    async def wrapped() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return wrapped


async def refuse(send: Send, limit: int) -> None:
    """413 with a short JSON error; the connection is closed, so the rest of the body is never read."""
    await answer(send, 413, f"request body over {describe(limit)}")


class OneLineErrors:
    """ASGI middleware: an exception escaping the app is answered 500 `{"error": "internal error"}` (when no
    answer has started) and logged as one line naming the request and the exception (a few a minute, then
    a count); the traceback goes to the DEBUG level."""

    def __init__(self, app: ASGIApp):
        self.app = app
        # a flood of failing calls (an unknown endpoint, asked 1,000 times) is a few lines a minute, then a count
        self.refusals = RefusalLog(what="routes", logger=log, level=logging.ERROR, line="%s%s")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = finished = False

        async def watched(message: Message) -> None:
            nonlocal started, finished
            started = started or message["type"] == "http.response.start"
            finished = finished or (message["type"] == "http.response.body" and not message.get("more_body", False))
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except ClientDisconnect:
            return  # the client left, or was cut at the request deadline (counted there): no one to answer, no error
        except Exception as exc:  # noqa: BLE001 - any exception: one line, not a traceback
            method, path = scope.get("method"), scope.get("path")
            self.refusals.refused(f"{method} {path!r} failed: {exc!r}", f"{method} failing with {type(exc).__name__}")
            log.debug("the traceback", exc_info=True)
            if not started:
                await answer(send, 500, "internal error", close=False)
            elif not finished:
                # the answer began (an event stream that raised after its `error` event, as Gradio's reads of an
                # unknown result do): ended here, whole, rather than cut (a broken body, one more log line)
                with contextlib.suppress(Exception):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def internal_error(request: Any, exc: Exception) -> JSONResponse:
    """The answer of a Starlette app whose route raised (its `exception_handlers[Exception]`): the same
    500 `OneLineErrors` gives. The app goes on to raise `exc`, which `OneLineErrors`, outside, logs."""
    return JSONResponse({"error": "internal error"}, status_code=500)
