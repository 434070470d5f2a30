"""The server's HTTP half: the routes the app serves itself, its one list of middleware, and uvicorn.

`routes()` lists the app's own routes (they come ahead of Gradio's); every request passes the middleware in
`middleware()`, read top to bottom as a request meets them; `config()` is uvicorn's configuration, with the
connection bounds below. Gradio is mounted into this app by `gradio/mount.py`, which hands the list its two
Gradio-side entries (the files from memory, the config's slimming): nothing here imports Gradio.

Each safety limit here is the app's own code over public interfaces (Starlette middleware, uvicorn's
`Config`), so it holds whatever Gradio release is installed; what only a patch reaches is in
`gradio/patches/` (docs/architecture.md lists each and what is lost when it stands down).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import h11
import uvicorn
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import BaseRoute
from uvicorn.protocols.http.h11_impl import H11Protocol

from components.queries import api, argument_types
from components.runtime import environment, settings
from components.sources.app_sources import Sources
from components.web import capacity, clients, metrics
from components.web.asgi import RefusalLog
from components.web.middleware import (
    first_html,
    limits,
    methods,
    missing_arguments,
    origin,
    refusals,
    server_errors,
    streams,
)
from components.web.middleware.replica_metrics import ReplicaMetricsMiddleware
from components.web.routes import api_v1, badge_feed, card, downloads, grid_feed, health, scripts, wanted, webhook

log = logging.getLogger(__name__)

# The app takes no files, but Gradio's upload route is open in every app: keep what it stores tiny.
MAX_FILE_SIZE = f"{settings.UPLOAD_FILE.value // 1024}kb"  # as Gradio reads it


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline: a connection whose request has not arrived whole
    `request_deadline` seconds after the connection opened (or after the previous answer) is closed.

    uvicorn starts no timer until a first answer is sent: without this, a connection that sent nothing,
    or one header line every 10 s, stayed open for ever (still open after 130 s when tried). It uses the
    protocol's own state (`conn`, `cycle`, `transport`, `loop`), which uvicorn's `http=` option hands it."""

    request_deadline = settings.REQUEST_DEADLINE.value
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # uvicorn narrows BaseTransport to Transport
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._deadline is None and self.conn.their_state is not h11.DONE and not self.transport.is_closing():
            self._arm()  # a new request has begun after an answer

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # uvicorn's keep-alive timer runs until the next request's first bytes

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_deadline, self._deadline_passed)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY) or self.transport.is_closing():
            return  # the request arrived whole; its answer may take as long as it takes
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        CUTS.refused("cut at the request deadline")
        self.transport.close()


# Connections cut at the request deadline: a count once a minute, not a line each (a slow client is no error).
CUTS = RefusalLog(
    shown=0, what="connections", logger=log,
    counted=f"{{what}}: {{total}} cut at the {settings.REQUEST_DEADLINE.value:g} s request deadline in the last minute",
)  # fmt: skip
# What a peer past its share hears before its connection is closed (it has sent nothing yet).
PEER_FULL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"retry-after: 5\r\ncontent-length: 48\r\n\r\n"
    b'{"error": "too many connections from one peer"}\n'
)


class PeerCappedH11Protocol(DeadlineH11Protocol):
    """`DeadlineH11Protocol` with a share per peer: a connection from a peer already holding `peer_cap`
    connections is answered 503 and closed before it is read, unless the peer is a trusted proxy (`trusted`,
    the `FORWARDED_ALLOW_IPS` uvicorn was given). `config()` makes a subclass per server, with its own counts."""

    peer_cap = settings.PEER_CONNECTIONS.value
    trusted = ""
    open_per_peer: Counter[str] = Counter()
    refusals = RefusalLog(what="connections", logger=log)
    _peer: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as above
        peer = str((transport.get_extra_info("peername") or ("",))[0])
        if not clients.trusted(peer, self.trusted):
            if self.open_per_peer[peer] >= self.peer_cap:
                self.refusals.refused(f"past {self.peer_cap} open connections from one peer")
                transport.write(PEER_FULL)
                transport.close()
                return
            self.open_per_peer[peer] += 1
            self._peer = peer
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.transport is None:  # refused in connection_made: nothing is read
            return
        super().data_received(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is None:
            return
        if self._peer is not None:
            self.open_per_peer[self._peer] -= 1
            if self.open_per_peer[self._peer] <= 0:
                del self.open_per_peer[self._peer]
            self._peer = None
        super().connection_lost(exc)


def routes(sources: Sources, watched: metrics.Metrics | None = None) -> list[BaseRoute]:
    """Every route the app serves itself, ahead of Gradio's: the webhook, the downloads, the badge and feed,
    the plain HTTP API, the link preview card, the wanted and grid feeds and the busy tab's script; the probes and
    `watched`'s `/metrics`."""
    return [
        *health.routes(sources, watched),
        *webhook.routes(sources.datasets),
        *downloads.routes(sources),
        *badge_feed.routes(sources),
        *api_v1.routes(sources),
        *card.routes(sources),
        *wanted.routes(sources),
        *grid_feed.routes(sources),
        *scripts.routes(),
    ]


def middleware(
    sources: Sources,
    busy: Callable[[], bool] = lambda: False,
    own: Sequence[BaseRoute] = (),
    watched: metrics.Metrics | None = None,
    files: Sequence[Middleware] = (),
    slim: Callable[[str], str] = first_html.unchanged,
    calls: Sequence[Middleware] = (),
    answers: first_html.LiveAnswers = first_html.no_answers,
) -> list[Middleware]:
    """The app's middleware, in the order a request meets them (the answer passes them bottom to top); `busy`
    says whether the live page's queue is full (a new tab's first HTML then says the page will retry); `own`:
    the routes the app serves itself (their methods are answered for); `watched` counts every answer (None:
    none counted). The Gradio half hands in its four: `files`, Gradio's files from memory, `slim`, the
    edit of the page's inlined config, `calls`, the named endpoints over plain HTTP answered beside the
    queue, and `answers`, the Models page's links whose first HTML carries the live page's answer
    (`gradio/assets.py`, `gradio/page_config.py`, `gradio/direct_calls.py`, `gradio/pages/models.py`)."""
    return [
        # every answer names its replica and is counted, the one-line 500s of the next too
        Middleware(ReplicaMetricsMiddleware, metrics=watched, pages=frozenset(first_html.PAGE_PATHS)),
        Middleware(server_errors.JsonServerErrorMiddleware),  # an exception escaping any route: one log line and a 500
        Middleware(origin.HostRewriteMiddleware),  # the app's own origin; no forwarding header reaches anything below
        # bodies bounded before anything reads them (a Hub webhook payload is a few KB); smuggled bodies refused
        Middleware(limits.BodySizeLimitMiddleware, per_path={webhook.PATH: settings.WEBHOOK_BODY.value}),
        # 405 and Allow on the app's own addresses and pages, HEAD as GET
        Middleware(methods.AllowedMethodsMiddleware, routes=own, pages=first_html.PAGE_PATHS),
        Middleware(refusals.UploadRefusalMiddleware),  # Gradio's upload route answers 403: the app takes no files
        Middleware(refusals.McpBodyValidationMiddleware),  # an MCP POST whose body is not MCP gets a JSON-RPC error
        Middleware(
            missing_arguments.MissingArgumentsMiddleware, endpoints=named_parameters()
        ),  # too few values: an error naming them
        Middleware(streams.EventStreamLimitMiddleware),  # event streams capped per client and ended
        *calls,  # the named endpoints over plain HTTP, answered beside Gradio's queue
        # the app's own routes compressed (Gradio compresses its own, inside; what is compressed passes as it
        # is), at `OWN_GZIP_LEVEL`
        Middleware(GZipMiddleware, compresslevel=settings.OWN_GZIP_LEVEL.value),
        *files,  # Gradio's scripts and stylesheets from memory
        # each page's first HTML says what it shows
        Middleware(first_html.FirstHtmlMiddleware, sources=sources, busy=busy, slim=slim, answers=answers),
    ]


def named_parameters() -> dict[str, list[str]]:
    """Each named endpoint's argument names, by its name."""
    return {name: argument_types.parameters(getattr(api.Api, name)) for name in api.NAMED}


class StopCancelledLogFilter(logging.Filter):
    """On uvicorn's logger: a request cancelled because the server stopped (an open stream past
    `GRACEFUL_STOP`) is not logged with its traceback; uvicorn's line "Cancel N running task(s)" says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and record.exc_info[0] is asyncio.CancelledError)


def config(app: Any, host: str, port: int) -> uvicorn.Config:
    """uvicorn's configuration: the trusted proxies, the connection caps (all, and per peer), keep-alive, the
    request deadline and the head size limit."""
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, StopCancelledLogFilter) for f in errors.filters):
        errors.addFilter(StopCancelledLogFilter())
    trusted = clients.forwarded_allow_ips()
    protocol = type(
        "PeerCappedH11Protocol",
        (PeerCappedH11Protocol,),
        {
            "peer_cap": environment.MAX_PEER_CONNECTIONS.get(),
            "trusted": trusted,
            "open_per_peer": Counter(),
        },
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        proxy_headers=True,  # the client is the rightmost X-Forwarded-For hop no trusted proxy wrote (clients.py)
        forwarded_allow_ips=trusted,
        limit_concurrency=capacity.connection_cap(environment.MAX_CONNECTIONS.get()),
        backlog=settings.BACKLOG.value,
        timeout_keep_alive=settings.KEEP_ALIVE.value,
        h11_max_incomplete_event_size=settings.REQUEST_HEAD.value,
        timeout_graceful_shutdown=settings.GRACEFUL_STOP.value,
        log_level="warning",  # as Gradio runs it: no line per request
        log_config=None,  # uvicorn's lines go through the app's one-line log (components/runtime/logs.py)
    )


def serve(app: Any, host: str, port: int) -> None:
    """Serve the ASGI app `app` under uvicorn (`config()`) until stopped (Ctrl-C, SIGTERM)."""
    uvicorn.Server(config(app, host, port)).run()


class Running:
    """The ASGI app `app` served on a thread of this process (for tests and benchmarks): `stop()` ends it;
    uvicorn does not take this thread's signals. `demo`: the page mounted in it, for tests that look inside."""

    def __init__(self, app: Any, host: str, port: int, demo: Any = None):
        self.demo = demo
        self.url = f"http://{host}:{port}"
        self.server = uvicorn.Server(config(app, host, port))
        self.thread = threading.Thread(target=self.server.run, name="server", daemon=True)
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError(f"the server did not start on {self.url}")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(settings.GRACEFUL_STOP.value + 5)
