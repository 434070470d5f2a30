"""What the app's routes and middleware share at the ASGI level: the types, the path a request asked for,
the one body reader, a short JSON answer, and the log of refused calls.

Each is written once here; `middleware/` and `routes/` import them.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, overload

from starlette.requests import ClientDisconnect

from components.runtime import settings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger(__name__)


def relative_path(scope: Scope) -> str:
    """The path asked for, without the `root_path` the app is served under (`/` for an empty one)."""
    path, root = scope.get("path", ""), scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    return path or "/"


@overload
async def read_body(receive: Receive) -> bytes: ...
@overload
async def read_body(receive: Receive, limit: int) -> bytes | None: ...
async def read_body(receive: Receive, limit: int | None = None) -> bytes | None:
    """The whole request body, or (with `limit`) None as soon as it passes `limit` bytes; raises Starlette's
    `ClientDisconnect` when the client goes away first, as `Request.stream()` does (`JsonServerErrorMiddleware`
    takes that as no one to answer). The app's one body reader: the middleware and the routes that read a body
    (`/api/v1`'s posted config, the webhook) call it. A middleware behind `BodySizeLimitMiddleware` reads without
    a limit: that one has bounded the body."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        body += message.get("body", b"")
        if limit is not None and len(body) > limit:
            return None
        if not message.get("more_body", False):
            return bytes(body)


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that hands a body already read on in one message, then waits as the server's would."""
    sent = False

    async def wrapped() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return wrapped


async def answer(send: Send, status: int, error: str, close: bool = True) -> None:
    """`status` with `{"error": error}`; `close`: the connection is closed, so a body not read stays unread."""
    content = json.dumps({"error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": content})


class RefusalLog:
    """Warnings for refused calls: the first `shown` of each `window` seconds are logged one by one; the
    rest are counted and logged as one line when the window closes. `what` names the refuser in each line;
    `line` (with `%s` for why and `%s` for the "counted" note) and `level` change the one-by-one line, `counted`
    (with `{what}`, `{total}` and `{detail}`) the count line."""

    def __init__(
        self,
        shown: int = settings.REFUSALS_SHOWN.value,
        window: float = settings.REFUSALS_WINDOW.value,
        clock: Callable[[], float] = time.monotonic,
        what: str = "webhook",
        logger: logging.Logger = log,
        level: int = logging.WARNING,
        line: str | None = None,
        counted: str = "{what}: {total} more refused calls in the last minute ({detail})",
    ):
        self.what, self.log, self.level = what, logger, level
        self.line = line or f"{what}: refused a call %s%s"
        self.counted = counted
        self.shown = shown
        self.window = window
        self.clock = clock
        self._lock = threading.Lock()
        self._started = -float("inf")
        self._logged = 0
        self._counted: Counter[str] = Counter()
        self._timer: threading.Timer | None = None

    def refused(self, why: str, counted_as: str | None = None) -> None:
        """Note a refused call (`why`: "with a wrong X-Webhook-Secret"); past the first few it is counted
        under `counted_as` (default: `why`)."""
        with self._lock:
            now = self.clock()
            if now - self._started >= self.window:
                self._flush_locked()
                self._started, self._logged = now, 0
            if self._logged < self.shown:
                self._logged += 1
                more = "; more this minute are counted, not logged" if self._logged == self.shown else ""
                self.log.log(self.level, self.line, why, more)
                return
            self._counted[counted_as or why] += 1
            if self._timer is None:
                self._timer = threading.Timer(max(0.0, self._started + self.window - now), self.flush)
                self._timer.daemon = True
                self._timer.start()

    def flush(self) -> None:
        """Log the count of refused calls not logged one by one, if any."""
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._counted:
            total = sum(self._counted.values())
            detail = ", ".join(f"{n} {why}" for why, n in self._counted.most_common(settings.REFUSAL_REASONS.value))
            if len(self._counted) > settings.REFUSAL_REASONS.value:
                detail += ", …"
            self.log.warning("%s", self.counted.format(what=self.what, total=total, detail=detail))
            self._counted.clear()
