"""`DirectCalls`: a named endpoint called over plain HTTP is answered beside Gradio's queue, not through it.

Gradio answers `POST /gradio_api/call/NAME` by pushing an event on its queue and answering its id; the queue's
loop later runs the endpoint on a worker thread and holds the result until `GET /gradio_api/call/NAME/<id>`
streams it. For an endpoint that answers from memoised views in a fraction of a millisecond, that round trip
is nearly all of the call: a `/search` cost what a bare Gradio page's no-op costs (~10 ms on 2 cores,
`benchmarks/search_latency.py`). Here the POST runs the endpoint itself, on a worker thread, and keeps the
result; the GET answers it in one piece, the same `event: complete` with the same JSON Gradio would send.

Everything else goes on to Gradio, which answers as it always has:
- a body other than exactly `{"data": [...]}` with one value per argument (a `session_hash`, say);
- a call the endpoint refuses or fails: Gradio runs it again and answers its own error event, so an error
  reads the same both ways (the refusals come before any side effect, see `Api.lookup`);
- a call while `DIRECT_CALLS` are already running (the queue takes it, in turn), or while the results kept
  unread weigh over `UNREAD_BYTES`;
- a read of an id this does not hold (Gradio's, or one already read or expired: `patches/unread.py`).

A result is read once, and kept unread for `UNREAD_SECONDS` at most, as Gradio's are (`patches/unread.py`).
The caller's address (`Api.lookup`'s `asker`, for /wanted) is the one Gradio's request would give
(`endpoints.address_of`). gradio_client and MCP use other routes (`/gradio_api/queue/join`, `/gradio_api/mcp/`),
which this does not touch.
"""

from __future__ import annotations

import inspect
import json
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import anyio
import anyio.to_thread

from components.queries.api import NAMED, Api
from components.queries.argument_types import ASKER, parameters
from components.runtime import settings
from components.web.asgi import ASGIApp, Receive, Scope, Send, read_body, relative_path
from components.web.clients import client_address
from components.web.middleware.limits import replay

CALL = re.compile(r"^/gradio_api/call/([^/]+)/?$")
READ = re.compile(r"^/gradio_api/call/(?:v2/)?[^/]+/([^/]+)/?$")
DIRECT_CALLS = settings.DIRECT_CALLS.value
UNREAD_SECONDS = settings.UNREAD_AGE.value
UNREAD_BYTES = settings.UNREAD_BYTES.value


class Kept:
    """Results waiting to be read, oldest first: each read once, dropped after `seconds` unread; `add` refuses
    one that would take all of them over `budget` bytes."""

    def __init__(self, seconds: float = UNREAD_SECONDS, budget: int = UNREAD_BYTES,
                 clock: Callable[[], float] = time.monotonic):  # fmt: skip
        self.seconds, self.budget, self.clock = seconds, budget, clock
        self.results: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self.weight = 0

    def _expire(self) -> None:
        now = self.clock()
        while self.results:
            event_id, (since, body) = next(iter(self.results.items()))
            if now - since < self.seconds:
                return
            del self.results[event_id]
            self.weight -= len(body)

    def add(self, body: bytes) -> str | None:
        """Keep `body`; its event id, or None when it does not fit the budget."""
        self._expire()
        if self.weight + len(body) > self.budget:
            return None
        event_id = uuid.uuid4().hex
        self.results[event_id] = (self.clock(), body)
        self.weight += len(body)
        return event_id

    def take(self, event_id: str) -> bytes | None:
        """The result kept under `event_id`, forgotten as it is read; None when none is (unknown or expired)."""
        self._expire()
        kept = self.results.pop(event_id, None)
        if kept is None:
            return None
        self.weight -= len(kept[1])
        return kept[1]


def named(api: Api) -> dict[str, Callable[..., Any]]:
    """Each named endpoint's method on `api`, by its name (what `DirectCalls` answers)."""
    return {name: getattr(api, name) for name in NAMED}


def event(result: Any) -> bytes:
    """The result stream Gradio sends for a finished call of a one-output endpoint (`routes.simple_predict_get`)."""
    return f"event: complete\ndata: {json.dumps([result])}\n\n".encode()


def arguments(body: bytes, wanted: int) -> list[Any] | None:
    """The values of a `{"data": [...]}` body holding exactly `wanted` of them; None for any other body."""
    try:
        call = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(call, dict) or call.keys() != {"data"}:
        return None
    data = call["data"]
    return data if isinstance(data, list) and len(data) == wanted else None


class DirectCalls:
    """ASGI middleware: `POST /gradio_api/call/NAME` for one of `endpoints` runs it on a worker thread and keeps
    its result for `GET /gradio_api/call/NAME/<id>`; what it cannot answer goes on to Gradio (module doc)."""

    def __init__(self, app: ASGIApp, endpoints: Mapping[str, Callable[..., Any]], at_once: int = DIRECT_CALLS,
                 kept: Kept | None = None):  # fmt: skip
        self.app = app
        self.endpoints = {
            name: (fn, len(parameters(fn)), ASKER in inspect.signature(fn).parameters) for name, fn in endpoints.items()
        }
        self.limiter = anyio.CapacityLimiter(at_once)
        self.kept = kept or Kept()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "POST"):
            await self.app(scope, receive, send)
            return
        path = relative_path(scope)
        if scope["method"] == "GET":
            read = READ.match(path)
            body = self.kept.take(read.group(1)) if read else None
            if body is None:
                await self.app(scope, receive, send)
                return
            await respond(send, b"text/event-stream; charset=utf-8", body)
            return
        found = CALL.match(path)
        endpoint = self.endpoints.get(found.group(1)) if found else None
        if endpoint is None:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        if body is None:
            return
        event_id = await self.run(endpoint, body, scope)
        if event_id is None:
            await self.app(scope, replay(body, receive), send)
            return
        await respond(send, b"application/json", json.dumps({"event_id": event_id}, separators=(",", ":")).encode())

    async def run(self, endpoint: tuple[Callable[..., Any], int, bool], body: bytes, scope: Scope) -> str | None:
        """Run the call `body` asks for and keep its result: the event id, or None to leave it to Gradio."""
        fn, wanted, asks = endpoint
        values = arguments(body, wanted)
        if values is None or self.limiter.borrowed_tokens >= self.limiter.total_tokens:
            return None
        kwargs = {ASKER: client_address(scope)} if asks else {}

        def call() -> bytes | None:
            try:
                return event(fn(*values, **kwargs))
            except Exception:  # a refusal or a failure: Gradio runs it and answers its own error event
                return None

        result = await anyio.to_thread.run_sync(call, limiter=self.limiter)
        return self.kept.add(result) if result is not None else None


async def respond(send: Send, content_type: bytes, body: bytes) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
