"""The first response of every page says what it shows: `FirstResponse` rewrites the HTML of Gradio's page
routes (`/`, `/compare`, ...).

Gradio's template carries its own Open Graph and Twitter tags ("Gradio", "Click to try out the app!", an
`og:url` of `{url}`), twice, and no `<title>`. Per page load, `FirstResponse` reads one `sources.now()`
and puts in their place one set of tags for the link asked for (`queries/preview.py`, with the card of
`routes/card.py`), and paints the default view's first rows (or a model link's answer) as plain
HTML (`html/first_paint.py`). It works on the HTTP response, not on Gradio's internals: a compressed body
is decompressed and compressed again; a response it does not recognise goes out unchanged.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_plus

import anyio
from starlette.middleware import Middleware
from starlette.requests import Request

from components.queries import links
from components.queries import preview as previews
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.sources.moment_cache import MomentCache
from components.web import etags, page_cache, replicas
from components.web.asgi import relative_path
from components.web.deep_links import CARD_PATH, VARY, base_url, page_query
from components.web.html import busy, first_paint, without_scripts

MAX_BODY = settings.PAGE_SCAN.value
# pages without the notice (`#header`) the swap waits for: their tags only, nothing painted
UNPAINTED = ("endpoints",)
_BLOCK = '<div id="first-paint">'
_GRADIO_TAG = r"<meta\b[^>]*\b(?:property|name)=\"(?:og|twitter):[^>]*>"
# each page's path, without the root, -> its key in previews.PAGES
# Off a Space a page's links point where the request says it came: a shared cache keeps each apart.
BUSY_CACHE_CONTROL = b"no-cache"
PAGE_PATHS = {"/": "", **{f"/{p}": p for p in previews.PAGES if p}, **{f"/{p}/": p for p in previews.PAGES if p}}


def unchanged(html: str) -> str:
    return html


def rewrite(
    html: str, moment: Moment, page: str, params: dict[str, str], base: str, slim: Callable[[str], str] = unchanged
) -> str:
    """`html` (Gradio's page) with one set of head tags for the link and the painted first screen; `slim` edits
    the page's inlined config first (`gradio/page_config.py` hands its own in)."""
    preview = previews.preview(moment, page, params)
    path = "/" if page == "" else f"/{page}"
    url = base + path + (f"?{preview.query}" if preview.query else "")
    card_query = preview.query or (f"page={page}" if page else "")
    image = base + CARD_PATH + (f"?{card_query}" if card_query else "")
    if preview.model:
        content = without_scripts.search_form(previews.search_form(moment, params)) + first_paint.model_block(preview)
    elif page == "":
        first = previews.first_rows(moment, params)
        content = without_scripts.search_form(previews.search_form(moment, params)) + first_paint.rows_block(first)
    else:
        content = first_paint.page_block(preview)
    html = re.sub(_GRADIO_TAG, "", slim(html))
    # the balancer's cookie, set before Gradio's scripts open the tab's queue calls (`replicas.py`)
    head = str(first_paint.head(preview, url, image)) + replicas.STICKY_SCRIPT
    html, found = re.subn(r"(<meta charset=\"utf-8\" ?/?>)", lambda m: m.group(1) + head, html, count=1)
    if not found:
        html = html.replace("<head>", "<head>" + head, 1)
    if page in UNPAINTED:
        return html
    painted = str(first_paint.block(preview, content)).replace(_BLOCK, _BLOCK + str(busy.NOTE), 1)
    painted += str(busy.script_tag(base))
    return re.sub(r"(<body\b[^>]*>)", lambda m: m.group(1) + painted, html, count=1)


def without_page(query: bytes) -> bytes:
    """A raw query string without its `page` parameters, however their name is escaped (each other pair kept as
    it was sent)."""
    kept = [pair for pair in query.split(b"&") if unquote_plus(pair.split(b"=", 1)[0].decode("latin-1")) != "page"]
    return b"&".join(kept)


def _decode(body: bytes, encoding: str) -> bytes | None:
    if encoding in ("", "identity"):
        return body
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "br":
        import brotli

        return brotli.decompress(body)
    return None


def _encode(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.compress(body, 6, mtime=0)
    if encoding == "br":
        import brotli

        return brotli.compress(body, quality=4)
    return body


def with_vary(headers: list[tuple[bytes, bytes]], more: bytes) -> list[tuple[bytes, bytes]]:
    """`headers` with one `Vary` line naming what theirs named and `more`, each once: a cache may read only one
    line (nginx 1.22 keeps the last), and then must not lose `Accept-Encoding`."""
    named: dict[bytes, bytes] = {}
    for value in [v for k, v in headers if k.lower() == b"vary"] + [more]:
        for name in (part.strip() for part in value.split(b",")):
            if name:
                named.setdefault(name.lower(), name)
    return [h for h in headers if h[0].lower() != b"vary"] + [(b"vary", b", ".join(named.values()))]


class NotAPage(Exception):
    """What the app answered was not a page to keep; it went out to its request as it came."""


class FirstResponse:
    """ASGI middleware: the HTML of a page route, rewritten as `rewrite()` says, made once per link and data
    moment (`page_cache`); with a note that the live page is busy while `busy()` says its queue is full, and the
    page's inlined config edited by `slim`."""

    def __init__(
        self,
        app: Callable,
        sources: Sources,
        busy: Callable[[], bool] = lambda: False,
        slim: Callable[[str], str] = unchanged,
    ):
        self.app = app
        self.sources = sources
        self.busy = busy
        self.slim = slim
        # the most recent PAGE_CACHE pages of the data served, PAGE_CACHE_BYTES at most: a burst on one link
        # renders it once, and a crawler of huge links cannot make the process keep a gigabyte
        self.pages = MomentCache(
            max_entries=page_cache.PAGE_CACHE, max_bytes=page_cache.PAGE_CACHE_BYTES, weigh=page_cache.Page.weight
        )

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        path = relative_path(scope)
        if scope["type"] != "http" or scope.get("method") != "GET" or path not in PAGE_PATHS:
            await self.app(scope, receive, send)
            return
        moment = self.sources.now()
        rendering = False  # whether this request asks the app for the link's answer
        # Gradio's `/` reads `page` from the query as the name of one of its pages (an unknown one raised a
        # KeyError, a 500); the app's pages are chosen by path, so Gradio is asked without it
        asked = {**scope, "query_string": without_page(scope.get("query_string", b""))}

        async def make() -> page_cache.Page:
            nonlocal rendering
            rendering = True  # what is not a page goes out to this request as it came
            made = await self._render(asked, receive, send, PAGE_PATHS[path], moment)
            if made is None:
                raise NotAPage
            return made

        served = (moment.snapshot, moment.rankings, moment.records)
        key = (*page_cache.key_of(scope, PAGE_PATHS[path]), links.space_url())
        try:
            made = await self.pages.get_async(served, key, make)
        except Exception as error:
            if rendering and not isinstance(error, NotAPage):
                raise
            if not rendering:  # another request asked the app for this link and got no page: ask it again
                await self._render(asked, receive, send, PAGE_PATHS[path], moment)
            return
        await self._send(scope, send, made)

    async def _render(
        self, scope: dict, receive: Callable, send: Callable, page: str, moment: Moment
    ) -> page_cache.Page | None:
        """Gradio's page rewritten (a `Page`, not yet sent), or None once an answer that is not a page this
        app makes has been sent on as it came."""
        start: dict[str, Any] = {}
        chunks: list[bytes] = []
        passing = False
        made: list[page_cache.Page] = []

        async def hold(message: dict) -> None:
            nonlocal passing
            if message["type"] == "http.response.start":
                headers = dict(message.get("headers", ()))
                passing = message.get("status") != 200 or not headers.get(b"content-type", b"").startswith(b"text/html")
                if passing:
                    await send(message)
                else:
                    start.update(message)
                return
            if passing or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            more = bool(message.get("more_body"))
            if sum(map(len, chunks)) > MAX_BODY:  # not a page this app makes: sent on as it is
                passing = True
                await send(start)
                await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": more})
            elif not more:
                made.append(await self._rewritten(scope, start, b"".join(chunks), page, moment))

        await self.app(scope, receive, hold)
        return made[0] if made and not passing else None

    async def _rewritten(self, scope: dict, start: dict, body: bytes, page: str, moment: Moment) -> page_cache.Page:
        headers = [(k, v) for k, v in start.get("headers", ()) if k.lower() not in (b"content-length", b"etag")]
        encoding = dict(headers).get(b"content-encoding", b"").decode("latin-1").strip().lower()
        request = Request(scope)
        params = page_query(request.url.query)
        try:
            raw = _decode(body, encoding)
        except Exception:  # noqa: BLE001 - a body we cannot read goes out as it came
            raw = None
        if raw is not None:
            text = await anyio.to_thread.run_sync(
                rewrite, raw.decode("utf-8"), moment, page, params, base_url(request), self.slim
            )
            body = await anyio.to_thread.run_sync(_encode, text.encode("utf-8"), encoding)
        return page_cache.Page(headers, body)

    async def _send(self, scope: dict, send: Callable, page: page_cache.Page) -> None:
        """`page`, or 304 when the request already holds it; with the busy note shown while the queue is full."""
        body, etag, cache_control = page.body, page.etag, page_cache.CACHE_CONTROL
        if self.busy():  # a moment's state: no shared cache keeps it
            body, etag, cache_control = busy.shown(body), etag[:-1] + b'-busy"', BUSY_CACHE_CONTROL
        headers = [*page.headers, (b"etag", etag), (b"cache-control", cache_control)]
        if links.space_url() is None:  # its links come from the request's host
            headers = with_vary(headers, VARY.encode())
        if etags.scope_matches(scope, etag):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def middleware(
    sources: Sources, busy: Callable[[], bool] = lambda: False, slim: Callable[[str], str] = unchanged
) -> Middleware:
    """The `Middleware` entry of `FirstResponse`; `busy` says whether the live page's queue is full."""
    return Middleware(FirstResponse, sources=sources, busy=busy, slim=slim)
