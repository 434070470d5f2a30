"""`JsonServerErrorMiddleware`: an exception that escapes a route becomes one log line and a JSON 500 (Starlette's
`ServerErrorMiddleware`, as this app wants it: Starlette's answers plain text and logs the whole traceback; the
status and words are `errors.INTERNAL`'s), and a body already begun is ended whole.

Gradio's routes raise on input they do not expect (`POST /gradio_api/call/NAME` with an unknown NAME,
`/gradio_api/queue/join` with an unknown `fn_index`), and each such call printed a 40-to-70-line traceback.
It stands near the top of the app's one list of middleware (`server.py`), so it sees what escapes every other.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse

from components.runtime.logs import clipped
from components.web.asgi import ASGIApp, Message, Receive, RefusalLog, Scope, Send, answer
from components.web.errors import INTERNAL

log = logging.getLogger(__name__)


class JsonServerErrorMiddleware:
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
            quoted = f"{method} {clipped(repr(path))} failed: {clipped(repr(exc))}"
            self.refusals.refused(quoted, f"{method} failing with {type(exc).__name__}")
            log.debug("the traceback", exc_info=True)
            if not started:
                await answer(send, *INTERNAL, close=False)
            elif not finished:
                # the answer began (an event stream that raised after its `error` event, as Gradio's reads of an
                # unknown result do): ended here, whole, rather than cut (a broken body, one more log line)
                with contextlib.suppress(Exception):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def internal_error(request: Any, exc: Exception) -> JSONResponse:
    """The answer of a Starlette app whose route raised (its `exception_handlers[Exception]`): the same
    500 `JsonServerErrorMiddleware` gives. The app goes on to raise `exc`, which `JsonServerErrorMiddleware`, outside, logs."""
    return JSONResponse({"error": INTERNAL[1]}, status_code=INTERNAL[0])
