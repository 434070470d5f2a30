"""Be found where people look: `GET /badge` (a shields.io endpoint badge for model cards), `GET /feed.atom`
(an Atom feed of result changes), and what the model panel offers to copy from them.

Both routes answer from the current snapshot only; absolute links are made from the address the
request came to (a Space's proxy names it in X-Forwarded-Proto and X-Forwarded-Host).
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlencode

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.queries import badge, feed
from components.sources.records import hub_id
from components.sources.snapshot import Snapshot
from components.sources.stacks import FIRST_LIBRARY, normalise_library
from components.sources.store import DatasetStore

BADGE_PATH, FEED_PATH = "/badge", "/feed.atom"
FEED_TYPE = "application/atom+xml; charset=utf-8"
# shields.io asks again after this long; feed readers poll: the data changes a few times a day
CACHE_CONTROL = f"public, max-age={badge.CACHE_SECONDS}"
MAX_QUERY = 2048  # a badge or feed link is a few hundred characters
SHIELDS_ENDPOINT = "https://img.shields.io/endpoint?url="
# What a Host header may be: a name or an IPv4/IPv6 address, and a port. Anything else is not echoed into links.
_HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$")


def public_url(request: Request) -> str:
    """The app's address as the person or program calling it sees it (`https://owner-space.hf.space`), without
    a trailing slash: X-Forwarded-Proto and X-Forwarded-Host (their first value) win over the request's own."""
    scheme = _first(request.headers.get("x-forwarded-proto")).lower() or request.url.scheme
    if scheme not in ("http", "https"):
        scheme = request.url.scheme
    host = _first(request.headers.get("x-forwarded-host")) or request.headers.get("host", "")
    if not _HOST.match(host):
        host = "localhost"
    root = str(request.scope.get("root_path") or "").rstrip("/")
    return f"{scheme}://{host}{quote(root)}"


def _first(value: str | None) -> str:
    return (value or "").split(",")[0].strip()


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BeFound:
    def __init__(self, datasets: DatasetStore):
        self.datasets = datasets

    def snapshot(self) -> Snapshot:
        return self.datasets.current()

    def badge(self, request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        if len(request.url.query) > MAX_QUERY:
            return _error("link too long", 414)
        params = request.query_params
        spec = badge.stack_spec(params.get("library", ""), params.get("library_version", ""),
                                params.get("transformers", ""))  # fmt: skip
        neuronx_cc = params.get("neuronx_cc", "")
        try:
            answer = badge.badge(
                self.snapshot(), params.get("model", ""), neuronx_cc, spec, pinned=bool(neuronx_cc.strip() or spec)
            )
        except badge.MalformedId as malformed:
            return _error(str(malformed), 400)
        return JSONResponse(answer, headers={"Cache-Control": CACHE_CONTROL})

    def feed(self, request: Request) -> Response:
        if len(request.url.query) > MAX_QUERY:
            return _error("link too long", 414)
        asked = request.query_params.get("model")
        model = hub_id(asked) if asked is not None else None
        if asked is not None and model is None:
            return _error("model must be a Hub model id such as Qwen/Qwen3-0.6B", 400)
        document = feed.feed(self.snapshot(), public_url(request), model)
        return Response(document, media_type=FEED_TYPE, headers={"Cache-Control": CACHE_CONTROL})


def routes(datasets: DatasetStore) -> list[Route]:
    """`GET /badge` and `GET /feed.atom`, reading `datasets.current()` on each request."""
    found = BeFound(datasets)
    return [Route(BADGE_PATH, found.badge, methods=["GET"]), Route(FEED_PATH, found.feed, methods=["GET"])]


# ---- what the model panel offers ----------------------------------------------------------------


def badge_query(model_id: str, library: str | None = None) -> str:
    """The query string of a model's unpinned badge and deep link: the model, and its library when it is
    not Transformers (the page's default), so both speak for the newest stack of the model's library."""
    pairs = [("model", model_id)]
    if library and normalise_library(library) != FIRST_LIBRARY:
        pairs.append(("library", library))
    return urlencode(pairs)


def badge_markdown(model_id: str, library: str | None = None, base_url: str = ".") -> str:
    """The Markdown to paste into a model card: a shields.io endpoint badge of the model, linking to its
    deep link. `base_url` is the app's public address; "." leaves both addresses relative (the page
    makes them absolute in the browser, where the address people see is known)."""
    base = base_url.rstrip("/")
    query = badge_query(model_id, library)
    endpoint = SHIELDS_ENDPOINT + quote(f"{base}{BADGE_PATH}?{query}", safe="")
    return f"[![Trainium]({endpoint})]({base}/?{query})"


# The badge box arrives with relative addresses (a handler does not know the address the browser shows);
# this makes them absolute from the page's own address, as the "Link to this view" box does.
BADGE_JS = """(md) => {
  const relative = encodeURIComponent("./badge?");
  if (!md || !md.includes(relative)) return md;
  const base = new URL("./", window.location.href).href.replace(/\\/$/, "");
  return md.split(relative).join(encodeURIComponent(base + "/badge?")).split("](./?").join("](" + base + "/?");
}"""


def panel_links(answer: dict) -> Markup:
    """The line under a model's details: its own feed of result changes."""
    model_id = hub_id(answer.get("model_id"))
    if not model_id:
        return Markup("")
    return Markup(
        '<p class="be-found"><a id="model-feed" href="feed.atom?{}" target="_blank" rel="noopener">'
        "Follow <code>{}</code>'s result changes (Atom feed)</a></p>"
    ).format(urlencode({"model": model_id}), model_id)


# Feed readers and browsers find the feed from any page (a relative address: it works under any root).
FEED_HEAD = '<link rel="alternate" type="application/atom+xml" title="Result changes" href="feed.atom">'


def feed_link() -> Markup:
    """The page's link to the feed of every model's result changes."""
    return Markup(
        '<a id="feed" href="feed.atom" target="_blank" rel="noopener" title="Regressions, fixes and newly '
        'tested models, newest first">Feed of result changes (Atom)</a>'
    )
