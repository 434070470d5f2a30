"""`ReplicaMetricsMiddleware`: every answer names the replica that made it (`X-Replica`), and is counted and timed in the
replica's metrics (`metrics.py`) by route template and status.

It is the first middleware a request meets, so it sees every answer, the one-line 500s and refusals too.
"""

from __future__ import annotations

import time

from components.web import metrics as metrics_
from components.web import replicas
from components.web.asgi import ASGIApp, Message, Receive, Scope, Send

HEADER = b"x-replica"


class ReplicaMetricsMiddleware:
    """ASGI middleware: `X-Replica: <replica>` on every HTTP answer; each counted in `metrics` (None: not
    counted) under its route template, `pages` being the paths answered before any route."""

    def __init__(self, app: ASGIApp, metrics: metrics_.Metrics | None = None, pages: frozenset[str] = frozenset(),
                 replica: str | None = None):  # fmt: skip
        self.app = app
        self.metrics = metrics
        self.pages = pages
        self.replica = (replica or replicas.name()).encode("latin-1", "replace")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def named(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), (HEADER, self.replica)]
                if self.metrics is not None:
                    route = metrics_.route_of(scope, self.pages)
                    self.metrics.observe(route, message["status"], time.perf_counter() - began)
            await send(message)

        await self.app(scope, receive, named)
