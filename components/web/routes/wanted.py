"""`GET /wanted.atom`: the untested models people look up most, as an Atom feed (in the family of
`/feed.atom`, `badge_feed.py`). The JSON twin is GET /api/v1/wanted (`api_v1.py`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from components.queries import links, wanted
from components.queries.wanted_feed import wanted_feed
from components.runtime import settings
from components.sources import wanted_store
from components.sources.app_sources import Sources
from components.web import cache_control
from components.web.deep_links import VARY
from components.web.routes.badge_feed import FEED_TYPE

WANTED_FEED_PATH = "/wanted.atom"
CACHE_CONTROL = cache_control.shared(settings.WANTED_FEED_CACHE_SECONDS.value)


def routes(sources: Sources, counts: wanted.Wanted | None = None) -> list[Route]:
    """`GET /wanted.atom` over `counts` (default: the process's own)."""
    counts = counts if counts is not None else wanted_store.shared()

    def feed(request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        base = links.space_url()
        headers = {"Cache-Control": CACHE_CONTROL}
        if base is None:  # off a Space: links from the request's own address, which a cache must key on
            base = links.public_url(request)
            headers["Vary"] = VARY
        document = wanted_feed(wanted.current(counts, sources), base)
        return Response(document, media_type=FEED_TYPE, headers=headers)

    return [Route(WANTED_FEED_PATH, feed, methods=["GET"])]
