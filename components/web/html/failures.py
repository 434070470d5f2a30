"""A stack's FAILs grouped by cause (the Failures page's result), the cause that blocks the most models first.
Built with markupsafe: error text, model ids and versions are data, escaped by construction (the cause's own
fragments, shared with the Models and Compare pages, are in `causes.py`)."""

from __future__ import annotations

from markupsafe import Markup

from components.domain.stacks import Stack, StackRef
from components.queries.answers import FailureCause, FailuresAnswer
from components.runtime import settings
from components.web.html.causes import docs_link, failures_query, model_links
from components.web.html.markup import join

CSS = """
.cause { border: 1px solid var(--border-color-primary); border-radius: var(--radius-md); margin: 0.45em 0;
  padding: 0.35em 0.8em; background: var(--background-fill-secondary); }
.cause > summary { cursor: pointer; }
.cause-count { font-size: 1.2em; font-weight: 600; margin-right: 0.35em; }
.cause-code { font-weight: 600; }
.cause-summary { display: block; margin-top: 0.15em; word-break: break-word; }
.cause-facts { margin: 0.4em 0; padding-left: 1.2em; }
.cause-models { word-break: break-word; }
"""


def failures_html(answer: FailuresAnswer, stack: Stack | None, opened: str = "") -> Markup:
    """The causes on one stack, ranked by models blocked; the cause `opened` (a signature) starts open."""
    if stack is None:
        return Markup('<p class="summary">No data loaded. See the notice above.</p>')
    causes = answer["causes"]
    # the address bar follows it (ADDRESS_JS), and a person can copy it
    query = failures_query(stack, opened)
    view = Markup(' <a class="view-link" href="{}" data-query="{}">Link to this view</a>').format(query, query)
    if not causes:
        return Markup('<p class="summary" id="failures-summary">No model fails on {}.{}</p>').format(stack.label, view)
    head = Markup(
        '<p class="summary" id="failures-summary"><b>{:,}</b> of {:,} models fail on {}, in <b>{:,}</b> cause{}.{}</p>'
    ).format(answer["failed"], stack.models, stack.label, len(causes), "s" if len(causes) != 1 else "", view)
    return head + join(_cause_block(c, stack, opened) for c in causes)


def _cause_block(cause: FailureCause, stack: Stack, opened: str) -> Markup:
    seen = StackRef.of(cause["first_seen"])
    first = "on this stack" if seen == stack.ref else seen.label
    fixed = []
    for entry in cause["fixed_in"]:
        where = StackRef.of(entry)
        listed = model_links(entry["models"], where, len(entry["models"]) - settings.CAUSE_MODELS.value)
        fixed.append(Markup("<li><b>Fixed in</b> {}: {}</li>").format(where.label, listed))
    facts = [Markup("<li><b>First seen</b> {}</li>").format(first), *fixed]
    if cause["count"] > 1:
        facts.insert(0, Markup("<li>The error line above is {}'s; the other models' differ only in numbers, sizes, "
                               "ids or paths</li>").format(cause["models"][0]))  # fmt: skip
    if cause.get("docs"):
        facts.append(Markup("<li>{}</li>").format(docs_link(cause["docs"])))
    facts.append(Markup("<li>Signature <code>{}</code></li>").format(cause["signature"]))
    return Markup(
        '<details class="cause" id="cause-{}"{}><summary><span class="cause-count">{:,}</span> model{} · '
        '<span class="cause-code">{}</span><code class="cause-summary">{}</code></summary>'
        '<ul class="cause-facts">{}</ul><p class="cause-models">{}</p></details>'
    ).format(
        cause["signature"], Markup(" open") if cause["signature"] == opened else "", cause["count"],
        "s" if cause["count"] != 1 else "", cause.get("code") or "no exception named", cause["example"],
        join(facts), model_links(cause["models"], stack, cause["count"] - settings.CAUSE_MODELS.value),
    )  # fmt: skip
