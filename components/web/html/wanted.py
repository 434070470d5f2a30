"""The Wanted page's HTML: the untested models people look up most, ranked, built with markupsafe (model
ids are data, escaped by construction)."""

from __future__ import annotations

from urllib.parse import urlencode

from markupsafe import Markup

from components.domain.stacks import StackRef
from components.queries.answers import WantedAnswer
from components.web.html.markup import join

WHAT_IS_STORED = (
    "A lookup counts when the model has no row on its own stack and the Hub knows its id: opening its link on the "
    "Models page, or asking /lookup (named or GET /api/v1/lookup). Each address counts once a model a day, checked "
    "against a "
    "salted hash kept in memory for that day only. What is kept is the model id and a day's count: nothing "
    "about who asked."
)


def wanted_html(answer: WantedAnswer) -> Markup:
    """The ranking as a table, with where the counts are kept and the feed and JSON links."""
    where = (
        Markup("The counts are persisted to a dataset repo every 10 minutes.")
        if answer["persisted"]
        else Markup(
            "<b>The counts are kept in memory only</b> (set HF_TOKEN and WANTED_REPO to persist them): "
            "a restart starts them from zero."
        )
    )
    stack = answer["stack"]
    on = Markup(" on {}").format(StackRef.of(stack).label) if stack else Markup("")
    links = Markup('<a href="./wanted.atom">Atom feed</a> · <a href="./api/v1/wanted">JSON (GET /api/v1/wanted)</a>')
    head = Markup('<p class="summary" id="wanted-summary">Untested{} and looked up in the last {} days: <b>{:,}</b> '
                  "model{}. {} {}</p><p class=\"hint\">{}</p>").format(
        on, answer["days"], len(answer["models"]), "s" if len(answer["models"]) != 1 else "", where, links,
        WHAT_IS_STORED,
    )  # fmt: skip
    if not answer["models"]:
        return (
            head
            + Markup('<p class="summary empty">No untested model has been looked up yet.</p>')
            + unchecked_html(answer)
        )
    rows = join(
        Markup(
            '<tr><td>{}</td><td><a href="./?{}">{}</a></td><td>{:,}</td><td>{}</td><td>{}</td><td>{}</td></tr>'
        ).format(
            rank,
            urlencode({"model": m["model_id"]}),
            m["model_id"],
            m["lookups"],
            f"{m['downloads']:,}" if m["downloads"] is not None else "unknown",
            m["expectation"],
            m["last_day"],
        )  # fmt: skip
        for rank, m in enumerate(answer["models"], 1)
    )
    return (
        head
        + Markup(
            '<table id="wanted-table"><thead><tr><th scope="col">#</th><th scope="col">Model</th>'
            '<th scope="col">Lookups</th><th scope="col">Hub downloads</th><th scope="col">Expectation</th>'
            '<th scope="col">Last looked up</th></tr></thead><tbody>{}</tbody></table>'
        ).format(rows)
        + unchecked_html(answer)
    )


def unchecked_html(answer: WantedAnswer) -> Markup:
    """The ids looked up that the Hub has not confirmed yet, listed apart and not counted (empty when none)."""
    if not answer["not_checked"]:
        return Markup("")
    rows = join(
        Markup("<tr><td>{}</td><td>{:,}</td><td>{}</td></tr>").format(m["model_id"], m["lookups"], m["last_day"])
        for m in answer["not_checked"]
    )
    return Markup(
        '<h2 id="wanted-not-checked">Not checked</h2><p class="hint">Looked up, but not yet confirmed by the Hub '
        "(it could not be asked: the app is offline, or the look-up is still pending). They are not counted above "
        "until the Hub knows them; an id the Hub does not know is dropped.</p>"
        '<table id="wanted-unchecked-table"><thead><tr><th scope="col">Model id</th><th scope="col">Lookups</th>'
        '<th scope="col">Last looked up</th></tr></thead><tbody>{}</tbody></table>'
    ).format(rows)
