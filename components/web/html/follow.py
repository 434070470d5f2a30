"""How to follow a model from the page: the Markdown of its badge for a model card and its own feed (under its
details), and the page's link to the feed of every change. The routes that answer them: `routes/badge_feed.py`.
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from markupsafe import Markup

from components.domain.stacks import FIRST_LIBRARY, StackRef, normalise_library
from components.queries.answers import LookupAnswer
from components.sources.records import hub_id
from components.web.html.markup import copy_block

BADGE_PATH, FEED_PATH = "/badge", "/feed.atom"
SHIELDS_ENDPOINT = "https://img.shields.io/endpoint?url="


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
