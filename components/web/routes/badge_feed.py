"""Be found where people look: `GET /badge` (a shields.io endpoint badge for model cards), `GET /feed.atom`
(an Atom feed of result changes), and what the model panel offers to copy from them.

Both routes answer from the current snapshot only; the feed's absolute links are made from env
`SPACE_HOST` on a Space, and elsewhere from the address the request came to (its `Host`, which the server has
checked, `middleware/origin.py`), with `Vary: Host` so no shared cache mixes callers' feeds.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.domain.stacks import FIRST_LIBRARY, StackRef, normalise_library
from components.queries import badge, feed, links
from components.queries.answers import LookupAnswer
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.records import hub_id
from components.sources.snapshot import Snapshot
from components.web import cache_control

BADGE_PATH, FEED_PATH = "/badge", "/feed.atom"
FEED_TYPE = "application/atom+xml; charset=utf-8"
# shields.io asks again after this long; feed readers poll: the data changes a few times a day
CACHE_CONTROL = cache_control.shared(badge.CACHE_SECONDS)
# Off a Space the feed's links come from this header: a shared cache must not give one caller's to another.
FEED_VARY = "Host"
MAX_QUERY = settings.BADGE_FEED_QUERY.value
SHIELDS_ENDPOINT = "https://img.shields.io/endpoint?url="


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BeFound:
    def __init__(self, sources: Sources):
        self.sources = sources

    def snapshot(self) -> Snapshot:
        return self.sources.now().snapshot

    def badge(self, request: Request) -> Response:  # sync: Starlette runs it in its thread pool
        if len(request.url.query) > MAX_QUERY:
            return _error("link too long", 414)
        params = request.query_params
        asked = StackRef.from_params(params)  # as the page reads its deep links
        try:
            answer = badge.badge(
                self.snapshot(), params.get("model", ""), asked.neuronx_cc, asked.spec,
                pinned=bool(asked.neuronx_cc or asked.spec),
            )  # fmt: skip
        except badge.MalformedId as malformed:
            return _error(str(malformed), 400)
        return JSONResponse(answer, headers={"Cache-Control": CACHE_CONTROL})

    def feed(self, request: Request) -> Response:
        if len(request.url.query) > MAX_QUERY:
            return _error("link too long", 414)
        asked = request.query_params.get("model", "").strip()  # empty: every model
        model = hub_id(asked) if asked else None
        if asked and model is None:
            return _error("model must be a Hub model id such as Qwen/Qwen3-0.6B", 400)
        base = links.space_url()
        headers = {"Cache-Control": CACHE_CONTROL}
        if base is None:  # off a Space: links from the request's own address, which a cache must key on
            base = links.public_url(request)
            headers["Vary"] = FEED_VARY
        document = feed.feed(self.snapshot(), base, model)
        return Response(document, media_type=FEED_TYPE, headers=headers)


def routes(sources: Sources) -> list[Route]:
    """`GET /badge` and `GET /feed.atom`, reading the data served at each request."""
    found = BeFound(sources)
    return [Route(BADGE_PATH, found.badge, methods=["GET"]), Route(FEED_PATH, found.feed, methods=["GET"])]


# ---- what the model panel offers ----------------------------------------------------------------


def badge_query(model_id: str, library: str | None = None) -> str:
    """The query string of a model's unpinned badge and deep link: the model, and its library when it is
    not Transformers (the page's default), so both speak for the newest stack of the model's library."""
    pairs = [("model", model_id)]
    if library and normalise_library(library) != FIRST_LIBRARY:
        pairs += StackRef("", library, "").params()  # `library=L`: its newest version
    return urlencode(pairs)


def badge_markdown(model_id: str, library: str | None = None, base_url: str = ".") -> str:
    """The Markdown to paste into a model card: a shields.io endpoint badge of the model, linking to its
    deep link. `base_url` is the app's public address; "." leaves both addresses relative (the page
    makes them absolute in the browser, where the address people see is known)."""
    base = base_url.rstrip("/")
    query = badge_query(model_id, library)
    endpoint = SHIELDS_ENDPOINT + quote(f"{base}{BADGE_PATH}?{query}", safe="")
    return f"[![Trainium]({endpoint})]({base}/?{query})"


def copy_block(element_id: str, text: str, label: str, relative: bool = False) -> Markup:
    """Text to copy, in a `<pre>` with a Copy button (`html/head.py`'s page script copies it); `relative`: the text
    holds `badge_markdown`'s relative addresses, which the script makes absolute in the browser."""
    return Markup(
        '<pre class="copyable" id="{}"{}>{}</pre><button type="button" class="copy-button" data-copy="{}" '
        'aria-label="{}">Copy</button>'
    ).format(element_id, Markup(" data-relative") if relative else "", text, element_id, label)


def panel_html(answer: LookupAnswer) -> Markup:
    """Under a model's details: the Markdown of its badge for a model card, and its own feed."""
    model_id = hub_id(answer.get("model_id"))
    if not model_id:
        return Markup("")
    # the badge speaks for the newest stack of the library the model last ran with, whatever stack is shown
    library = next((h.get("library") for h in answer.get("history") or ()), answer.get("library"))
    return Markup(
        '<div class="be-found"><p><b>On its model card:</b> this Markdown shows its result on the newest stack, '
        "as a badge that links here.</p>{}"
        '<p><a id="model-feed" href="feed.atom?{}" target="_blank" rel="noopener">Follow its result changes '
        "(Atom feed)</a></p></div>"
    ).format(
        copy_block("badge-markdown", badge_markdown(model_id, library), "Copy the badge Markdown", relative=True),
        urlencode({"model": model_id}),
    )


def feed_link() -> Markup:
    """The page's link to the feed of every model's result changes."""
    return Markup('<a id="feed" href="feed.atom">Feed of changes</a>')
