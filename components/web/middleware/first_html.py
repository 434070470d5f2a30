"""The first response of every page says what it shows: `FirstHtmlMiddleware` rewrites the HTML of Gradio's page
routes (`/`, `/compare`, ...).

Gradio's template carries its own Open Graph and Twitter tags ("Gradio", "Click to try out the app!", an
`og:url` of `{url}`), twice, and no `<title>`. Per page load, `FirstHtmlMiddleware` reads one `sources.now()`
and puts in their place one set of tags for the link asked for (`queries/preview.py`, with the card of
`routes/card.py`), and paints the default view's first rows (or a model link's answer) as plain
HTML (`html/first_paint.py`). It works on the HTTP response, not on Gradio's internals: a compressed body
is decompressed and compressed again; a response it does not recognise goes out unchanged.

Gradio's own answer for a page route is the same for every link of that page: Gradio reads none of the
link's parameters (`links.LINK_PARAMS`), only the path, the host, the root path, the scheme, the encodings
taken and its own parameters (`deep_link`, ...). So it is asked once per such key and data moment
(`GradioPage`, decoded and slimmed), and each new link costs only its own rewrite: a crowd spread over
hundreds of model links no longer runs Gradio's page route, its config copy and `slim`'s JSON round trip
per link (issue 48).
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote_plus

import anyio
from starlette.requests import Request

from components.queries import details, links
from components.queries import preview as previews
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.sources.moment_cache import MomentCache
from components.web import cache_control, etags, page_cache, replicas
from components.web.asgi import relative_path
from components.web.deep_links import CARD_PATH, base_url, page_query
from components.web.errors import NotAPage
from components.web.html import busy, first_paint, notice, without_scripts
from components.web.html import grid as html_grid

LINK_PARAMS = frozenset(links.LINK_PARAMS)
# pages without the notice (`#header`) the swap waits for: their tags only, nothing painted
UNPAINTED = ("endpoints",)
_BLOCK = '<div id="first-paint">'
_GRADIO_TAG = r"<meta\b[^>]*\b(?:property|name)=\"(?:og|twitter):[^>]*>"
BUSY_CACHE_CONTROL = b"no-cache"
# each page's path, without the root, -> its key in previews.PAGES
PAGE_PATHS = {"/": "", **{f"/{p}": p for p in previews.PAGES if p}, **{f"/{p}/": p for p in previews.PAGES if p}}


def unchanged(html: str) -> str:
    return html


@dataclass(frozen=True)
class Answered:
    """A link whose first HTML carries the live page's answer, so the page needs no load event (the Gradio
    half's `ModelsPage.first_answer`): `fill` puts it into Gradio's page (None where that page does not take
    it: the page then keeps its load event); `on_loop`: cheap enough to be made on the event loop."""

    fill: Callable[[str], str | None]
    on_loop: bool


# The Models page's (`/`) links whose page carries its answer: an `Answered`, or None for a link that keeps its
# load event.
LiveAnswers = Callable[[Moment, dict[str, str]], "Answered | None"]


def no_answers(moment: Moment, params: dict[str, str]) -> Answered | None:
    return None


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
        # the answer first, as on the live model page; the form under it, to search with scripts off
        top = notice.header(moment.snapshot.provenance, moment.snapshot.skipped, moment.rankings.label())
        form = without_scripts.search_form(previews.search_form(moment, params))
        content = first_paint.model_block(preview, top, form)
    elif page == "":
        first = previews.first_rows(moment, params)
        content = without_scripts.search_form(previews.search_form(moment, params)) + first_paint.rows_block(first)
    elif page == "grid":  # the whole grid, usable with scripts off (its form is a GET form)
        content = first_paint.page_block(preview) + html_grid.STYLE + html_grid.page_for(moment, params)[1]
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


def one_model(moment: Moment, page: str, params: dict[str, str]) -> bool:
    """Whether a link's first screen is one model's answer (the Models page opening a model), whose cost does not
    grow with the data, rather than a view's rows."""
    return page == "" and bool(links.model_in_data(moment.snapshot, params.get("model", "")))


def without(query: bytes, names: frozenset[str] | tuple[str, ...]) -> bytes:
    """A raw query string without the parameters called one of `names`, however their name is escaped (each
    other pair kept as it was sent)."""
    kept = [pair for pair in query.split(b"&") if unquote_plus(pair.split(b"=", 1)[0].decode("latin-1")) not in names]
    return b"&".join(kept)


def without_page(query: bytes) -> bytes:
    """A raw query string without its `page` parameters (`without`)."""
    return without(query, ("page",))


@dataclass(frozen=True)
class GradioPage:
    """Gradio's answer for a page route, as every link of that page shares it: its headers (no length or
    ETag), its encoding, and its HTML decoded with the inlined config slimmed (`text`); `text` is None for a
    body that could not be read, which then goes out as it came (`body`)."""

    headers: list[tuple[bytes, bytes]]
    encoding: str
    text: str | None
    body: bytes

    def weight(self) -> int:
        return len(self.body) + 2 * len(self.text or "")


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
        return gzip.compress(body, settings.PAGE_GZIP_LEVEL.value, mtime=0)
    if encoding == "br":
        import brotli

        return brotli.compress(body, quality=settings.PAGE_BROTLI_QUALITY.value)
    return body


def accepted(header: str) -> str:
    """The encoding this app compresses a page in that an `Accept-Encoding` header takes: "br", else "gzip",
    else "" (none: the page goes out as it is)."""
    taken = set()
    for part in header.lower().split(","):
        name, _, weight = part.strip().partition(";")
        quality = weight.strip().removeprefix("q=")
        try:
            refused = bool(weight) and float(quality) == 0
        except ValueError:
            refused = False
        if not refused:
            taken.add(name.strip())
    return "br" if "br" in taken else "gzip" if "gzip" in taken else ""


def _read(headers: list[tuple[bytes, bytes]], encoding: str, body: bytes, slim: Callable[[str], str]) -> GradioPage:
    """Gradio's page decoded and slimmed; a body that cannot be read is kept as it came."""
    try:
        raw = _decode(body, encoding)
    except Exception:  # noqa: BLE001 - a body we cannot read goes out as it came
        raw = None
    text = slim(raw.decode("utf-8")) if raw is not None else None
    return GradioPage(headers, encoding, text, body)


class FirstHtmlMiddleware:
    """ASGI middleware: the HTML of a page route, rewritten as `rewrite()` says, made once per link and data
    moment (`page_cache`); with a note that the live page is busy while `busy()` says its queue is full, and the
    page's inlined config edited by `slim`."""

    def __init__(
        self,
        app: Callable,
        sources: Sources,
        busy: Callable[[], bool] = lambda: False,
        slim: Callable[[str], str] = unchanged,
        answers: LiveAnswers = no_answers,
    ):
        self.app = app
        self.sources = sources
        self.busy = busy
        self.slim = slim
        self.answers = answers
        # the most recent PAGE_CACHE pages of the data served, PAGE_CACHE_BYTES at most: a burst on one link
        # renders it once, and a crawler of huge links cannot make the process keep a gigabyte; each at most
        # `PAGE_AGE` seconds, since a page that carries the live answer says how long ago the data was read
        self.pages = MomentCache(
            max_entries=settings.PAGE_CACHE.value, max_bytes=settings.PAGE_CACHE_BYTES.value, weigh=page_cache.Page.weight,
            ttl=settings.LOAD_ANSWER_AGE.value,
        )  # fmt: skip
        # Gradio's own answers, one per page, host, encoding and Gradio's parameters: each link is rewritten from it
        self.gradio_pages = MomentCache(max_entries=settings.GRADIO_PAGES.value, max_bytes=settings.PAGE_CACHE_BYTES.value,
                                        weigh=GradioPage.weight)  # fmt: skip

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        path = relative_path(scope)
        if scope["type"] != "http" or scope.get("method") != "GET" or path not in PAGE_PATHS:
            await self.app(scope, receive, send)
            return
        moment = self.sources.now()
        page = PAGE_PATHS[path]
        # Gradio's `/` reads `page` from the query as the name of one of its pages (an unknown one raised a
        # KeyError, a 500); the app's pages are chosen by path, so Gradio is asked without it
        asked = {**scope, "query_string": without_page(scope.get("query_string", b""))}
        served = (moment.snapshot, moment.rankings, moment.records)

        async def make() -> page_cache.Page:
            # what Gradio's answer depends on: the page's key without the link's parameters, which Gradio never reads
            gradio_key = (*page_cache.key_of({**asked, "query_string": without(asked["query_string"], LINK_PARAMS)},
                                             page), links.space_url())  # fmt: skip
            gradio = await self.gradio_pages.get_async(
                served, gradio_key, lambda: self._ask_gradio(asked, receive, send)
            )
            return await self._rewritten(asked, gradio, page, moment)

        key = (*page_cache.key_of(scope, page), links.space_url())
        try:
            made = await self.pages.get_async(served, key, make)
        except NotAPage:  # what the app answered went out to this request as it came
            return
        await self._send(scope, send, made)

    async def _ask_gradio(self, scope: dict, receive: Callable, send: Callable) -> GradioPage:
        """Gradio's answer for a page route, decoded and slimmed (a `GradioPage`, not yet sent); raises `NotAPage`
        once an answer that is not a page this app makes has been sent on to this request as it came."""
        start: dict[str, Any] = {}
        chunks: list[bytes] = []
        passing = False
        body: list[bytes] = []

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
            if sum(map(len, chunks)) > settings.PAGE_SCAN.value:  # not a page this app makes: sent on as it is
                passing = True
                await send(start)
                await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": more})
            elif not more:
                body.append(b"".join(chunks))

        await self.app(scope, receive, hold)
        if passing or not body:
            raise NotAPage
        headers = [(k, v) for k, v in start.get("headers", ()) if k.lower() not in (b"content-length", b"etag")]
        encoding = dict(headers).get(b"content-encoding", b"").decode("latin-1").strip().lower()
        return await anyio.to_thread.run_sync(_read, headers, encoding, body[0], self.slim)

    async def _rewritten(self, scope: dict, gradio: GradioPage, page: str, moment: Moment) -> page_cache.Page:
        """The link's page: Gradio's answer rewritten for it (`rewrite`), in its encoding, and carrying the live
        page's answer where the Gradio half gives one (`answers`: the page then needs no load event). A model's
        link paints one model's answer, a few ms: it is made on the event loop, since handing it to a worker
        thread made a crowd of new links wait longer (issue 48); any other link may paint a search's rows: a
        worker thread."""
        if gradio.text is None:
            return page_cache.Page(gradio.headers, gradio.body, encoding=gradio.encoding)
        request = Request(scope)
        params, base = page_query(request.url.query), base_url(request)
        answered = self.answers(moment, params) if page == "" else None
        # Gradio sends its pages uncompressed (its compression reads the path's extension): the page is compressed
        # here, once, in the encoding the request takes, rather than by the compression layer at every visit
        encoding, headers = gradio.encoding, gradio.headers
        if encoding in ("", "identity") and (taken := accepted(request.headers.get("accept-encoding", ""))):
            encoding = taken
            headers = cache_control.with_vary([*headers, (b"content-encoding", taken.encode())], "Accept-Encoding")

        def made() -> page_cache.Page:
            html = cast(str, gradio.text)
            with details.shared():  # the live page's panel and the painted block look the model up once
                filled = answered.fill(html) if answered is not None else None
                body = rewrite(filled if filled is not None else html, moment, page, params, base).encode("utf-8")
            return page_cache.Page(headers, _encode(body, encoding), live=filled is not None, encoding=encoding)

        if answered.on_loop if answered is not None else one_model(moment, page, params):
            return made()
        return await anyio.to_thread.run_sync(made)

    async def _send(self, scope: dict, send: Callable, page: page_cache.Page) -> None:
        """`page`, or 304 when the request already holds it; with the busy note shown while the queue is full."""
        body, etag, kept = page.body, page.etag, page_cache.CACHE_CONTROL
        if self.busy() and not page.live:  # a moment's state: no shared cache keeps it
            if page.busy_body is None:  # made once per page, in its encoding
                try:
                    plain = _decode(body, page.encoding)
                except Exception:  # noqa: BLE001 - a body we cannot read goes out as it came
                    plain = None
                page.busy_body = _encode(busy.shown(plain), page.encoding) if plain is not None else body
            body, etag, kept = page.busy_body, etag[:-1] + b'-busy"', BUSY_CACHE_CONTROL
        headers = [*page.headers, (b"etag", etag), (b"cache-control", kept)]
        headers = cache_control.with_vary(headers, *cache_control.origin())  # its root and links
        if etags.scope_matches(scope, etag):
            await send({"type": "http.response.start", "status": 304, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})
