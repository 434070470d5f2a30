"""`GET /busy.js`: the script that keeps a busy tab's painted answer and retries its live page
(`html/busy.py`), `GET /table.js`: the results table's script (`html/table.py`), and `GET /page.js`: every
page's script (`html/head.py`); files of their own so
that browsers keep them across pages instead of every first HTML carrying them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from components.runtime import settings
from components.web import etags
from components.web.html import busy, head, table

# A script changes only with a release of the app; an hour, then a check by ETag.
CACHE_CONTROL = f"public, max-age={settings.SCRIPT_CACHE_SECONDS.value}"


def script(text: str):
    """The endpoint that serves `text` as JavaScript, with an ETag of its own."""
    body = text.encode()
    etag = etags.tag_of(body)

    def serve(request: Request) -> Response:
        return etags.response(request, body, "text/javascript", {"Cache-Control": CACHE_CONTROL}, etag)

    return serve


busy_script = script(busy.SCRIPT)


def routes() -> list[Route]:
    """`GET /busy.js`, `GET /table.js` and `GET /page.js`."""
    return [
        Route(busy.SCRIPT_PATH, busy_script, methods=["GET"]),
        Route(table.SCRIPT_PATH, script(table.SCRIPT), methods=["GET"]),
        Route(head.SCRIPT_PATH, script(head.SCRIPT), methods=["GET"]),
    ]
