"""HTML of a failure's cause, wherever a page shows one: the cause box of a failed model (Models page),
regressions grouped by cause (Compare page), and the pieces the Failures page lists causes with (links
to the page itself, to each blocked model, to the Neuron documentation). Built with markupsafe: error
text, model ids and versions are data, escaped by construction.
"""

from __future__ import annotations

from urllib.parse import urlencode

from markupsafe import Markup

from components.domain.stacks import StackRef
from components.queries import links
from components.queries.answers import ComparedModel, LookupAnswer
from components.runtime import settings
from components.web.html.markup import join


def open_link(model_id: str, stack: StackRef) -> str:
    """The Models page's address (relative) that opens `model_id` on `stack`."""
    return "./?" + links.model_on_stack(model_id, stack)


def failures_query(stack: StackRef | None, signature: str = "") -> str:
    """The Failures page's query string for a stack (`?neuronx_cc=…&library=…&library_version=…`), with
    one cause opened; empty without a stack."""
    if stack is None:
        return ""
    return "?" + urlencode(stack.params(explicit=True) + ([("cause", signature)] if signature else []))


def failures_link(stack: StackRef, signature: str = "") -> str:
    """The Failures page's address (relative to the app) for a stack, with one cause opened."""
    return "./failures" + failures_query(stack, signature)


def docs_link(url: str | None) -> Markup:
    """ "Neuron documentation", linking to a cause's page there (nothing without one)."""
    if not url:
        return Markup("")
    return Markup(
        '<a href="{}" target="_blank" rel="noopener noreferrer" class="cause-docs">Neuron documentation</a>'
    ).format(url)


def model_links(models: list[str], stack: StackRef, more: int) -> Markup:
    """Links that open each model on `stack`, the first `CAUSE_MODELS`, and how many more there are."""
    parts = [
        Markup('<a href="{}" target="_self" class="model-link">{}</a>').format(open_link(m, stack), m)
        for m in models[: settings.CAUSE_MODELS.value]
    ]
    text = Markup(", ").join(parts)
    return text + (Markup(" and {:,} more").format(more) if more > 0 else Markup(""))


def _plurals(count: int) -> tuple[str, str]:
    """("s", "") for several models ("3 models fail"), ("", "s") for one ("1 model fails")."""
    return ("s", "") if count != 1 else ("", "s")


def cause_panel(answer: LookupAnswer) -> Markup:
    """A failed model's cause in words, how many other models fail the same way (listed, and a link to the
    Failures page), the docs link and "Report this failure". Empty for a model that did not fail."""
    cause = answer.get("cause")
    if not cause:
        return Markup("")
    stack = StackRef.of(answer)
    shared = cause.get("shared_with") or []
    # the error's line is shown above (`details._error_block`): the panel says what else fails the same way
    parts = [Markup('<div class="cause-panel" id="cause">')]
    if shared:
        parts.append(
            Markup(
                '<details class="cause-shared"><summary><b>{:,}</b> other model{} fail{} the same way on this '
                'stack</summary><p class="cause-models">{}</p><p><a href="{}" target="_self">All causes on this '
                "stack</a></p></details>"
            ).format(
                len(shared),
                *_plurals(len(shared)),
                model_links(shared, stack, len(shared) - settings.CAUSE_MODELS.value),
                failures_link(stack, cause["signature"]),
            )  # fmt: skip
        )
    else:
        parts.append(
            Markup('<p class="cause-shared">No other model fails this way on this stack (<a href="{}" '
                   'target="_self">all causes on this stack</a>).</p>').format(failures_link(stack))
        )  # fmt: skip
    actions = [docs_link(cause.get("docs"))]
    if answer.get("report_url"):
        actions.append(
            Markup('<a href="{}" target="_blank" rel="noopener noreferrer" class="report-link">Report this '
                   "failure</a> (a pre-filled issue on aws-neuron/aws-neuron-sdk)").format(answer["report_url"])
        )  # fmt: skip
    parts.append(Markup('<p class="cause-actions">{}</p></div>').format(Markup(" · ").join(a for a in actions if a)))
    return join(parts)


def regressions_by_cause(regressions: list[ComparedModel]) -> Markup:
    """Regressions grouped by cause, most models first: "7 models newly fail with NRT_RESOURCE"."""
    groups: dict[str, list[ComparedModel]] = {}
    for entry in regressions:
        cause = entry.get("cause")
        groups.setdefault((cause["signature"] if cause else "") or "", []).append(entry)
    if not groups:
        return Markup("")
    items = []

    def summary(entries: list[ComparedModel]) -> str:  # the first model's own line: real text, not the mask
        cause = entries[0].get("cause")
        return (cause["example"] if cause else "") or ""

    for entries in sorted(groups.values(), key=lambda g: (-len(g), summary(g))):
        cause = entries[0].get("cause")
        what = (cause["code"] or cause["example"] if cause else "") or "an unknown cause"
        items.append(
            Markup("<li><b>{:,}</b> model{} newly fail{} with <code>{}</code> {}<br><small>{}: {}</small></li>").format(
                len(entries),
                *_plurals(len(entries)),
                what,
                docs_link(cause["docs"] if cause else None),
                summary(entries),
                ", ".join(e["model_id"] for e in entries),
            )  # fmt: skip
        )
    return Markup(
        '<section class="compare-section" id="compare-regressions-by-cause"><h2>Regressions by cause</h2>'
        "<ul>{}</ul></section>"
    ).format(join(items))
