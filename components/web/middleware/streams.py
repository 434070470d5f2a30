"""Event streams that end, and a cap on how many one client holds open.

Gradio answers a few routes with a `text/event-stream` that lasts as long as the client keeps it: the
page's heartbeat (`/gradio_api/heartbeat/...`, one per open tab, for ever), the queue's results
(`/gradio_api/queue/data`, `/gradio_api/call/NAME/ID`, which send heartbeats while they wait) and MCP's
SSE transport. Nothing capped them: one client could hold thousands open. `EventStreamLimitMiddleware` counts the open
streams of each client and answers 429 past `STREAMS_PER_CLIENT`, and ends a result or MCP stream after
`STREAM_LIFETIME` seconds (a result takes seconds, not minutes). The page's own heartbeat is counted but never
ended: when it ends Gradio takes the tab as closed (it runs the unload events, closes the session's
pending events and drops its state an hour later), and the page does not reopen it.

The client is `clients.client_address`: the rightmost `X-Forwarded-For` hop no trusted proxy wrote (on a
Space, where every connection comes from Hugging Face's proxies, the visitor), else the connection's address.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter

from components.runtime import settings
from components.web.asgi import ASGIApp, Message, Receive, RefusalLog, Scope, Send, answer, relative_path
from components.web.clients import client_address

log = logging.getLogger(__name__)

HEARTBEAT = "/gradio_api/heartbeat/"  # the page's liveness: counted, not ended
STREAM_PREFIXES = ("/gradio_api/heartbeat/", "/gradio_api/queue/data", "/gradio_api/call/", "/gradio_api/mcp/sse")


def streams(scope: Scope) -> bool:
    """Whether this request is answered with an event stream (a GET to one of Gradio's streaming routes)."""
    if scope["type"] != "http" or scope["method"] != "GET":
        return False
    path = relative_path(scope)
    if path.startswith("/gradio_api/call/"):
        return path.count("/") >= 4  # /gradio_api/call/NAME/EVENT_ID
    return path.startswith(STREAM_PREFIXES)


class EventStreamLimitMiddleware:
    """ASGI middleware: at most `per_client` open event streams per client (429 past it), each ended after
    `lifetime` seconds."""

    def __init__(
        self,
        app: ASGIApp,
        per_client: int = settings.STREAMS_PER_CLIENT.value,
        lifetime: float = settings.STREAM_LIFETIME.value,
    ):
        self.app = app
        self.per_client = per_client
        self.lifetime = lifetime
        self.open: Counter[str] = Counter()
        self.refusals = RefusalLog(what="event streams", logger=log)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not streams(scope):
            await self.app(scope, receive, send)
            return
        client = client_address(scope)
        if self.open[client] >= self.per_client:
            self.refusals.refused(f"over {self.per_client} open streams from one client")
            await answer(send, 429, f"too many open event streams (at most {self.per_client} per client)")
            return
        self.open[client] += 1
        try:
            await self.bounded(scope, receive, send)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]

    async def bounded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app; past `lifetime` (a result or MCP stream), tell it the client left, end the response
        and stop it."""
        if relative_path(scope).startswith(HEARTBEAT):
            await self.app(scope, receive, send)
            return
        ended = asyncio.Event()
        started = finished = False

        async def guarded_receive() -> Message:
            # Gradio asks whether its client left every few tenths of a second per open stream, in a scope
            # already cancelled; racing two new tasks per ask cost the event loop more than any route under
            # a burst of tabs. A stream past its lifetime sees the disconnect at its next ask, and one
            # blocked in receive() is cancelled after `STREAM_GRACE`.
            if ended.is_set():
                return {"type": "http.disconnect"}
            return await receive()

        async def guarded_send(message: Message) -> None:
            nonlocal started, finished
            if ended.is_set():
                return  # the response was ended here
            started = started or message["type"] == "http.response.start"
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                finished = True
            await send(message)

        task = asyncio.ensure_future(self.app(scope, guarded_receive, guarded_send))
        try:
            done, _ = await asyncio.wait({task}, timeout=self.lifetime)
        except asyncio.CancelledError:
            task.cancel()  # this request itself was cancelled
            raise
        if done:
            task.result()
            return
        ended.set()
        with contextlib.suppress(Exception):  # the stream's own end, however it comes, is not an error
            await asyncio.wait_for(task, settings.STREAM_GRACE.value)  # cancels it if it has not stopped by then
        if not started:
            await answer(send, 504, f"no answer within {self.lifetime:g} s")
        elif not finished:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
