"""`GET /busy.js`: the script that keeps a busy tab's painted answer and retries its live page
(`html/busy.py`), a file of its own so that browsers keep it across pages instead of every first HTML
carrying it."""

from __future__ import annotations

import hashlib

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from components.web.html import busy

# The script changes only with a release of the app; an hour, then a check by ETag.
CACHE_CONTROL = "public, max-age=3600"
ETAG = '"' + hashlib.sha256(busy.SCRIPT.encode()).hexdigest()[:32] + '"'


def busy_script(request: Request) -> Response:
    headers = {"Cache-Control": CACHE_CONTROL, "ETag": ETAG}
    if ETAG in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(busy.SCRIPT, media_type="text/javascript", headers=headers)


def routes() -> list[Route]:
    """`GET /busy.js`."""
    return [Route(busy.SCRIPT_PATH, busy_script, methods=["GET"])]
