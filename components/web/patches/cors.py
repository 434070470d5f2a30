"""The plain HTTP API answers its own CORS headers (`Access-Control-Allow-Origin: *`), on a Space too.

Gradio wraps every route in its `CustomCORSMiddleware`: off localhost it echoes the caller's origin with
`Access-Control-Allow-Credentials: true` and answers browser preflights itself, so `/api/v1` (read-only,
public, no cookies: `routes/api_v1.py` sets `*` and answers its own preflight) could not keep the `*` its
contract promises. This patch lets requests under `/api/v1/` pass Gradio's CORS layer untouched; every
other path keeps Gradio's behaviour.
"""

from __future__ import annotations

from gradio import route_utils

from components.web.patches.guard import Patch, need, need_parameters
from components.web.routes.api_v1 import PREFIX


def check() -> None:
    need(route_utils, "CustomCORSMiddleware.__call__")
    need_parameters(route_utils.CustomCORSMiddleware.__call__, "self", "scope", "receive", "send")
    middleware = route_utils.CustomCORSMiddleware(app=None)
    need(middleware, "app")


def apply() -> object:
    original = route_utils.CustomCORSMiddleware.__call__

    async def __call__(self, scope, receive, send):
        if scope.get("type") == "http" and scope.get("path", "").startswith(PREFIX + "/"):
            await self.app(scope, receive, send)  # the API's own CORS headers stand
            return
        await original(self, scope, receive, send)

    __call__.__wrapped__ = original  # Gradio's own, for whoever needs it back
    route_utils.CustomCORSMiddleware.__call__ = __call__
    return original


PATCH = Patch("cors", check, apply)
