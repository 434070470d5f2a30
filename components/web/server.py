"""The server: the app's own ASGI app, its one list of middleware, Gradio mounted in it, and uvicorn.

`build()` makes the ASGI app: the routes the app serves itself come first (`ROUTES` order), then
Gradio's page and API, mounted at `/` (`gr.mount_gradio_app`). Every request passes the middleware in
`middleware()`, read top to bottom as a request meets them. `serve()` runs it under uvicorn with the
connection bounds below, set as uvicorn's configuration.

Each safety limit here is the app's own code over public interfaces (Starlette middleware, uvicorn's
`Config`, `mount_gradio_app`'s arguments), so it holds whatever Gradio release is installed; what only a
patch reaches is in `patches/` (docs/architecture.md lists each and what is lost when it stands down).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
import warnings
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import anyio.to_thread
import gradio as gr
import h11
import uvicorn
from fastapi import FastAPI
from huggingface_hub import constants as hf_constants
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from components.runtime import settings
from components.sources import wanted_store
from components.sources.app_sources import Sources
from components.web import capacity, clients, metrics, replicas, theme
from components.web.asgi import RefusalLog
from components.web.clients import on_space
from components.web.html import head
from components.web.middleware import (
    arguments,
    assets,
    first_response,
    limits,
    methods,
    origin,
    page_config,
    refusals,
    streams,
)  # fmt: skip
from components.web.middleware.observed import Observed
from components.web.patches import build_once, mcp_json, unread
from components.web.routes import api_v1, badge_feed, downloads, endpoints, health, scripts, wanted, webhook
from components.web.routes import first_response as card

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "assets"

# The queue (docs/limits.md). Every handler reads one immutable snapshot, holds no lock and takes
# milliseconds, so events may run side by side. Gradio runs one call of each event at a time unless
# told otherwise, and then one slow answer (a 10,000-row /search, a chart's first draw, a CSV export)
# makes everyone asking for the same thing wait behind it; the `gr.api` endpoints are events too.
# 16 at a time per event lets a crowd search at once; all events share 40 worker threads, and on a
# 2-vCPU Space more would only queue on the GIL.
CONCURRENCY_LIMIT = settings.EVENT_CONCURRENCY.value
MAX_THREADS = settings.WORKER_THREADS.value
# A burst beyond this many waiting events is told "queue full" at once rather than made to wait.
QUEUE_MAX_SIZE = settings.QUEUE_SIZE.value
# Gradio's default ("auto") sends every waiting tab its place in the queue each time an event starts: a
# burst of 500 waiting tabs costs 500 messages per event on the event loop, the cost growing as the square
# of the crowd. Every 2 s instead, each waiting tab still learns its place (progress shows it).
QUEUE_STATUS_EVERY = settings.QUEUE_STATUS_EVERY.value
# The app takes no files, but Gradio's upload route is open in every app: keep what it stores tiny.
MAX_FILE_SIZE = f"{settings.UPLOAD_FILE.value // 1024}kb"  # as Gradio reads it

# A call without a session_hash (curl, plain HTTP) gets a session of its own; Gradio keeps 10,000. 1,000
# bounds their memory. A browser tab idle while 1,000 newer sessions arrive loses nothing: the pages keep
# no state on the server, and their events read the pickers as text, not against the session's choices
# (`pages/wiring.py` `PAGE_EVENT`).
SESSION_CAPACITY = settings.SESSIONS.value
# After every event Gradio's queue rebuilds a pandas summary of the last 10,000 events (the latency figures
# of the API page): a few to tens of ms of CPU per request, growing with traffic. Once per 1,000 events
# keeps those figures fresh at a thousandth of the cost (a setting Gradio reads from the environment).
ANALYTICS_EVERY = settings.ANALYTICS_EVERY.value

# The connections (uvicorn's configuration). uvicorn answers 503 to EVERY request while this many connections
# are open, so the cap must sit above any crowd, not at it: at 512 a launch's burst of tabs (each holds its
# heartbeat on a connection of its own; HTTP/1.1 cannot multiplex streams) was refused whole. 8,192 is four
# times the 2,000 open tabs the visitor benchmark holds (~41 KB of RSS each), clamped to the open-file limit
# (`capacity.connection_cap`). Env `MAX_CONNECTIONS` changes it (a test makes it small).
MAX_CONNECTIONS = settings.CONNECTIONS.value
# One peer (a connection's own address) may hold at most this many: 8,300 idle sockets from one peer filled the
# whole cap, and uvicorn then refused every other client for as long as it kept reconnecting. An eighth of the
# cap leaves room for a company's NAT (a browser holds up to six connections to a host). Trusted proxies
# (`clients.forwarded_allow_ips()`) are exempt: on a Space every connection comes from the proxy. Env
# `MAX_PEER_CONNECTIONS` changes it.
MAX_PEER_CONNECTIONS = settings.PEER_CONNECTIONS.value
# uvicorn's default 2,048 is the kernel's queue of not-yet-accepted connections: a burst of 2,000 tabs
# arriving at once fills it; Linux caps it at net.core.somaxconn (4,096 on current kernels).
BACKLOG = settings.BACKLOG.value
# A browser reuses an idle connection within a few seconds or not at all (uvicorn's default).
KEEP_ALIVE = settings.KEEP_ALIVE.value
# A browser sends a request's head in one packet and this app's bodies are a few KB: 20 s is generous for
# a slow phone and still frees a slot held by a client that sends nothing, or drips a line at a time.
REQUEST_DEADLINE = settings.REQUEST_DEADLINE.value
# A request's head still incomplete past this many bytes is refused (h11's buffer limit, its own default
# made explicit): a browser's head is under 8 KB. A head that arrives whole in one read (asyncio reads up to
# 64 KB) is parsed whatever its size, so this bounds what a client can make the server buffer, not a head.
MAX_HEAD = settings.REQUEST_HEAD.value
# On stopping, open streams (a tab's heartbeat never ends by itself) get this long before they are cut.
GRACEFUL_STOP = settings.GRACEFUL_STOP.value


def setting(name: str, default: int) -> int:
    """A positive whole-number setting from the environment (`name`), else `default`; a value that is not one
    is refused with one line and the default kept."""
    given = os.environ.get(name, "").strip()
    if not given:
        return default
    if given.isdigit() and int(given) > 0:
        return int(given)
    log.warning("%s=%r is not a positive whole number: %d is kept", name, given[:40], default)
    return default


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline: a connection whose request has not arrived whole
    `request_deadline` seconds after the connection opened (or after the previous answer) is closed.

    uvicorn starts no timer until a first answer is sent: without this, a connection that sent nothing,
    or one header line every 10 s, stayed open for ever (still open after 130 s when tried). It uses the
    protocol's own state (`conn`, `cycle`, `transport`, `loop`), which uvicorn's `http=` option hands it."""

    request_deadline = REQUEST_DEADLINE
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
    counted=f"{{what}}: {{total}} cut at the {REQUEST_DEADLINE:g} s request deadline in the last minute",
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

    peer_cap = MAX_PEER_CONNECTIONS
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
    the plain HTTP API, the link preview card, the wanted feed and the busy tab's script; the probes and
    `watched`'s `/metrics`; and Gradio's start-up route, answered as after a start."""
    return [
        *health.routes(sources, watched),
        *webhook.routes(sources.datasets),
        *downloads.routes(sources),
        *badge_feed.routes(sources),
        *api_v1.routes(sources),
        *card.routes(sources),
        *wanted.routes(sources),
        *scripts.routes(),
        Route(STARTUP_EVENTS, started, methods=["GET"]),
    ]


# `launch()` called this route of Gradio's once to start the queue, and from then on it answered `false`. A
# mounted app starts the queue from the lifespan instead and leaves the route armed: the first caller would
# start a second queue loop (resetting the running jobs' slots). It answers as after a start.
STARTUP_EVENTS = "/gradio_api/startup-events"


def started(request: Request) -> JSONResponse:
    """`GET /gradio_api/startup-events`: `false`, the events ran when the server started."""
    return JSONResponse(False)


def middleware(
    sources: Sources,
    busy: Callable[[], bool] = lambda: False,
    own: Sequence[BaseRoute] = (),
    watched: metrics.Metrics | None = None,
) -> list[Middleware]:
    """The app's middleware, in the order a request meets them (the answer passes them bottom to top); `busy`
    says whether the live page's queue is full (a new tab's first HTML then says the page will retry); `own`:
    the routes the app serves itself (their methods are answered for); `watched` counts every answer (None:
    none counted)."""
    return [
        # every answer names its replica and is counted, the one-line 500s of the next too
        Middleware(Observed, metrics=watched, pages=frozenset(first_response.PAGE_PATHS)),
        Middleware(limits.OneLineErrors),  # an exception escaping any route: one log line and a 500
        Middleware(origin.PublicOrigin),  # the app's own origin; no forwarding header reaches anything below
        Middleware(limits.BodyLimit),  # bodies bounded before anything reads them; smuggled bodies refused
        # 405 and Allow on the app's own addresses and pages, HEAD as GET
        Middleware(methods.AllowedMethods, routes=own, pages=first_response.PAGE_PATHS),
        Middleware(refusals.NoUploads),  # Gradio's upload route answers 403: the app takes no files
        Middleware(refusals.McpGate),  # an MCP POST whose body is not MCP gets a JSON-RPC error
        Middleware(arguments.ShortCalls, endpoints=named_parameters()),  # too few values: an error naming them
        Middleware(streams.EventStreams),  # event streams capped per client and ended
        # the app's own routes compressed (Gradio compresses its own, inside; what is compressed passes as it
        # is). Level 6, not Starlette's 9: an 8 MB CSV export in ~70 ms instead of ~210 ms, 1% larger
        Middleware(GZipMiddleware, compresslevel=6),
        Middleware(assets.Assets),  # Gradio's scripts and stylesheets from memory
        Middleware(
            first_response.FirstResponse, sources=sources, busy=busy
        ),  # each page's first HTML says what it shows
    ]


def named_parameters() -> dict[str, list[str]]:
    """Each named endpoint's argument names, by its name."""
    return {name: arguments.parameters(getattr(endpoints.Api, name)) for name in endpoints.NAMED}


def gradio_middleware() -> list[Middleware]:
    """Middleware inside the mounted Gradio app, where a request's `scope["app"]` is Gradio's: the answer to
    reads of results its queue does not hold (`patches/unread.py`, which reads that queue)."""
    return [Middleware(unread.UnknownResults)]


def blocked_paths(dataset: str | None = None) -> list[str]:
    """What Gradio must never serve, whatever GRADIO_ALLOWED_PATHS says: the app folder (source and
    bundled data), a local dataset, and huggingface_hub's folder (which holds the token)."""
    paths = [ROOT, Path(hf_constants.HF_HOME)]
    if dataset and not dataset.startswith("hf://"):
        paths.append(Path(dataset).expanduser())
    return [str(p.resolve()) for p in paths]


def env_list(name: str) -> list[str]:
    """A comma-separated env variable as Gradio's `launch()` reads it."""
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def build(demo: gr.Blocks, sources: Sources, *, dataset: str | None = None, host: str = "127.0.0.1",
          port: int = 7860, page_head: str = "") -> FastAPI:  # fmt: skip
    """The app's ASGI app: its routes and middleware, with `demo` (queued here) mounted at `/`."""
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", str(ANALYTICS_EVERY))
    patches_in_force()
    page_config.fits()  # decided now, so where it does not fit, that is logged at start-up
    refusals.quiet_loggers()
    # api_open=False: no named endpoint answers outside the queue (Gradio opens them off a Space)
    with build_once.building(launch_next=True):  # queue() builds a server app that the mount replaces at once
        demo.queue(
            default_concurrency_limit=CONCURRENCY_LIMIT,
            max_size=QUEUE_MAX_SIZE,
            api_open=False,
            status_update_rate=QUEUE_STATUS_EVERY,
        )
    # launch()'s `state_session_capacity`, which mount_gradio_app does not take: the attribute launch() sets
    demo.state_session_capacity = SESSION_CAPACITY
    demo.app_id = replicas.app_id()  # Gradio's is random per process: replicas of a release agree (replicas.py)
    watched = (
        metrics.Metrics(sources, lambda: capacity.queue_length(demo), wanted_store.shared)
        if metrics.enabled()
        else None
    )
    own = routes(sources, watched)
    app = FastAPI(
        docs_url=None, redoc_url=None, openapi_url=None,  # FastAPI's own API pages: /api/v1 has its own
        routes=own, middleware=middleware(sources, lambda: capacity.queue_full(demo), own, watched),
        lifespan=lifespan(demo, host, port),
    )  # fmt: skip
    with warnings.catch_warnings():  # that SSR is off for a multi-page app: it is off here in any case
        warnings.filterwarnings("ignore", message="SSR mode is not supported", category=UserWarning)
        return mount(app, demo, host=host, port=port, dataset=dataset, page_head=page_head)


def mount(app: FastAPI, demo: gr.Blocks, *, host: str, port: int, dataset: str | None, page_head: str) -> FastAPI:
    """`app` with `demo` mounted at `/`, with the page's look and the rules for Gradio's own routes."""
    return gr.mount_gradio_app(
        app,
        demo,
        path="/",
        server_name=host,
        server_port=port,
        # Server-side rendering stays off whatever GRADIO_SSR_MODE says (a Space sets it true;
        # docs/deploying.md, "Deploy as a Space"): Gradio's Node front proxy would pass only Gradio's own
        # paths to Python, so the app's routes would answer the page or 405, and its stylesheet loses to
        # Gradio's reset.
        ssr_mode=False,
        mcp_server=True,
        theme=theme.theme(),
        css=theme.minified_css(ASSETS / "style.css"),
        head=head.minified_head(page_head),
        show_error=False,
        footer_links=["api"],
        run_history=False,  # its routes would create Hub buckets with the host's saved token
        max_file_size=MAX_FILE_SIZE,
        allowed_paths=env_list("GRADIO_ALLOWED_PATHS"),
        blocked_paths=blocked_paths(dataset) + env_list("GRADIO_BLOCKED_PATHS"),
        root_path=os.environ.get("GRADIO_ROOT_PATH", ""),
        pwa=on_space(),  # as launch() does: on a Space the page can be installed as an app
        app_kwargs={
            "middleware": gradio_middleware(),
            "lifespan": unread.lifespan,
            # Gradio's app answers its own routes' exceptions before they reach `OneLineErrors`: the same
            # JSON 500 as it, and the exception goes on to it, which logs one line
            "exception_handlers": {Exception: limits.internal_error},
        },
    )


def patches_in_force() -> dict[str, bool]:
    """Apply every patch that fits this Gradio (each stands down with one log line where not)."""
    from components.web import patches

    return patches.apply()


def lifespan(demo: gr.Blocks, host: str, port: int) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
    """What the server does as it starts: the worker threads' limit, the address of MCP's own calls, a line
    saying where it listens. (Gradio's queue and MCP server start inside, from the mount.)"""

    @contextlib.asynccontextmanager
    async def running(app: Any) -> AsyncIterator[None]:
        # launch()'s max_threads: the pool Gradio's events and Starlette's sync routes run in (anyio's, public)
        anyio.to_thread.current_default_thread_limiter().total_tokens = MAX_THREADS
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
        mcp_json.call_locally(demo, url)  # MCP's tool calls to the app stay on this machine
        log.info("serving on http://%s:%d (MCP: %s/gradio_api/mcp/)", host, port, url)
        yield

    return running


class CancelledOnStop(logging.Filter):
    """On uvicorn's logger: a request cancelled because the server stopped (an open stream past
    `GRACEFUL_STOP`) is not logged with its traceback; uvicorn's line "Cancel N running task(s)" says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and record.exc_info[0] is asyncio.CancelledError)


def config(app: Any, host: str, port: int) -> uvicorn.Config:
    """uvicorn's configuration: the trusted proxies, the connection caps (all, and per peer), keep-alive, the
    request deadline and the head size limit."""
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, CancelledOnStop) for f in errors.filters):
        errors.addFilter(CancelledOnStop())
    trusted = clients.forwarded_allow_ips()
    protocol = type(
        "PeerCappedH11Protocol",
        (PeerCappedH11Protocol,),
        {
            "peer_cap": setting("MAX_PEER_CONNECTIONS", MAX_PEER_CONNECTIONS),
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
        limit_concurrency=capacity.connection_cap(setting("MAX_CONNECTIONS", MAX_CONNECTIONS)),
        backlog=BACKLOG,
        timeout_keep_alive=KEEP_ALIVE,
        h11_max_incomplete_event_size=MAX_HEAD,
        timeout_graceful_shutdown=GRACEFUL_STOP,
        log_level="warning",  # as Gradio runs it: no line per request
        log_config=None,  # uvicorn's lines go through the app's one-line log (components/runtime/logs.py)
    )


def serve(demo: gr.Blocks, sources: Sources, *, dataset: str | None = None, host: str, port: int,
          page_head: str = "") -> None:  # fmt: skip
    """Build the app and serve it until stopped (Ctrl-C, SIGTERM)."""
    app = build(demo, sources, dataset=dataset, host=host, port=port, page_head=page_head)
    uvicorn.Server(config(app, host, port)).run()


class Running:
    """The app served on a thread of this process (for tests and benchmarks): `stop()` ends it."""

    def __init__(self, demo: gr.Blocks, sources: Sources, host: str, port: int, **build_args: Any):
        self.demo = demo
        self.url = f"http://{host}:{port}"
        self.server = uvicorn.Server(config(build(demo, sources, host=host, port=port, **build_args), host, port))
        self.thread = threading.Thread(target=self.server.run, name="server", daemon=True)
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError(f"the server did not start on {self.url}")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(GRACEFUL_STOP + 5)


def start(demo: gr.Blocks, sources: Sources, *, host: str = "127.0.0.1", port: int, **build_args: Any) -> Running:
    """Serve the app on a thread of this process until `stop()`: uvicorn does not take this thread's signals."""
    return Running(demo, sources, host, port, **build_args)
