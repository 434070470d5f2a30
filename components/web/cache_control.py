"""The `Cache-Control` of what the app lets a shared cache keep (a CDN, the nginx of `deploy/`): the first HTML
of a link, the `/api/v1` answers, the cards, the badges and the feeds. None of them holds anything personal,
and each varies only with what its `Vary` names.

`s-maxage` is how long a shared cache serves an answer without asking; `stale-while-revalidate`, how much
longer it may serve it while it asks the app again in the background. So a crowd following one link costs the
replicas one request per link a period, and new data reaches every visitor within the two together.
"""

from __future__ import annotations

from components.runtime import settings

# The first HTML: browsers ask again every time (an If-None-Match, answered 304 while the data holds), a
# shared cache keeps it a minute: the dataset changes a few times a day.
PAGE_SECONDS = settings.PAGE_CACHE_SECONDS.value


def shared(seconds: int, *, browser: int | None = None) -> str:
    """`Cache-Control` for an answer a shared cache may serve for `seconds` (and as long again while it asks
    anew); a browser keeps it `browser` seconds (default: as long)."""
    kept = seconds if browser is None else browser
    return f"public, max-age={kept}, s-maxage={seconds}, stale-while-revalidate={seconds}"


PAGE = shared(PAGE_SECONDS, browser=0)
