"""`GET /healthz`, `GET /readyz` and `GET /metrics`: what a load balancer and a monitor ask a replica.

- `/healthz` answers 200 while the process serves requests (a liveness probe: restart it when this fails).
- `/readyz` answers 200 once every source serves data (the sample counts: it is served, and labelled), else
  503 (a readiness probe: send it no visitors yet). When a dataset file's latest version could not be read and
  its last good read is served, it stays ready and says so (`last_good_read`: how many files, their stacks).
- `/metrics` is Prometheus's text format (`metrics.py`); with `METRICS=0` it is not served (404).

None of them is logged: a probe every few seconds would bury the lines a person reads (`ProbeLogFilter`).
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.sources.app_sources import Moment, Sources
from components.sources.snapshot import Snapshot
from components.web import metrics as metrics_

HEALTH, READY, METRICS = "/healthz", "/readyz", "/metrics"
PROBES = (HEALTH, READY, METRICS)
NO_STORE = {"Cache-Control": "no-store"}


def ready(sources: Sources) -> Moment | None:
    """What every source serves, or None while one serves nothing yet."""
    try:
        return sources.now()
    except RuntimeError:  # a store not yet begun
        return None


def last_good_read(snapshot: Snapshot) -> dict[str, object] | None:
    """The files of `snapshot` served from their last good read (their latest version could not be read): how
    many, and the stacks they hold; None when there are none. Public, so no path and no error: the log has those."""
    if not snapshot.last_good:
        return None
    stacks = dict.fromkeys(stack for kept in snapshot.last_good for stack in kept.stacks)
    return {"files": len(snapshot.last_good), "stacks": [stack.as_dict() for stack in stacks]}


class ProbeLogFilter(logging.Filter):
    """On uvicorn's access log: no line for a probe or a scrape (uvicorn's record args: client, method, path, …)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        path = str(args[2]).split("?", 1)[0] if len(args) > 2 else ""
        return path not in PROBES


def quiet_access_log() -> None:
    """Put `ProbeLogFilter` on uvicorn's access log (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, ProbeLogFilter) for f in access.filters):
        access.addFilter(ProbeLogFilter())


def routes(sources: Sources, metrics: metrics_.Metrics | None) -> list[Route]:
    """The probes for `sources`, and `/metrics` when `metrics` is given."""
    quiet_access_log()

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"}, headers=NO_STORE)

    async def readyz(request: Request) -> JSONResponse:
        moment = ready(sources)
        if moment is None:
            return JSONResponse({"ready": False}, status_code=503, headers=NO_STORE)
        answer: dict[str, object] = {"ready": True, "dataset": sources.datasets.source_status().kind}
        kept = last_good_read(moment.snapshot)
        if kept is not None:  # still ready: every stack is served, some from an earlier read
            answer["last_good_read"] = kept
        return JSONResponse(answer, headers=NO_STORE)

    found = [Route(HEALTH, healthz, methods=["GET"]), Route(READY, readyz, methods=["GET"])]
    if metrics is not None:
        scraped = metrics

        async def scrape(request: Request) -> Response:
            return Response(scraped.text(), media_type=metrics_.CONTENT_TYPE, headers=NO_STORE)

        found.append(Route(METRICS, scrape, methods=["GET"]))
    return found
