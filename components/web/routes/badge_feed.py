"""The two routes that follow a model outside the app: `GET /badge` (a shields.io endpoint badge for model cards)
and `GET /feed.atom` (an Atom feed of result changes). What the model panel offers to copy from them is `html/follow.py`'s.

Both routes answer from the current snapshot only; the feed's absolute links are made from env
`SPACE_HOST` on a Space, and elsewhere from the origin the request came to (its `Host`, which the server has
checked, `middleware/origin.py`, and its scheme), with a `Vary` naming both (`cache_control.origin`) so no shared
cache mixes callers' feeds.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.domain.stacks import StackRef
from components.queries import badge, feed
from components.queries.errors import MalformedId
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.records import hub_id
from components.sources.snapshot import Snapshot
from components.web import cache_control
from components.web.deep_links import base_url
from components.web.errors import answer_of
from components.web.html.follow import BADGE_PATH, FEED_PATH

FEED_TYPE = "application/atom+xml; charset=utf-8"
# shields.io asks again after this long; feed readers poll: the data changes a few times a day
CACHE_CONTROL = cache_control.shared(settings.BADGE_CACHE_SECONDS.value)


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BadgeAndFeed:
    """The two routes' handlers, each reading the snapshot served at its request."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def snapshot(self) -> Snapshot:
        return self.sources.now().snapshot

    def badge(self, request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        if len(request.url.query) > settings.BADGE_FEED_QUERY.value:
            return _error("link too long", 414)
        params = request.query_params
        asked = StackRef.from_params(params)  # as the page reads its deep links
        try:
            answer = badge.badge(
                self.snapshot(), params.get("model", ""), asked.neuronx_cc, asked.spec,
                pinned=bool(asked.neuronx_cc or asked.spec),
            )  # fmt: skip
        except MalformedId as malformed:
            status, words = answer_of(malformed)
            return _error(words, status)
        return JSONResponse(answer, headers={"Cache-Control": CACHE_CONTROL})

    def feed(self, request: Request) -> Response:
        if len(request.url.query) > settings.BADGE_FEED_QUERY.value:
            return _error("link too long", 414)
        asked = request.query_params.get("model", "").strip()  # empty: every model
        model = hub_id(asked) if asked else None
        if asked and model is None:
            return _error("model must be a Hub model id such as Qwen/Qwen3-0.6B", 400)
        # its links name the app's origin: off a Space the request's, which a shared cache must key on
        headers = cache_control.headers(CACHE_CONTROL, cache_control.origin())
        document = feed.feed(self.snapshot(), base_url(request), model)
        return Response(document, media_type=FEED_TYPE, headers=headers)


def routes(sources: Sources) -> list[Route]:
    """`GET /badge` and `GET /feed.atom`, reading the data served at each request."""
    handlers = BadgeAndFeed(sources)
    return [Route(BADGE_PATH, handlers.badge, methods=["GET"]), Route(FEED_PATH, handlers.feed, methods=["GET"])]
