"""`GET /card.png`: a link's preview card (the image its Open Graph tags name); the page's first HTML, which
names the card, is `middleware/first_html.py`'s, and how a link's parameters are read is `deep_links.py`'s.
"""

from __future__ import annotations

import threading

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.queries import preview as previews
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.sources.moment_cache import MomentCache
from components.web import cache_control, etags
from components.web.allowance import Allowance
from components.web.clients import client_address
from components.web.deep_links import CARD_PATH, page_query
from components.web.errors import PastAllowance

CACHE_CONTROL = cache_control.shared(settings.CARD_CACHE_SECONDS.value)


class Cards:
    """`GET /card.png`: a link's preview card, drawn once per snapshot and link, a bounded number kept, with an
    ETag; each client address may have `draws` new cards drawn (an `Allowance`), and past that gets the app's
    card."""

    def __init__(self, sources: Sources, size: int = settings.CARD_CACHE.value, draws: Allowance | None = None):
        self.sources = sources
        self.draws = draws or Allowance(settings.CARD_DRAWS_BURST.value, settings.CARD_DRAWS_A_MINUTE.value)
        self.kept = MomentCache(max_entries=size)  # per snapshot: a link's card, by its page and query
        self.drawing = threading.Lock()  # cards are drawn one at a time (each a few ms of Pillow)
        self.app_card = MomentCache(max_entries=1)  # per snapshot: the card of the Models page as it opens

    def card(self, request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        if len(request.url.query) > settings.CARD_QUERY.value:
            return JSONResponse({"error": "link too long"}, status_code=414)
        moment = self.sources.now()
        params = page_query(request.url.query)
        page = params.get("page", "")
        if page not in previews.PAGES:
            return JSONResponse({"error": "page must be one of " + ", ".join(p for p in previews.PAGES if p)}, 400)
        preview = previews.preview(moment, page, params if page == "" else {})
        client = client_address(request.scope)
        try:
            png = self.kept.get((moment.snapshot,), (page, preview.query), lambda: self._draw(preview, client))
        except PastAllowance:
            return Response(self.generic(moment), media_type="image/png", headers={"Cache-Control": "no-store"})
        return etags.response(request, png, "image/png", {"Cache-Control": CACHE_CONTROL})

    def _draw(self, preview: previews.Preview, client: str) -> bytes:
        """Draw a card, one at a time; only a drawing counts against the asking address's allowance (none
        left: `PastAllowance`, and a request waiting for the same card draws it on its own allowance)."""
        from components.web.figures import card  # Pillow only when a card is first asked for

        with self.drawing:
            if not self.draws.take(client):
                raise PastAllowance
            return card.draw(preview)

    def generic(self, moment: Moment) -> bytes:
        """The app's own card (the Models page's), drawn once per snapshot."""
        from components.web.figures import card

        return self.app_card.get((moment.snapshot,), "app", lambda: card.draw(previews.preview(moment, "", {})))


def routes(sources: Sources) -> list[Route]:
    """`GET /card.png`, answering from the data served at each request."""
    return [Route(CARD_PATH, Cards(sources).card, methods=["GET"])]
