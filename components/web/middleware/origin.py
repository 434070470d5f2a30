"""Every request reaches the app with the app's own origin, never one a header made up.

Gradio builds a page's `root` (where the page fetches its scripts, `theme.css` and `queue/join`) from
`X-Gradio-Server`, `X-Forwarded-Host` and `X-Forwarded-Proto`, and the app's absolute links (og:url, og:image,
the feeds) were built from the last two. Nothing validates those headers, and the first HTML of a link is kept
for every later visitor: one request with `X-Gradio-Server: https://evil.example` sent everyone who followed
that link to another origin. `HostRewriteMiddleware` stands first in the app's middleware and hands on each request
with:

- no forwarding header anything downstream could read (`FORWARDING`): the scheme is the connection's, which
  uvicorn's proxy-headers middleware sets from `X-Forwarded-Proto` only for a trusted proxy (`clients.py`), so
  an answer a shared cache keeps names that header in its `Vary` (`cache_control.origin`);
- `Host` from the app's configuration: the public address (`SPACE_HOST` on a Space, else env `PUBLIC_URL`)
  when the request names it or any host the app does not serve itself; the request's own `Host` only when it
  names the address the connection reached (a visitor on the machine itself, a test on loopback) or, with no
  public address configured, when it is a well-formed host. Anything else is a 400;
- `X-Forwarded-For` holding the one client address uvicorn settled on (`clients.client_address`), so a call
  Gradio makes to the app on a caller's behalf (MCP's tools) is counted as that caller.
"""

from __future__ import annotations

import functools
import logging
from typing import NamedTuple
from urllib.parse import urlsplit

from components.queries import links
from components.runtime import environment, settings
from components.web import clients
from components.web.asgi import ASGIApp, Receive, Scope, Send, answer

log = logging.getLogger(__name__)

# What Gradio, Starlette, uvicorn or the app read today to build an address, and what a later release may read.
FORWARDING = frozenset(
    {
        b"x-gradio-server",
        b"x-forwarded-host",
        b"x-forwarded-proto",
        b"x-forwarded-port",
        b"x-forwarded-prefix",
        b"x-forwarded-server",
        b"x-forwarded-scheme",
        b"x-forwarded-ssl",
        b"x-original-host",
        b"x-host",
        b"forwarded",
    }
)


class Origin(NamedTuple):
    """A scheme and a host (with its port when not the scheme's own)."""

    scheme: str
    host: str


@functools.lru_cache(maxsize=4)
def _parsed(space_host: str, public_url: str) -> Origin | None:
    if space_host:
        if links.HOST.fullmatch(space_host):
            return Origin("https", space_host.lower())
        log.warning(
            "SPACE_HOST=%r is not a host name: the request's own Host is used",
            space_host[: settings.ENV_VALUE_QUOTED.value],
        )
    if public_url:
        parts = urlsplit(public_url)
        if parts.scheme in ("http", "https") and links.HOST.fullmatch(parts.netloc) and parts.path in ("", "/") \
                and not parts.query and not parts.fragment:  # fmt: skip
            return Origin(parts.scheme, parts.netloc.lower())
        log.warning(
            "PUBLIC_URL=%r is not http(s)://HOST[:PORT]: the request's own Host is used",
            public_url[: settings.ENV_VALUE_QUOTED.value],
        )
    return None


def configured() -> Origin | None:
    """The app's public origin from its configuration: `https://SPACE_HOST` on a Space, else env `PUBLIC_URL`
    (`http(s)://HOST[:PORT]`; a path prefix is `GRADIO_ROOT_PATH`'s), else None."""
    return _parsed(environment.SPACE_HOST.get(), environment.PUBLIC_URL.get())


def own_address(scope: Scope, host: str) -> bool:
    """Whether `host` names the address and port the connection reached (`localhost` for a loopback one)."""
    server = scope.get("server")
    if not server or server[1] is None:
        return False
    address, port = str(server[0]), int(server[1])
    names = {address, f"[{address}]"} | ({"localhost"} if address in ("127.0.0.1", "::1") else set())
    return host in {f"{name}:{port}" for name in names}


def origin_of(scope: Scope, host: str, public: Origin | None) -> Origin | None:
    """The origin a request is served as (see the module's docstring); None for a Host that cannot be served."""
    scheme = str(scope.get("scheme") or "http")
    host = host.strip().lower()
    if public is not None:
        if host == public.host:
            return public
        return Origin(scheme, host) if own_address(scope, host) else public
    return Origin(scheme, host) if links.HOST.fullmatch(host) else None


class HostRewriteMiddleware:
    """ASGI middleware: each HTTP request handed on with the app's own origin in `Host` and `scheme`, without
    the forwarding headers, and with the settled client address as its only `X-Forwarded-For`.

    Not Starlette's `TrustedHostMiddleware`: that one refuses a `Host` outside its list (a plain-text 400), where
    a Space's proxy and a visitor on the machine each send their own; this one rewrites it to the app's origin
    and drops the forwarding headers, which Starlette's leaves to be read."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers, host = [], ""
        for key, value in scope.get("headers", ()):
            name = key.lower()
            if name == b"host":
                host = host or value.decode("latin-1")
            elif name not in FORWARDING and name != b"x-forwarded-for":
                headers.append((key, value))
        origin = origin_of(scope, host, configured())
        if origin is None:
            await answer(send, 400, "a Host header naming a host name or address is needed")
            return
        headers.append((b"host", origin.host.encode("latin-1")))
        headers.append((b"x-forwarded-for", clients.client_address(scope).encode("latin-1")))
        # a copy: the server's own scope keeps what arrived (uvicorn reads it to frame the answer)
        await self.app({**scope, "headers": headers, "scheme": origin.scheme}, receive, send)
