"""`GET /card.png`: a link's preview card (the image its Open Graph tags name), and how a link's parameters
are read; the page's first HTML, which names the card, is `middleware/first_response.py`'s.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.queries import links
from components.queries import preview as previews
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.sources.snapshot import Snapshot
from components.web import cache_control, etags
from components.web.allowance import Allowance
from components.web.clients import client_address

CARD_PATH = "/card.png"
MAX_QUERY = settings.CARD_QUERY.value
CARD_CACHE = settings.CARD_CACHE.value
CACHE_CONTROL = cache_control.shared(settings.CARD_CACHE_SECONDS.value)
# A new card costs ~80 ms of CPU, a kept one a few: one address may have 10 drawn at once and 10 more a
# minute; past that it gets the app's card, drawn once per snapshot, not kept by any cache (a crawler
# asks again later for the link's own card).
DRAWS_AT_ONCE, DRAWS_A_MINUTE = settings.CARD_DRAWS_BURST.value, settings.CARD_DRAWS_A_MINUTE.value


def page_query(raw: str) -> dict[str, str]:
    """A link's parameters (the first value of each); a query too long for a link counts as none."""
    if len(raw) > MAX_QUERY:
        return {}
    params: dict[str, str] = {}
    for key, value in parse_qsl(raw, keep_blank_values=True):
        params.setdefault(key, value)
    return params


def base_url(request: Request) -> str:
    """The Space's public address when known (env SPACE_HOST), else the address the request came to."""
    return links.space_url() or links.public_url(request)


class Cards:
    """`GET /card.png`: a link's preview card, drawn once per snapshot and link, a bounded number kept, with an
    ETag; each client address may have `draws` new cards drawn (an `Allowance`), and past that gets the app's
    card."""

    def __init__(self, sources: Sources, size: int = CARD_CACHE, draws: Allowance | None = None):
        self.sources = sources
        self.size = size
        self.draws = draws or Allowance(DRAWS_AT_ONCE, DRAWS_A_MINUTE)
        self.kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.snapshot: Snapshot | None = None
        self.lock = threading.Lock()
        self.drawing = threading.Lock()  # cards are drawn one at a time (each a few ms of Pillow)
        self.app_card: tuple[Snapshot, bytes] | None = None
        self.app_card_lock = threading.Lock()  # held while it is drawn, so it is drawn once

    def card(self, request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        if len(request.url.query) > MAX_QUERY:
            return JSONResponse({"error": "link too long"}, status_code=414)
        moment = self.sources.now()
        params = page_query(request.url.query)
        page = params.get("page", "")
        if page not in previews.PAGES:
            return JSONResponse({"error": "page must be one of " + ", ".join(p for p in previews.PAGES if p)}, 400)
        preview = previews.preview(moment, page, params if page == "" else {})
        key = (page, preview.query)
        with self.lock:
            if self.snapshot is not moment.snapshot:  # a new snapshot: every card may have changed
                self.kept.clear()
                self.snapshot = moment.snapshot
            png = self.kept.get(key)
        if png is None:
            png = self._draw(moment, key, preview, client_address(request.scope))
            if png is None:  # past the address's allowance
                return Response(self.generic(moment), media_type="image/png", headers={"Cache-Control": "no-store"})
        etag = etags.tag_of(png)
        headers = {"Cache-Control": CACHE_CONTROL, "ETag": etag}
        if etags.matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers=headers)
        return Response(png, media_type="image/png", headers=headers)

    def _draw(self, moment: Moment, key: tuple[str, str], preview: previews.Preview, client: str) -> bytes | None:
        """Draw a card, one at a time: a burst of requests for a new link draws it once, and only a drawing
        counts against the asking address's allowance (None: none left)."""
        from components.web.figures import card  # Pillow only when a card is first asked for

        with self.drawing:
            with self.lock:
                png = self.kept.get(key) if self.snapshot is moment.snapshot else None
            if png is None:
                if not self.draws.take(client):
                    return None
                png = card.draw(preview)
                with self.lock:
                    if self.snapshot is moment.snapshot:
                        self.kept[key] = png
                        while len(self.kept) > self.size:
                            self.kept.popitem(last=False)
        return png

    def generic(self, moment: Moment) -> bytes:
        """The app's own card (the Models page's), drawn once per snapshot."""
        from components.web.figures import card

        with self.app_card_lock:
            if self.app_card is None or self.app_card[0] is not moment.snapshot:
                self.app_card = (moment.snapshot, card.draw(previews.preview(moment, "", {})))
            return self.app_card[1]


def routes(sources: Sources) -> list[Route]:
    """`GET /card.png`, answering from the data served at each request."""
    return [Route(CARD_PATH, Cards(sources).card, methods=["GET"])]
