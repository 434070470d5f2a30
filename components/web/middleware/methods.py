"""Methods: every address the app serves itself answers a method it does not take with 405 and `Allow`, and
HEAD as GET does (the same status and Content-Length, no body).

The app's own routes stand ahead of Gradio, mounted at `/`: a method a route does not take matched Gradio's
mount instead and got Gradio's 404 (`PUT /api/v1/search`), and Gradio's page routes other than `/` take GET
only (HEAD on `/compare` was a 405), while HEAD on `/` was answered with Gradio's page before the app's first
response replaced it (a Content-Length 2 KB short of the page GET sends). `AllowedMethodsMiddleware` decides by path,
before either: an address of the app's own routes takes the methods its route declares (Starlette adds HEAD
to GET), a page takes GET and HEAD, and a page's HEAD is handed on as a GET whose body is dropped. Gradio's
own routes (its API, its files, MCP, which takes DELETE) are not touched.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from starlette.routing import BaseRoute, Match, Route

from components.runtime import settings
from components.web.asgi import ASGIApp, Message, Receive, Scope, Send, relative_path

PAGE_METHODS = ("GET", "HEAD")


class AllowedMethodsMiddleware:
    """ASGI middleware: 405 with `Allow` for a method the address does not take; a page's HEAD run as its GET."""

    def __init__(self, app: ASGIApp, routes: Sequence[BaseRoute] = (), pages: Iterable[str] = ()):
        self.app = app
        self.routes = [route for route in routes if isinstance(route, Route)]
        self.pages = frozenset(pages)

    def allowed(self, scope: Scope) -> Sequence[str] | None:
        """The methods the request's address takes, or None when it is not one the app serves itself."""
        if relative_path(scope) in self.pages:
            return PAGE_METHODS
        for route in self.routes:
            match, _ = route.matches(scope)
            if match is Match.FULL:
                return None  # the route takes this method (a route without `methods` takes any)
            if match is Match.PARTIAL:
                return sorted(route.methods or ())
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        allowed = self.allowed(scope)
        method = scope["method"]
        if allowed is None:
            await self.app(scope, receive, send)
        elif method not in allowed:
            await not_allowed(send, method, allowed)
        elif method == "HEAD" and allowed is PAGE_METHODS:
            await self.app({**scope, "method": "GET"}, receive, headers_only(send))
        else:
            await self.app(scope, receive, send)


def headers_only(send: Send) -> Send:
    """A `send` that passes the answer's status and headers (its Content-Length included) and drops its body."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.body":
            if message.get("more_body", False):
                return
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await send(message)

    return sending


async def not_allowed(send: Send, method: str, allowed: Sequence[str]) -> None:
    """405 naming the methods the address takes, in `Allow` and in the JSON error."""
    methods = ", ".join(allowed)
    body = json.dumps(
        {"error": f"{method[: settings.METHOD_SHOWN.value]} is not allowed here; this address takes {methods}"}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"allow", methods.encode()),
    ]
    await send({"type": "http.response.start", "status": 405, "headers": headers})
    await send({"type": "http.response.body", "body": body})
