"""Results no one reads are dropped a minute after they are ready, or sooner when they hold too much.

`POST /gradio_api/call/NAME` queues a call and answers its event id; the result waits in Gradio's queue
until `GET /gradio_api/call/NAME/<id>` reads it. A caller that never reads leaves it there: Gradio keeps
the messages of its last 2,000 sessions, and each plain HTTP call is a session of its own, so an
all-rows `/search` (~0.6 MB of JSON at 2,000 rows a stack) left unread 400 times grew RSS by ~370 MB,
and 2,000 such calls at 10,000 rows a stack would hold gigabytes. Every `UNREAD_SWEEP_EVERY` seconds, a
session whose every event has finished is weighed once (the JSON bytes of its results) and dropped when it
has waited `UNREAD_AGE` unread, or, oldest first, while all those waiting weigh over what `UNREAD_BYTES`
leaves once the plain calls' kept results are counted (`direct_calls.UnreadResults`: one budget for every unread result);
one log line a minute counts the latter. Plain calls no longer reach the queue (`direct_calls.py`), so what this
sweeps is the results of `queue/join` calls (a page's events, gradio_client, MCP) that no one read. A browser tab reads its results as they come (its stream removes
each one), so only abandoned results go. After a sweep that dropped results, the allocators' free pages go
back to the system (`runtime/memory.py`), at most once per `UNREAD_GIVE_BACK_EVERY` seconds.

A read of a result Gradio does not hold (an unknown event id, a result already read or dropped) made
Gradio raise inside its event stream: the caller got a broken stream and the log two tracebacks per
call, a log flood for anyone. `UnknownResultMiddleware` answers those reads itself, with the same message and
no traceback.

Both read the queue's own dicts (`queueing.Queue`: the pending events of each session, their messages, the
running events) and the sweep drops entries under the queue's own locks. `PATCH` checks the queue still
sets them and that the routes read still exist; where not, neither runs (`in_force()` is False) and Gradio
answers as it would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

import orjson
from gradio import queueing, routes

from components.runtime import memory, settings
from components.web.gradio.errors import PatchMismatch
from components.web.gradio.patches.guard import Patch, apply_patch, need, need_assigned, source_of

log = logging.getLogger(__name__)

CALL_RESULT = re.compile(r"^/gradio_api/call/(?:v2/)?[^/]+/([^/]+)/?$")
QUEUE_DATA = "/gradio_api/queue/data"
NO_RESULT = (
    "no result for this event id: unknown, already read, or expired (a result is kept unread for a minute at"
    " most, and the oldest go sooner when unread results hold too much memory)"
)
# What Gradio's queue sets in its __init__ and the sweep reads, pops or locks.
QUEUE_ATTRIBUTES = ("event_ids_to_events", "pending_event_ids_session", "pending_messages_per_session")
QUEUE_LOCKS = ("pending_message_lock", "delete_lock")
ROUTES = ('"/call/{api_name}/{event_id}"', '"/queue/data"')


def check() -> None:
    if not hasattr(asyncio.Queue(), "_queue"):  # where a session's messages are weighed
        raise PatchMismatch("asyncio.Queue no longer keeps its items in _queue")
    need(queueing, "Queue.__init__")
    need_assigned(queueing.Queue.__init__, *QUEUE_ATTRIBUTES, *QUEUE_LOCKS)
    need(routes, "App.create_app")
    source = source_of(routes.App.create_app)
    for route in ROUTES:
        if route not in source:
            raise PatchMismatch(f"Gradio no longer has the route {route}")


PATCH = Patch("unread", check, lambda: True)  # applied by the middleware and the sweep, which `limits.py` installs
DECIDED: dict[str, bool] = {}  # once per process, for the Gradio installed: no answer of a data moment


def in_force() -> bool:
    """Whether the sweep and `UnknownResultMiddleware` act: decided (and, standing down, logged) once per process."""
    if "on" not in DECIDED:
        DECIDED["on"] = apply_patch(PATCH)
    return DECIDED["on"]


@dataclass
class Waiting:
    """A session whose events have all finished and whose results no one has read yet."""

    since: float
    size: int  # the JSON bytes of its results, weighed once


def result_bytes(messages: Any) -> int:
    """The JSON bytes of the messages in a session's queue (an `asyncio.Queue` of Gradio's messages)."""
    total = 0
    for message in list(getattr(messages, "_queue", ())):
        output = getattr(message, "output", None)
        try:
            total += len(orjson.dumps(output, default=str, option=orjson.OPT_NON_STR_KEYS))
        except (TypeError, orjson.JSONEncodeError):  # not JSON at all: its text, a lower bound
            total += len(str(output))
    return total


def forget_unread(
    queue: Any,
    waiting: dict[str, Waiting],
    now: float,
    unread_seconds: float = settings.UNREAD_AGE.value,
    budget: int = settings.UNREAD_BYTES.value,
) -> tuple[int, int]:
    """One sweep over Gradio's queue: weigh each session whose events have all finished and whose results
    wait unread (`waiting` remembers since when, and their weight, between sweeps); drop those that have
    waited `unread_seconds`, then the oldest while those left weigh over `budget`. Returns how many were
    dropped as (expired, over the budget)."""
    running = queue.event_ids_to_events  # queued or running events; a finished one is removed
    sessions = queue.pending_event_ids_session  # events whose completion no one has read yet
    messages = queue.pending_messages_per_session
    for session in [s for s in waiting if s not in sessions]:  # read since
        del waiting[session]
    for session, ids in list(sessions.items()):
        if not ids or any(event_id in running for event_id in ids):
            waiting.pop(session, None)
        elif session not in waiting:
            waiting[session] = Waiting(now, result_bytes(messages.get(session)))
    expired = [s for s, w in waiting.items() if now - w.since >= unread_seconds]
    held = sum(w.size for s, w in waiting.items()) - sum(waiting[s].size for s in expired)
    over = []
    for session, wait in waiting.items():  # oldest first: the order they were first seen waiting
        if held <= budget:
            break
        if now - wait.since < unread_seconds:
            over.append(session)
            held -= wait.size
    for session in expired + over:
        sessions.pop(session, None)
        messages.pop(session, None)
        del waiting[session]
    return len(expired), len(over)


async def sweep_forever(get_queue: Callable[[], Any], held_elsewhere: Callable[[], int] = lambda: 0) -> None:
    """Sweep the queue `get_queue()` answers every `UNREAD_SWEEP_EVERY` seconds, for as long as the app runs, within what
    `UNREAD_BYTES` leaves past `held_elsewhere()` (the unread results the app keeps itself)."""
    waiting: dict[str, Waiting] = {}
    over_budget, logged_at, gave_back_at, dropped_since = 0, float("-inf"), float("-inf"), False
    while True:
        await asyncio.sleep(settings.UNREAD_SWEEP_EVERY.value)
        queue = get_queue()
        if queue is None:
            continue
        now = time.monotonic()
        # the locks under which Gradio adds a session's entries and removes its events
        async with queue.pending_message_lock, queue.delete_lock:
            budget = max(0, settings.UNREAD_BYTES.value - held_elsewhere())
            expired, over = forget_unread(queue, waiting, now, settings.UNREAD_AGE.value, budget)
        over_budget += over
        dropped_since = dropped_since or bool(expired or over)
        if over_budget and now - logged_at >= settings.UNREAD_LOG_EVERY.value:
            mb = settings.UNREAD_BYTES.value // 1024 // 1024
            log.warning("unread results over %d MB: dropped %d, oldest first, since the last line", mb, over_budget)
            over_budget, logged_at = 0, now
        if dropped_since and now - gave_back_at >= settings.UNREAD_GIVE_BACK_EVERY.value:
            await asyncio.to_thread(memory.give_back)
            dropped_since, gave_back_at = False, now


@contextlib.asynccontextmanager
async def lifespan(app: Any, held_elsewhere: Callable[[], int] = lambda: 0) -> AsyncIterator[None]:
    """A FastAPI lifespan that sweeps the queue of the Gradio app `app` while it serves (`sweep_forever`)."""
    if not in_force():
        yield
        return
    task = asyncio.create_task(sweep_forever(lambda: gradio_queue(app), held_elsewhere))
    try:
        yield
    finally:
        task.cancel()


class UnknownResultMiddleware:
    """ASGI middleware: a read of a result (`GET /gradio_api/call/NAME/ID`) or of a session's stream
    (`GET /gradio_api/queue/data`) that Gradio's queue does not hold is answered here, as Gradio would
    (an `error` event), without the exception Gradio raises inside the stream."""

    def __init__(self, app: Any):
        self.app = app
        self.active = in_force()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        queue = None
        if self.active and scope["type"] == "http" and scope["method"] == "GET":
            queue = gradio_queue(scope.get("app"))
        if queue is not None:
            path = scope["path"].removeprefix(scope.get("root_path", "")) or "/"
            result = CALL_RESULT.match(path)
            if result and session_of(queue, result.group(1)) not in queue.pending_messages_per_session:
                await event_stream(send, f"event: error\ndata: {json.dumps(NO_RESULT)}\n\n")
                return
            if path == QUEUE_DATA:
                session = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("session_hash", [None])[0]
                if session is not None and session not in queue.pending_messages_per_session:
                    gone: dict[str, object] = {"msg": "unexpected_error", "event_id": None, "message": "404: Not Found"}
                    gone |= {"session_not_found": True, "success": False}
                    await event_stream(send, f"data: {json.dumps(gone)}\n\n")
                    return
        await self.app(scope, receive, send)


def gradio_queue(app: Any) -> Any:
    """The queue of the Gradio app `app` (None for another app, or before Gradio made its queue)."""
    get_blocks = getattr(app, "get_blocks", None)
    return getattr(get_blocks(), "_queue", None) if get_blocks is not None else None


def session_of(queue: Any, event_id: str) -> str:
    """The session whose messages hold the event's result, found as Gradio's own route finds it."""
    event = queue.event_ids_to_events.get(event_id)
    if event is not None:
        return event.session_hash
    return next((s for s, ids in list(queue.pending_event_ids_session.items()) if event_id in ids), event_id)


async def event_stream(send: Callable, text: str) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
