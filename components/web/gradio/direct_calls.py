"""`DirectCallMiddleware`: a named endpoint called over plain HTTP is answered beside Gradio's queue, not through it, and
a plain call of any other name is refused.

Gradio answers `POST /gradio_api/call/NAME` by pushing an event on its queue and answering its id; the queue's
loop later runs the endpoint on a worker thread and holds the result until `GET /gradio_api/call/NAME/<id>`
streams it. For an endpoint that answers from memoised views in a fraction of a millisecond, that round trip
is nearly all of the call: a `/search` cost what a bare Gradio page's no-op costs (~10 ms on 2 cores,
`benchmarks/search_latency.py`). Here the POST runs the endpoint itself, on a worker thread, and keeps the
result; the GET answers it in one piece, the same `event: complete` with the same JSON Gradio would send.

Every plain call of a named endpoint is run here, once, whatever its body holds besides `data` (a
`session_hash`), and so is the `v2` form (`POST /gradio_api/call/v2/NAME`, the arguments by name). A refusal
answers Gradio's own error event for a `gr.Error` in the same words; a failure Gradio's `{"error": null}` and
one log line. Once it has answered, the call holds nothing but its result, weighed in `UnreadResults`'s budget. Handing
a call to Gradio's queue instead (as the first version did for a refusal, to run it again there) left its
input in the queue's event until someone read it, outside every budget: 900 refused 990 KB calls held 1.3 GB.
A plain call of a name that is no named endpoint (a page's private event included: the page calls those
through `queue/join`) is a 404 naming the endpoints; Gradio raised for an unknown name and answered 500.

Calls wait their turn for one of `DIRECT_CALLS` worker threads (a call with a large body for one of the
`LARGE_CALLS` of them, so that a burst of those never holds every slot), at most `QUEUE_SIZE` of them waiting (past it,
Gradio's own "queue is full" 503). What goes on to Gradio: a body that is not a JSON object with a `data` list
(Gradio's validation refuses it, holding nothing), and a read of an id this does not hold (Gradio's, or one
already read or expired: `patches/unread.py` answers those).

The caller's address (`Api.lookup`'s `asker`, for /wanted) is the one Gradio's request would give
(`endpoints.address_of`). gradio_client and MCP use other routes (`/gradio_api/queue/join`, `/gradio_api/mcp/`),
which this does not touch.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import re
import time
import uuid
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any

import anyio
import anyio.to_thread

from components.queries.api import NAMED, Api
from components.queries.argument_types import ASKER, MISSING, parameters
from components.queries.arguments import quoted
from components.queries.errors import ArgumentRefused
from components.runtime import logs, memory, settings
from components.sources.bounded import Bounded
from components.web.asgi import ASGIApp, Receive, Scope, Send, answer, read_body, relative_path, replay
from components.web.clients import client_address
from components.web.gradio.errors import REFUSALS, gradio_error

log = logging.getLogger(__name__)

CALL = re.compile(r"^/gradio_api/call/(v2/)?([^/]+)/?$")
READ = re.compile(r"^/gradio_api/call/(?:v2/)?[^/]+/([^/]+)/?$")
EMPTY = inspect.Parameter.empty
# What a plain call's body may hold besides its arguments (Gradio's `SimplePredictBody`); nothing here reads them.
NOT_ARGUMENTS = ("session_hash", "oauth_token")


class UnreadResults:
    """Results waiting to be read, oldest first: each read once, dropped after `seconds` unread, and the oldest
    dropped while all of them weigh over `budget` bytes. `weight` is what they hold; `dropped` counts those the
    budget pushed out since it was last reset."""

    def __init__(self, seconds: float = settings.UNREAD_AGE.value, budget: int = settings.UNREAD_BYTES.value,
                 clock: Callable[[], float] = time.monotonic):  # fmt: skip
        self.seconds, self.budget, self.clock = seconds, budget, clock
        # read only by `take` (a pop), so the least recently used is the oldest
        self.results: Bounded[bytes] = Bounded(max_bytes=budget, weigh=len, ttl=seconds, clock=clock)
        self.dropped = 0

    @property
    def weight(self) -> int:
        """What the kept results hold, in bytes."""
        return self.results.bytes

    def expire(self) -> int:
        """Drop what has waited `seconds`; how many were dropped."""
        return self.results.expire()

    def next_expiry(self) -> float | None:
        """Seconds until the oldest result expires (None when none is kept)."""
        oldest = self.results.oldest()
        return None if oldest is None else max(0.0, oldest.when + self.seconds - self.clock())

    def add(self, body: bytes) -> str:
        """Keep `body`, dropping the oldest while the budget would be exceeded; its event id. A body over the
        whole budget is kept as an error event saying so (holding it would push out every other result)."""
        self.expire()
        if len(body) > self.budget:
            too_large = f"the answer is {len(body):,} bytes, more than the {self.budget:,} unread results may hold"
            body = error_event({"error": too_large + " together; ask for fewer rows"})
        event_id = uuid.uuid4().hex
        self.dropped += self.results.put(event_id, body)  # the oldest dropped while the budget is passed
        return event_id

    def take(self, event_id: str) -> bytes | None:
        """The result kept under `event_id`, forgotten as it is read; None when none is (unknown or expired)."""
        self.expire()
        kept = self.results.pop(event_id)
        return None if kept is None else kept.value


def taken(fn: Callable[..., Any]) -> dict[str, Any]:
    """The arguments a caller gives `fn`, each with its default (`EMPTY` for none)."""
    signature = inspect.signature(fn).parameters
    return {name: signature[name].default for name in parameters(fn)}


def named(api: Api) -> dict[str, Callable[..., Any]]:
    """Each named endpoint's method on `api`, by its name (what `DirectCallMiddleware` answers)."""
    return {name: getattr(api, name) for name in NAMED}


def event(result: Any) -> bytes:
    """The result stream Gradio sends for a finished call of a one-output endpoint (`routes.simple_predict_get`)."""
    return f"event: complete\ndata: {json.dumps([result])}\n\n".encode()


def error_event(payload: dict[str, Any]) -> bytes:
    """The result stream Gradio sends for a call that raised: its error payload as it writes it."""
    return f"event: error\ndata: {json.dumps(payload)}\n\n".encode()


def refusal(refused: Exception) -> dict[str, Any]:
    """The error payload Gradio sends for the `gr.Error` an endpoint's refusal becomes (`endpoints.named_endpoint`),
    read from that `gr.Error` itself."""
    error = gradio_error(refused)
    return {"error": error.message, "duration": error.duration, "visible": error.visible, "title": error.title}


def arguments(body: bytes, name: str, taken: Mapping[str, Any], by_name: bool) -> list[Any] | None:
    """The values a plain call's body gives the endpoint `name`, one per argument of `taken` (each argument's name,
    and its default or `EMPTY`): `{"data": [...]}` (a short list is filled by `MissingArgumentsMiddleware`, in front), or with
    `by_name` (the `v2` form) `{ARGUMENT: value, ...}`, where an argument left out is its default, or `MISSING`'s
    marker (which the endpoint refuses, naming it). None for a body Gradio refuses itself; raises `ArgumentRefused` for
    values the endpoint does not take (too many, or an argument it does not have)."""
    try:
        call = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(call, dict):
        return None
    if by_name:
        given = {k: v for k, v in call.items() if k not in NOT_ARGUMENTS}
        unknown = [k for k in given if k not in taken]
        if unknown:
            raise ArgumentRefused(
                f"{name}: no argument named {quoted(unknown[0])}; it takes {', '.join(taken) or 'none'}"
            )
        return [given.get(k, {MISSING: k} if default is EMPTY else default) for k, default in taken.items()]
    data = call.get("data")
    if not isinstance(data, list):
        return None
    if len(data) > len(taken):
        raise ArgumentRefused(f"{name}: {len(taken)} arguments wanted, {len(data)} given")
    return data


class DirectCallMiddleware:
    """ASGI middleware: `POST /gradio_api/call/NAME` for one of `endpoints` runs it on a worker thread and keeps
    its answer for `GET /gradio_api/call/NAME/<id>`; any other NAME is a 404 (module doc)."""

    def __init__(self, app: ASGIApp, endpoints: Mapping[str, Callable[..., Any]], at_once: int = settings.DIRECT_CALLS.value,
                 kept: UnreadResults | None = None, waiting: int = settings.QUEUE_SIZE.value):  # fmt: skip
        self.app = app
        self.endpoints = {name: (fn, taken(fn), ASKER in inspect.signature(fn).parameters)
                          for name, fn in endpoints.items()}  # fmt: skip
        self.limiter = anyio.CapacityLimiter(at_once)
        # a large body is a few ms of parsing on a worker thread: a burst of them may hold only a few of the slots,
        # so a small call never waits in line behind them
        self.large = anyio.CapacityLimiter(min(settings.LARGE_CALLS.value, at_once))
        self.kept = kept if kept is not None else UnreadResults()
        self.waiting, self.most_waiting = 0, waiting
        self.sweeper: asyncio.Task[None] | None = None
        self.logged_at = float("-inf")  # when the budget's count line was last written
        self.listed = ", ".join(f"/{name}" for name in self.endpoints)

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
        if found is None:
            await self.app(scope, receive, send)
            return
        name = found.group(2)
        endpoint = self.endpoints.get(name)
        if endpoint is None:
            await answer(send, 404, f"no endpoint named {quoted(name)}; the named endpoints are {self.listed}")
            return
        body = await read_body(receive)
        if self.waiting >= self.most_waiting:
            detail = f"Queue is full. Max size is {self.most_waiting} and size is {self.waiting}."
            await respond(
                send, b"application/json", json.dumps({"detail": detail}).encode(), HTTPStatus.SERVICE_UNAVAILABLE
            )
            return
        self.waiting += 1
        try:
            result = await self.run(name, endpoint, body, bool(found.group(1)), scope)
        finally:
            self.waiting -= 1
        if result is None:
            await self.app(scope, replay(body, receive), send)
            return
        del body
        await self.keep(send, result)

    async def keep(self, send: Send, result: bytes) -> None:
        """Keep `result` for its reader and answer its event id."""
        event_id = self.kept.add(result)
        self.watch()
        await respond(send, b"application/json", json.dumps({"event_id": event_id}, separators=(",", ":")).encode())

    async def run(self, name: str, endpoint: tuple[Callable[..., Any], dict[str, Any], bool], body: bytes,
                  by_name: bool, scope: Scope) -> bytes | None:  # fmt: skip
        """The event stream that answers the call of `name` that `body` makes (its result, refusal or failure), or
        None for a body Gradio refuses itself. The body is read on the worker thread too: a ~1 MB one parsed on
        the event loop held every other caller up."""
        fn, taken, asks = endpoint
        kwargs = {ASKER: client_address(scope)} if asks else {}

        def call() -> bytes | None:
            try:
                values = arguments(body, name, taken, by_name)
                return None if values is None else event(fn(*values, **kwargs))
            except REFUSALS as refused:
                return error_event(refusal(refused))
            except Exception as exc:  # noqa: BLE001 - a failure: Gradio's answer, one line, the traceback at DEBUG
                log.error("/%s failed: %s", name, logs.clipped(repr(exc)))
                log.debug("the traceback", exc_info=True)
                return error_event({"error": None})

        if len(body) <= settings.LARGE_CALL_BODY.value:
            return await anyio.to_thread.run_sync(call, limiter=self.limiter)
        async with self.large:
            return await anyio.to_thread.run_sync(call, limiter=self.limiter)

    def watch(self) -> None:
        """Have the kept results expire on time even when no call comes after them (`sweep`)."""
        if self.sweeper is None or self.sweeper.done():
            self.sweeper = asyncio.get_running_loop().create_task(self.sweep())

    async def sweep(self) -> None:
        """While results are kept: drop each as it expires; log what the budget pushed out (a line a minute at
        most), and give freed memory back to the system (at most every `UNREAD_GIVE_BACK_EVERY` seconds, and once when
        the last is gone)."""
        gave_back_at = time.monotonic()
        freed = False
        while (wait := self.kept.next_expiry()) is not None:
            await asyncio.sleep(min(max(wait, 0.05), settings.UNREAD_GIVE_BACK_EVERY.value))
            freed = bool(self.kept.expire()) or freed
            now = time.monotonic()
            if self.kept.dropped and now - self.logged_at >= settings.UNREAD_LOG_EVERY.value:
                mb = self.kept.budget // 1024 // 1024
                log.warning("unread results over %d MB: dropped %d, oldest first, since the last line", mb,
                            self.kept.dropped)  # fmt: skip
                self.kept.dropped, self.logged_at = 0, now
            if freed and now - gave_back_at >= settings.UNREAD_GIVE_BACK_EVERY.value:
                await asyncio.to_thread(memory.give_back)
                freed, gave_back_at = False, now
        with contextlib.suppress(Exception):
            await asyncio.to_thread(memory.give_back)


async def respond(send: Send, content_type: bytes, body: bytes, status: HTTPStatus = HTTPStatus.OK) -> None:
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
