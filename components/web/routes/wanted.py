"""`GET /wanted.atom`: the untested models people look up most, as an Atom feed (in the family of
`/feed.atom`, `badge_feed.py`). The JSON twin is GET /api/v1/wanted (`api_v1.py`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from components.queries import wanted
from components.queries.wanted_feed import wanted_feed
from components.runtime import settings
from components.sources import wanted_store
from components.sources.app_sources import Sources
from components.web import cache_control
from components.web.deep_links import base_url
from components.web.routes.badge_feed import FEED_TYPE

WANTED_FEED_PATH = "/wanted.atom"
CACHE_CONTROL = cache_control.shared(settings.WANTED_FEED_CACHE_SECONDS.value)


def routes(sources: Sources, counts: wanted.Wanted | None = None) -> list[Route]:
    """`GET /wanted.atom` over `counts` (default: the process's own)."""
    counts = counts if counts is not None else wanted_store.shared()

    def feed(request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        # its links name the app's origin: off a Space the request's, which a shared cache must key on
        headers = cache_control.headers(CACHE_CONTROL, cache_control.origin())
        document = wanted_feed(wanted.current(counts, sources), base_url(request))
        return Response(document, media_type=FEED_TYPE, headers=headers)

    return [Route(WANTED_FEED_PATH, feed, methods=["GET"])]
