"""`GET /grid.atom`: the support grid's changes (an architecture that starts working, or regresses, on a stack) as
an Atom feed, in the family of `/feed.atom` (`badge_feed.py`). The JSON twin is GET /api/v1/grid (`api_v1.py`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from components.queries import links
from components.queries.grid_feed import FEED_PATH, grid_feed
from components.sources.app_sources import Sources
from components.web import cache_control
from components.web.routes.badge_feed import CACHE_CONTROL, FEED_TYPE


def routes(sources: Sources) -> list[Route]:
    """`GET /grid.atom`, reading the data served at each request."""

    def feed(request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        # its links name the app's origin: off a Space the request's, which a shared cache must key on
        base = links.space_url() or links.public_url(request)
        headers = cache_control.headers(CACHE_CONTROL, cache_control.origin())
        now = sources.now()
        return Response(grid_feed(now.snapshot, now.records, base), media_type=FEED_TYPE, headers=headers)

    return [Route(FEED_PATH, feed, methods=["GET"])]
