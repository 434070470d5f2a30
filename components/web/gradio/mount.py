"""Gradio mounted into the app's server: the page queued with the queue's settings, mounted at `/` with its look
and the rules for Gradio's own routes, and served.

`build()` makes the ASGI app: the routes the app serves itself (`server.routes()`) come first, then Gradio's
page and API, mounted at `/` (`gr.mount_gradio_app`), all behind `server.middleware()`'s one list, to which this
half hands its two entries (Gradio's files from memory, the slimming of the page's inlined config). `serve()`
runs it under uvicorn (`server.config()`); `start()` serves it on a thread, for tests and benchmarks.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import logging
import warnings
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio.to_thread
import gradio as gr
from fastapi import FastAPI
from huggingface_hub import constants as hf_constants
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from components.queries.api import Api
from components.runtime import environment, memory, settings
from components.sources import wanted_store
from components.sources.app_sources import Sources
from components.web import clients, metrics, replicas, server
from components.web.gradio import assets, direct_calls, page_config, queue_look, theme
from components.web.gradio.patches import build_once, mcp_json, sessions, unread
from components.web.html import head, table
from components.web.middleware import first_html, refusals, server_errors

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[3]
ASSETS = ROOT / "assets"


# `launch()` called this route of Gradio's once to start the queue, and from then on it answered `false`. A
# mounted app starts the queue from the lifespan instead and leaves the route armed: the first caller would
# start a second queue loop (resetting the running jobs' slots). It answers as after a start.
STARTUP_EVENTS = "/gradio_api/startup-events"


def started(request: Request) -> JSONResponse:
    """`GET /gradio_api/startup-events`: `false`, the events ran when the server started."""
    return JSONResponse(False)


def gradio_middleware() -> list[Middleware]:
    """Middleware inside the mounted Gradio app, where a request's `scope["app"]` is Gradio's: the answer to
    reads of results its queue does not hold (`patches/unread.py`, which reads that queue)."""
    return [Middleware(unread.UnknownResultMiddleware)]


def blocked_paths(dataset: str | None = None) -> list[str]:
    """What Gradio must never serve, whatever GRADIO_ALLOWED_PATHS says: the app folder (source and
    bundled data), a local dataset, and huggingface_hub's folder (which holds the token)."""
    paths = [ROOT, Path(hf_constants.HF_HOME)]
    if dataset and not dataset.startswith("hf://"):
        paths.append(Path(dataset).expanduser())
    return [str(p.resolve()) for p in paths]


def build(demo: gr.Blocks, sources: Sources, *, dataset: str | None = None, host: str = "127.0.0.1",
          port: int = 7860, page_head: str = "") -> FastAPI:  # fmt: skip
    """The app's ASGI app: its routes and middleware, with `demo` (queued here) mounted at `/`."""
    environment.ANALYTICS_CACHE_FREQUENCY.set_default()
    patches_in_force()
    page_config.fits()  # decided now, so where it does not fit, that is logged at start-up
    refusals.quiet_loggers()
    # The queue's settings are read from `server` when the app is built, not bound at import, so a test's app
    # (tests/e2e/busy_app.py) that sets a smaller queue on `server` gets it.
    # api_open=False: no named endpoint answers outside the queue (Gradio opens them off a Space)
    with build_once.building(launch_next=True):  # queue() builds a server app that the mount replaces at once
        demo.queue(
            default_concurrency_limit=settings.EVENT_CONCURRENCY.value,
            max_size=settings.QUEUE_SIZE.value,
            api_open=False,
            status_update_rate=settings.QUEUE_STATUS_EVERY.value,
        )
    # launch()'s `state_session_capacity`, which mount_gradio_app does not take, and an app id replicas agree on
    sessions.as_launched(demo, session_capacity=settings.SESSIONS.value, app_id=app_id())
    watched = (
        metrics.Metrics(sources, lambda: queue_look.queue_length(demo), wanted_store.shared)
        if metrics.enabled()
        else None
    )
    own = [*server.routes(sources, watched), Route(STARTUP_EVENTS, started, methods=["GET"])]
    kept = direct_calls.UnreadResults()  # the plain calls' unread results: one budget with the queue's (`unread`)
    listed = server.middleware(
        sources, lambda: queue_look.queue_full(demo), own, watched,
        files=[Middleware(assets.InMemoryAssetsMiddleware)], slim=page_config.slim,
        answers=page_config.answers_of(demo) or first_html.no_answers,
        calls=[Middleware(direct_calls.DirectCallMiddleware, endpoints=direct_calls.named(Api(sources)), kept=kept)],
    )  # fmt: skip
    app = FastAPI(
        docs_url=None, redoc_url=None, openapi_url=None,  # FastAPI's own API pages: /api/v1 has its own
        routes=own, middleware=listed, lifespan=lifespan(demo, host, port),
    )  # fmt: skip
    with warnings.catch_warnings():  # that SSR is off for a multi-page app: it is off here in any case
        warnings.filterwarnings("ignore", message="SSR mode is not supported", category=UserWarning)
        return mount(app, demo, host=host, port=port, dataset=dataset, page_head=page_head, kept=kept)


def mount(app: FastAPI, demo: gr.Blocks, *, host: str, port: int, dataset: str | None, page_head: str,
          kept: direct_calls.UnreadResults) -> FastAPI:  # fmt: skip
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
        css=theme.minified_css(ASSETS / "style.css") + table.column_css("#results"),  # the columns' (registry)
        head=head.minified_head(page_head),
        show_error=False,
        footer_links=["api"],
        run_history=False,  # its routes would create Hub buckets with the host's saved token
        max_file_size=server.MAX_FILE_SIZE,
        allowed_paths=list(environment.GRADIO_ALLOWED_PATHS.get()),
        blocked_paths=[*blocked_paths(dataset), *environment.GRADIO_BLOCKED_PATHS.get()],
        root_path=environment.GRADIO_ROOT_PATH.get(),
        pwa=clients.on_space(),  # as launch() does: on a Space the page can be installed as an app
        app_kwargs={
            "middleware": gradio_middleware(),
            # the queue's unread results swept within what the plain calls' kept results leave of the budget
            "lifespan": functools.partial(unread.lifespan, held_elsewhere=lambda: kept.weight),
            # Gradio's app answers its own routes' exceptions before they reach `JsonServerErrorMiddleware`: the same
            # JSON 500 as it, and the exception goes on to it, which logs one line
            "exception_handlers": {Exception: server_errors.internal_error},
        },
    )


def patches_in_force() -> dict[str, bool]:
    """Apply every patch that fits this Gradio (each stands down with one log line where not)."""
    from components.web.gradio import patches  # here: importing this module patches nothing

    return patches.apply()


def lifespan(demo: gr.Blocks, host: str, port: int) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
    """What the server does as it starts: the worker threads' limit, the address of MCP's own calls, a line
    saying where it listens. (Gradio's queue and MCP server start inside, from the mount.)"""

    @contextlib.asynccontextmanager
    async def running(app: Any) -> AsyncIterator[None]:
        # launch()'s max_threads: the pool Gradio's events and Starlette's sync routes run in (anyio's, public)
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.WORKER_THREADS.value
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}"
        mcp_json.call_locally(demo, url)  # MCP's tool calls to the app stay on this machine
        log.info("serving on http://%s:%d (MCP: %s/gradio_api/mcp/)", host, port, url)
        yield

    return running


def app_id() -> int:
    """The id Gradio writes into every page: the same for every replica of one release (`replicas.app_id`) and
    this Gradio's version."""
    return replicas.app_id(importlib.metadata.version("gradio"))


def serve(demo: gr.Blocks, sources: Sources, *, dataset: str | None = None, host: str, port: int,
          page_head: str = "") -> None:  # fmt: skip
    """Build the app and serve it until stopped (Ctrl-C, SIGTERM). What start-up built is frozen before the
    first request (`memory.settle()`): a full garbage collection no longer walks it while visitors wait."""
    app = build(demo, sources, dataset=dataset, host=host, port=port, page_head=page_head)
    memory.settle()
    server.serve(app, host, port)


def start(
    demo: gr.Blocks, sources: Sources, *, host: str = "127.0.0.1", port: int, **build_args: Any
) -> server.Running:
    """Serve the app on a thread of this process until `stop()`: uvicorn does not take this thread's signals."""
    return server.Running(build(demo, sources, host=host, port=port, **build_args), host, port, demo)
