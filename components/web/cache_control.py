"""The `Cache-Control` and `Vary` of what the app lets a shared cache keep (a CDN, the nginx of `deploy/`): the
first HTML of a link, the `/api/v1` answers, the cards, the badges and the feeds. None of them holds anything
personal, and each names in `Vary` every request header it was shaped by: `ORIGIN` when it holds the app's
absolute addresses (`origin`), `Accept-Encoding` when it is compressed (`with_vary` merges them into one line).

`s-maxage` is how long a shared cache serves an answer without asking; `stale-while-revalidate`, how much
longer it may serve it while it asks the app again in the background. So a crowd following one link costs the
replicas one request per link a period, and new data reaches every visitor within the two together.
"""

from __future__ import annotations

from collections.abc import Iterable

from components.queries import links
from components.runtime import settings


def shared(seconds: int, *, browser: int | None = None) -> str:
    """`Cache-Control` for an answer a shared cache may serve for `seconds` (and as long again while it asks
    anew); a browser keeps it `browser` seconds (default: as long)."""
    kept = seconds if browser is None else browser
    return f"public, max-age={kept}, s-maxage={seconds}, stale-while-revalidate={seconds}"


PAGE = shared(settings.PAGE_CACHE_SECONDS.value, browser=0)


# What an absolute address of the app is made from (`middleware/origin.py`, `links.public_url`): the request's
# `Host`, and its scheme, which uvicorn takes from `X-Forwarded-Proto` when a trusted proxy sent the request
# (`clients.py`). Issue 61: an answer that named only `Host` let one request with `X-Forwarded-Proto: https`
# put https links into the page every later visitor of a shared cache got.
ORIGIN = ("Host", "X-Forwarded-Proto")


def origin() -> tuple[str, ...]:
    """The request headers an answer holding the app's absolute addresses was shaped by: none on a Space (every
    such address is `https://SPACE_HOST`), else `ORIGIN`."""
    return () if links.space_url() else ORIGIN


def vary(*names: Iterable[str] | str) -> str:
    """One `Vary` value naming each header once (in the order first named), from names and lists of them."""
    named: dict[str, str] = {}
    for group in names:
        for value in [group] if isinstance(group, str) else group:
            for name in (part.strip() for part in value.split(",")):
                if name:
                    named.setdefault(name.lower(), name)
    return ", ".join(named.values())


def headers(cache_control: str, *shaped_by: Iterable[str] | str) -> dict[str, str]:
    """A Starlette answer's `Cache-Control`, and its `Vary` naming the request headers it was shaped by (none: no
    `Vary`; the compression layer adds `Accept-Encoding` to it)."""
    value = vary(*shaped_by)
    return {"Cache-Control": cache_control, **({"Vary": value} if value else {})}


def with_vary(raw: list[tuple[bytes, bytes]], *more: str) -> list[tuple[bytes, bytes]]:
    """ASGI headers `raw` with one `Vary` line naming what theirs named and `more`, each once: a cache may read
    only one line (nginx 1.22 keeps the last), and must then lose none of them. No name at all: no `Vary` line."""
    given = [v.decode("latin-1") for k, v in raw if k.lower() == b"vary"]
    value = vary(given, more)
    rest = [h for h in raw if h[0].lower() != b"vary"]
    return rest + [(b"vary", value.encode("latin-1"))] if value else rest
