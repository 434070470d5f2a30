"""HTML for a model nobody ran on the chosen stack: "not tested" first, then the evidence, and the
offer to look up an id the search did not find. Built with markupsafe: every value is escaped."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from markupsafe import Markup

from components.domain.results import NOT_TESTED
from components.domain.stacks import StackRef, library_name
from components.queries.answers import LookupAnswer
from components.queries.formatting import cores_noted, cores_phrase, parameters
from components.sources.records import hub_id
from components.web.html.markup import badge, copy_block


def evidence_html(answer: LookupAnswer) -> Markup:
    """The evidence block of a `not tested` lookup answer (empty for a tested one)."""
    if answer.get("kind") != NOT_TESTED or "evidence" not in answer:
        return Markup("")
    model_id = answer.get("model_id", "")
    if answer.get("ran_with"):
        return ran_with_html(answer)
    parts = [
        Markup('<div class="evidence" id="evidence"><p class="evidence-intro">What the data says about '
               "<code>{}</code> instead of a run on this stack:</p>").format(model_id)
    ]  # fmt: skip
    parts.append(expectation_html(answer.get("expectation")))
    if answer.get("record_unknown"):
        parts.append(
            Markup('<p class="record-unknown">Its Hub record is unknown: {}.</p>').format(answer["record_unknown"])
        )
    found = answer["evidence"]
    items = []
    base = found.get("base_model")
    if base:
        hops = base.get("hops") or 1
        via = Markup("") if hops == 1 else Markup(" ({} steps up)").format(hops)
        items.append(
            Markup("<li><b>Base model{}:</b> <code>{}</code>, <b>{}</b>{} on this stack.</li>").format(
                via, base["model_id"], base.get("result") or "unknown", cores_phrase(base.get("tp"))
            )
        )
    else:
        items.append(Markup("<li><b>Base model:</b> none with a run on this stack is known.</li>"))
    arch = found.get("architecture")
    if arch and not arch["tested"]:
        items.append(
            Markup("<li><b>Architecture</b> <code>{}</code>: no model of it was run on this stack.</li>").format(
                arch["name"]
            )
        )
    elif arch:
        closest = Markup(", ").join(
            Markup("<code>{}</code> ({}, {}{})").format(m["model_id"], parameters(m.get("num_parameters")),
                                                        m.get("result") or "unknown", cores_phrase(m.get("tp")))
            for m in arch.get("closest", [])
        )  # fmt: skip
        items.append(
            Markup("<li><b>Architecture:</b> <code>{}</code>, {} of {} tested models pass on this stack{}</li>").format(
                arch["name"],
                arch["passed"],
                arch["tested"],
                Markup("; closest in size: {}.").format(closest) if closest else Markup("."),
            )  # fmt: skip
        )
    else:
        items.append(Markup("<li><b>Architecture:</b> unknown, so no models of the same kind can be compared.</li>"))
    parts.append(Markup('<ul class="evidence-list">{}</ul>').format(Markup("").join(items)))
    if answer.get("gated"):
        parts.append(
            Markup('<p class="gated">Its files are gated on the Hub ({}): accept its terms there, and log in '
                   "with <code>hf auth login</code>, before running a script.</p>").format(answer["gated"])
        )  # fmt: skip
    if answer.get("suggested_from"):
        parts.append(
            Markup(
                '<p class="suggested"><b>The run.py below is UNTESTED:</b> adapted from the tested script of '
                "<code>{}</code> with the model id replaced and {} chosen from the parameter "
                "count. There is no NEFF cache for it: compiled graphs are per model.</p>"
            ).format(answer["suggested_from"], cores_noted(answer.get("suggested_tp"), trainium=True))
        )
    elif answer.get("suggested_note"):
        parts.append(Markup('<p class="suggested">{}.</p>').format(answer["suggested_note"].capitalize()))
    parts.append(request_test_html(answer))
    parts.append(Markup("</div>"))
    return Markup("").join(parts)


def ran_with_html(answer: LookupAnswer) -> Markup:
    """A model that ran with another library than the stack's: where it ran, its answer there and a link to it."""
    own = answer["ran_with"]
    return Markup(
        '<div class="evidence" id="evidence"><p class="ran-with" id="ran-with"><code>{}</code> was run with {}, not '
        '{}: this library does not run it. Its answer is {} on {}: <a href="./?{}" id="ran-with-link" '
        'target="_self">open it there</a>.</p></div>'
    ).format(
        answer.get("model_id", ""), library_name(own["library"]),
        library_name(answer["library"]) if answer.get("library") else "this library",
        badge(own["kind"], own["result"]), StackRef.of(own).label, own["link"],
    )  # fmt: skip


EXPECTATION_CLASSES = {"likely runs": "runs", "likely fails": "fails"}


def expectation_html(
    expectation: Mapping[str, object] | None,
    *,
    basis: str = "the evidence below",
    element_id: str | None = "expectation",
) -> Markup:
    """The "What to expect" paragraph: a verdict and its reason, worded and styled as an expectation (never a
    result badge: the result stays "not tested"), said to come from `basis`. Empty without an expectation."""
    if not expectation or not expectation.get("verdict"):
        return Markup("")
    verdict = str(expectation["verdict"])
    reason = str(expectation.get("reason") or "")
    return Markup(
        '<p class="expectation expectation-{}"{}><span class="expectation-label">What to expect '
        '(from {}, not a run):</span> <b class="expectation-verdict">{}</b>{}</p>'
    ).format(
        EXPECTATION_CLASSES.get(verdict, "unknown"),
        Markup(' id="{}"').format(element_id) if element_id else Markup(""),
        basis,
        verdict[:1].upper() + verdict[1:],
        Markup(" — {}.").format(reason) if reason else Markup("."),
    )


def lookup_offer(text: str, query_string: str) -> Markup:
    """An offer to open `text` as a model when a search for it found no row ("" if it is no Hub id)."""
    model_id = hub_id(text)
    if not model_id or "/" not in model_id:
        return Markup("")
    return Markup(
        '<p class="lookup-offer">No tested model matches. <a href="./?{}" id="lookup-offer" target="_self">'
        "Look up <code>{}</code></a> to see what the data says about it.</p>"
    ).format(query_string or urlencode({"model": model_id}), model_id)


def request_test_html(answer: LookupAnswer) -> Markup:
    """The offer to ask for a run of an untested model in the dataset's discussions ("" when there is none)."""
    asking = answer.get("request_test")
    if not asking:
        return Markup("")
    return Markup(
        '<p class="request-test"><b>Want it tested?</b> <a id="request-test" href="{}" target="_blank" '
        'rel="noopener">Ask in the dataset\'s discussions</a>: the form opens with this request filled in '
        "(copy it if it opens empty).</p>{}"
    ).format(asking["url"], copy_block("request-test-text", asking["text"], "Copy the request"))
