"""`POST /webhooks/dataset`: the Hub calls it when the dataset repo changes, and a refresh starts at once.

The route is off (404) unless env `WEBHOOK_SECRET` is set; the caller's `X-Webhook-Secret` header is
compared with it in constant time (missing: 401, wrong: 403). The refreshes calls ask for are spaced
(`Throttle`): a call after a quiet spell asks at once; a call within `WEBHOOK_DEBOUNCE` of the last ask merges
into one ask at the spacing's end; and the store runs one refresh at a time with at most one more queued. So a
burst of calls lasting D seconds costs at most ceil(D / spacing) + 1 reads (merging only while a refresh ran
let 300 calls in 0.7 s make ~260 local reads), and a change whose webhook follows the previous one is read at
most one spacing later (a 10 s window held it 10 s: a change's p95 was 10.1 s). A body over `WEBHOOK_BODY`
bytes is refused (413), and one that is not a Hub webhook payload (not JSON, nested too deeply, no
`event` with a `scope` and an `action`) gets 400, each with a log line; nothing served changes.

The log is the host's to read, and anyone can call the route: values from a payload are logged as
`repr`s (a newline in them cannot start a forged line), and refused calls are logged a few a minute,
then counted ("N more refused calls in the last minute"), so a flood of calls cannot flood the log.
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
import time
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from components.runtime import environment, settings
from components.sources.refresh import RefreshingStore
from components.web.asgi import RefusalLog, read_body

log = logging.getLogger(__name__)

PATH = "/webhooks/dataset"
HEADER = "X-Webhook-Secret"
NOT_A_PAYLOAD = 'not a Hub webhook payload: expected {"event": {"scope": "...", "action": "..."}, ...}'


class Throttle:
    """Refreshes asked of `store` at least `window` seconds apart, and none later than that after a call: a call
    after a quiet spell (`window` since the last ask) asks at once; a call within it schedules one ask at its end,
    `window` after the last, which later calls merge into. The store runs what is asked one read at a time."""

    def __init__(
        self,
        store: RefreshingStore,
        window: float = settings.WEBHOOK_DEBOUNCE.value,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.store, self.window, self.clock = store, window, clock
        self.lock = threading.Lock()
        self.asked = -float("inf")
        self.trailing: threading.Timer | None = None

    def call(self) -> str | None:
        """Take one call: "now" (a refresh was asked for), "trailing" (one will be, at the spacing's end), or
        None when no refresh can run (offline, or the store stopped)."""
        if not self.store.can_refresh():
            return None
        with self.lock:
            if self.trailing is not None:
                return "trailing"
            wait = self.asked + self.window - self.clock()
            if wait <= 0:
                self.asked = self.clock()
                return "now" if self.store.request_refresh() else None
            self.trailing = threading.Timer(wait, self.ask)
            self.trailing.daemon = True
            self.trailing.start()
            return "trailing"

    def ask(self) -> None:
        """The ask at the spacing's end: one refresh for every call merged since the last ask."""
        with self.lock:
            self.trailing = None
            self.asked = self.clock()
            self.store.request_refresh()


def routes(datasets: RefreshingStore, secret: str | None = None, window: float | None = None) -> list[Route]:
    """The webhook route for `datasets`; `secret` defaults to env WEBHOOK_SECRET (unset or empty: the route
    answers 404); `window`: the refreshes' spacing (`Throttle`), by default env `WEBHOOK_DEBOUNCE_SECONDS`'s."""
    window = environment.WEBHOOK_DEBOUNCE_SECONDS.get() if window is None else window
    secret = environment.WEBHOOK_SECRET.get() if secret is None else secret
    expected = secret.encode("utf-8")
    refusals = RefusalLog(what="webhook", logger=log)  # a flood of calls: a few lines a minute, then a count
    throttle = Throttle(datasets, window)

    async def dataset_webhook(request: Request) -> JSONResponse:
        if not expected:
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        given = request.headers.get(HEADER)
        if given is None:
            refusals.refused(f"without the {HEADER} header")
            return JSONResponse({"error": f"missing {HEADER} header"}, status_code=401)
        if not hmac.compare_digest(given.encode("utf-8"), expected):
            refusals.refused(f"with a wrong {HEADER}")
            return JSONResponse({"error": f"wrong {HEADER}"}, status_code=403)
        declared = request.headers.get("content-length", "")
        too_long = declared.isdigit() and int(declared) > settings.WEBHOOK_BODY.value  # known before a byte is read
        body = None if too_long else await read_body(request.receive, settings.WEBHOOK_BODY.value)
        if body is None:
            log.warning(
                "webhook: refused a body over %d KB; the current data is still served",
                settings.WEBHOOK_BODY.value // 1024,
            )
            return JSONResponse({"error": f"body over {settings.WEBHOOK_BODY.value // 1024} KB"}, status_code=413)
        try:
            payload = json.loads(body)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            log.warning("webhook: refused a body that is not JSON (%s); the current data is still served", exc)
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        except RecursionError:
            log.warning("webhook: refused a JSON body nested too deeply; the current data is still served")
            return JSONResponse({"error": "the body is nested too deeply"}, status_code=400)
        event = event_of(payload)
        if event is None:
            log.warning("webhook: refused JSON with no event scope and action; the current data is still served")
            return JSONResponse({"error": f"the body is {NOT_A_PAYLOAD}"}, status_code=400)
        what = "/".join(logged(value) for value in event)
        taken = throttle.call()
        if taken is None:
            log.warning("webhook (%s): refreshes are off (HF_HUB_OFFLINE is set)", what)
            return JSONResponse({"error": "refreshes are off: HF_HUB_OFFLINE is set"}, status_code=503)
        if taken == "now":
            log.info("webhook (%s): dataset refresh requested", what)
        else:
            log.debug("webhook (%s): merged into the refresh at the end of the %g s spacing", what, throttle.window)
        return JSONResponse({"refresh": "queued"}, status_code=202)

    return [Route(PATH, dataset_webhook, methods=["POST"])]


def event_of(payload: object) -> tuple[str, str] | None:
    """(scope, action) of a Hub webhook payload, or None when it has no such event."""
    event = payload.get("event") if isinstance(payload, dict) else None
    if not isinstance(event, dict):
        return None
    scope, action = event.get("scope"), event.get("action")
    if not isinstance(scope, str) or not isinstance(action, str):
        return None
    return scope, action


def logged(value: str) -> str:
    """A payload value as a log line may hold it: its repr (newlines and control characters escaped), cut short."""
    return repr(value[: settings.WEBHOOK_LOGGED.value]) + ("…" if len(value) > settings.WEBHOOK_LOGGED.value else "")
