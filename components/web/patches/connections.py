"""Connections that close: a deadline for a request to arrive, a keep-alive timeout, a cap on connections.

Gradio builds uvicorn's `Config` itself (`gradio/http_server.py`) with none of uvicorn's bounds, and
uvicorn's h11 protocol starts no timer until a first answer is sent: a connection that sent nothing,
or one header line every 10 s, stayed open for ever (still open after 130 s when tried). This patch
gives Gradio's `Server` a config with:

- `REQUEST_DEADLINE`: a request's head and body must arrive within this many seconds of the connection
  opening (or of the previous answer); else the connection is closed (`DeadlineH11Protocol`);
- `KEEP_ALIVE`: an idle connection after an answer is closed after this many seconds (uvicorn's timer);
- `MAX_CONNECTIONS`: past this many open connections (or requests in flight) uvicorn answers 503 to every
  request, so it is set far above a launch's crowd (each tab holds one connection for its heartbeat) and
  clamped to the open-file limit (`components/web/capacity.py`); what one address may hold is bounded
  per address (`routes/streams.py`), and a full queue still gets its painted answer (`html/busy.py`).
- `BACKLOG`: connections the kernel holds for the app before it accepts them.

It stands down (Gradio's and uvicorn's own behaviour) where `gradio.http_server.Server`, uvicorn's
`Config` parameters or its h11 protocol are not as written for.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from components.web import capacity
from components.web.patches.guard import Patch, PatchMismatch, need, need_parameters

log = logging.getLogger(__name__)

# A browser sends a request's head in one packet and this app's bodies are a few KB: 20 s is generous
# for a slow phone and still frees a slot held by a client that sends nothing, or drips a line at a time.
REQUEST_DEADLINE = 20.0
# uvicorn's default: a browser reuses an idle connection within a few seconds or not at all.
KEEP_ALIVE = 5
# uvicorn answers 503 to EVERY request while this many connections are open, so the cap must sit above any
# crowd, not at it: at 512 a launch's burst of tabs (each holds its heartbeat on a connection of its own;
# HTTP/1.1 cannot multiplex streams) was refused whole. 8,192 is four times the 2,000 open tabs the
# launch benchmark holds (~41 KB of RSS each, measured: ~330 MB at the cap), clamped to the open-file
# limit (`capacity.connection_cap`); one address's share is bounded by `routes/streams.py` instead.
MAX_CONNECTIONS = 8192
# uvicorn's default 2,048 is the kernel's queue of not-yet-accepted connections: a burst of 2,000 tabs
# arriving at once fills it; Linux caps it at net.core.somaxconn (4,096 on current kernels).
BACKLOG = 4096
UVICORN = ">=0.30"


def deadline_protocol() -> type:
    """uvicorn's h11 protocol, with a deadline for each request to arrive whole."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class DeadlineH11Protocol(H11Protocol):
        """H11Protocol that closes a connection whose request has not arrived whole `REQUEST_DEADLINE`
        seconds after the connection opened or after the previous answer was sent."""

        request_deadline = REQUEST_DEADLINE
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
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
            self.transport.close()

    return DeadlineH11Protocol


def bound(config: Any) -> None:
    """Set the bounds on a uvicorn `Config` before its server loads it."""
    config.http = deadline_protocol()
    config.timeout_keep_alive = KEEP_ALIVE
    config.limit_concurrency = capacity.connection_cap(MAX_CONNECTIONS)
    config.backlog = BACKLOG


def check() -> None:
    import uvicorn
    from gradio import http_server
    from packaging.specifiers import SpecifierSet
    from uvicorn.protocols.http.h11_impl import H11Protocol

    if uvicorn.__version__ not in SpecifierSet(UVICORN):
        raise PatchMismatch(f"written for uvicorn {UVICORN}, this is {uvicorn.__version__}")
    need(http_server, "Server", "start_server")
    need_parameters(uvicorn.Config.__init__, "http", "timeout_keep_alive", "limit_concurrency", "backlog")
    need(H11Protocol, "connection_made", "data_received", "on_response_complete", "connection_lost")
    need_parameters(http_server.Server.__init__, "config")


def apply() -> type:
    from gradio import http_server

    original = http_server.Server

    class BoundedServer(original):
        """Gradio's server, with the connection bounds set on its config."""

        def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
            bound(config)
            super().__init__(config, *args, **kwargs)

    http_server.Server = BoundedServer
    return BoundedServer


PATCH = Patch(name="connections", check=check, apply=apply)
