"""The first response of every page says what it shows: `FirstResponse` rewrites the HTML of Gradio's page
routes (`/`, `/compare`, ...).

Gradio's template carries its own Open Graph and Twitter tags ("Gradio", "Click to try out the app!", an
`og:url` of `{url}`), twice, and no `<title>`. Per page load, `FirstResponse` reads one `sources.now()`
and puts in their place one set of tags for the link asked for (`queries/preview.py`, with the card of
`routes/first_response.py`), and paints the default view's first rows (or a model link's answer) as plain
HTML (`html/first_paint.py`). It works on the HTTP response, not on Gradio's internals: a compressed body
is decompressed and compressed again; a response it does not recognise goes out unchanged.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from typing import Any

import anyio
from starlette.middleware import Middleware
from starlette.requests import Request

from components.queries import preview as previews
from components.sources.app_sources import Moment, Sources
from components.web.asgi import relative_path
from components.web.html import first_paint, whole_job
from components.web.middleware import page_config
from components.web.routes.first_response import CARD_PATH, base_url, page_query

MAX_BODY = 4 * 1024 * 1024  # a page's HTML is ~40 KB; anything far larger is passed on untouched
# pages without the notice (`#header`) the swap waits for: their tags only, nothing painted
UNPAINTED = ("endpoints",)
_GRADIO_TAG = r"<meta\b[^>]*\b(?:property|name)=\"(?:og|twitter):[^>]*>"
# each page's path, without the root, -> its key in previews.PAGES
PAGE_PATHS = {"/": "", **{f"/{p}": p for p in previews.PAGES if p}, **{f"/{p}/": p for p in previews.PAGES if p}}


def rewrite(html: str, moment: Moment, page: str, params: dict[str, str], base: str) -> str:
    """`html` (Gradio's page) with one set of head tags for the link and the painted first screen."""
    preview = previews.preview(moment, page, params)
    path = "/" if page == "" else f"/{page}"
    url = base + path + (f"?{preview.query}" if preview.query else "")
    card_query = preview.query or (f"page={page}" if page else "")
    image = base + CARD_PATH + (f"?{card_query}" if card_query else "")
    if preview.model:
        content = whole_job.search_form(previews.search_form(moment, params)) + first_paint.model_block(preview)
    elif page == "":
        rows, result = previews.first_rows(moment, params)
        content = whole_job.search_form(previews.search_form(moment, params)) + first_paint.rows_block(rows, result)
    else:
        content = first_paint.page_block(preview)
    html = re.sub(_GRADIO_TAG, "", page_config.slim(html))
    head = str(first_paint.head(preview, url, image))
    html, found = re.subn(r"(<meta charset=\"utf-8\" ?/?>)", lambda m: m.group(1) + head, html, count=1)
    if not found:
        html = html.replace("<head>", "<head>" + head, 1)
    if page in UNPAINTED:
        return html
    painted = str(first_paint.block(preview, content))
    return re.sub(r"(<body\b[^>]*>)", lambda m: m.group(1) + painted, html, count=1)


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


class FirstResponse:
    """ASGI middleware: the HTML of a page route, rewritten as `rewrite()` says."""

    def __init__(self, app: Callable, sources: Sources):
        self.app = app
        self.sources = sources

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        path = relative_path(scope)
        if scope["type"] != "http" or scope.get("method") != "GET" or path not in PAGE_PATHS:
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []
        passing = False

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
                await self._answer(scope, start, b"".join(chunks), send, PAGE_PATHS[path])

        await self.app(scope, receive, hold)

    async def _answer(self, scope: dict, start: dict, body: bytes, send: Callable, page: str) -> None:
        headers = [(k, v) for k, v in start.get("headers", ()) if k.lower() != b"content-length"]
        encoding = dict(headers).get(b"content-encoding", b"").decode("latin-1").strip().lower()
        request = Request(scope)
        params = page_query(request.url.query)
        try:
            raw = _decode(body, encoding)
        except Exception:  # noqa: BLE001 - a body we cannot read goes out as it came
            raw = None
        if raw is not None:
            moment = self.sources.now()
            text = await anyio.to_thread.run_sync(rewrite, raw.decode("utf-8"), moment, page, params, base_url(request))
            body = _encode(text.encode("utf-8"), encoding)
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def middleware(sources: Sources) -> Middleware:
    """The `Middleware` entry of `FirstResponse`."""
    return Middleware(FirstResponse, sources=sources)
