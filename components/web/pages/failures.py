"""The "Failures" page (`/failures`): a stack's FAILs grouped by cause, the cause that blocks the most models
first; and the cause as the Models page and the Compare page show it. Built with markupsafe: error text,
model ids and versions are data, escaped by construction.

The page reads `?neuronx_cc=V&transformers=V` (or `library=L&library_version=V`) and `cause=SIGNATURE` (that
cause opened): the Models page links here with them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from urllib.parse import urlencode

import gradio as gr
from markupsafe import Markup

from components.domain.stacks import picker_choices, stack_label
from components.queries import failures, links
from components.sources.moment import Sources
from components.sources.snapshot import Snapshot, Stack
from components.web.html.render import join
from components.web.pages.wiring import answering, by_name

MAX_MODELS_LISTED = 60  # per cause; the rest are counted (the /failures API lists them all)
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
INTRO = (
    "Every FAIL on the stack grouped by **cause**: its `NCC_…` compiler code or `NRT_…` runtime status where the "
    "error has one, else its exception type, with the error line's run-to-run details (numbers, sizes, core ids, "
    "addresses, paths) masked. The causes blocking the most models come first. *First seen*: the oldest stack "
    "of the same library where the cause blocked a model. *Fixed in*: newer stacks of that library where some "
    "of its models pass."
)


def open_link(model_id: str, stack: Stack) -> str:
    """The Models page's address (relative) that opens `model_id` on `stack`."""
    return "./?" + links.model_on_stack(model_id, stack)


# The page's answer names its view in `data-query` (`?neuronx_cc=…`): the address bar shows it, without a new
# history entry.
ADDRESS_JS = """(html) => {
  const m = /class="view-link" href="[^"]*" data-query="([^"]*)"/.exec(html || "");
  if (!m) return;
  const u = new URL(window.location.href);
  u.search = m[1].replace(/&amp;/g, "&");
  try { window.history.replaceState(null, "", u); } catch (e) {}
}"""


def page_link(stack_ref: Mapping, signature: str = "") -> str:
    """This page's address (relative to the app) for a stack, with one cause opened."""
    return "./failures" + _query(stack_ref, signature)


def _query(stack_ref: Mapping | None, signature: str = "") -> str:
    """The page's query string for a stack (`?neuronx_cc=…&library=…&library_version=…`), with one cause opened."""
    if stack_ref is None:
        return ""
    pairs = [(k, stack_ref[k]) for k in ("neuronx_cc", "library", "library_version")]
    return "?" + urlencode(pairs + ([("cause", signature)] if signature else []))


def _docs(url: str | None) -> Markup:
    if not url:
        return Markup("")
    return Markup(
        '<a href="{}" target="_blank" rel="noopener noreferrer" class="cause-docs">Neuron documentation</a>'
    ).format(url)


def _joined(models: list[str], stack: Stack, more: int) -> Markup:
    """Links that open each model on `stack`, the first `MAX_MODELS_LISTED`, and how many more there are."""
    parts = [
        Markup('<a href="{}" target="_self" class="model-link">{}</a>').format(open_link(m, stack), m)
        for m in models[:MAX_MODELS_LISTED]
    ]
    text = Markup(", ").join(parts)
    return text + (Markup(" and {:,} more").format(more) if more > 0 else Markup(""))


# ---- on a failed model's panel (Models page) ---------------------------------------------------------


def cause_panel(answer: dict) -> Markup:
    """A failed model's cause in words, how many other models fail the same way (listed, and a link to the
    Failures page), the docs link and "Report this failure". Empty for a model that did not fail."""
    cause = answer.get("cause")
    if not cause:
        return Markup("")
    ref = {k: answer.get(k) for k in ("neuronx_cc", "library", "library_version")}
    stack = Stack(str(ref["neuronx_cc"]), str(ref["library"]), str(ref["library_version"]), 0, 0)
    shared = cause.get("shared_with") or []
    parts = [
        Markup('<div class="cause-panel" id="cause"><p><b>Why it failed:</b> <code>{}</code></p>').format(
            cause.get("summary")
        )
    ]
    if shared:
        parts.append(
            Markup(
                '<details class="cause-shared"><summary><b>{:,}</b> other model{} fail{} the same way on this '
                'stack</summary><p class="cause-models">{}</p><p><a href="{}" target="_self">All causes on this '
                "stack</a></p></details>"
            ).format(
                len(shared),
                "s" if len(shared) != 1 else "",
                "" if len(shared) != 1 else "s",
                _joined(shared, stack, len(shared) - MAX_MODELS_LISTED),
                page_link(ref, cause["signature"]),
            )  # fmt: skip
        )
    else:
        parts.append(
            Markup('<p class="cause-shared">No other model fails this way on this stack (<a href="{}" '
                   'target="_self">all causes on this stack</a>).</p>').format(page_link(ref))
        )  # fmt: skip
    actions = [_docs(cause.get("docs"))]
    if answer.get("report_url"):
        actions.append(
            Markup('<a href="{}" target="_blank" rel="noopener noreferrer" class="report-link">Report this '
                   "failure</a> (a pre-filled issue on aws-neuron/aws-neuron-sdk)").format(answer["report_url"])
        )  # fmt: skip
    parts.append(Markup('<p class="cause-actions">{}</p></div>').format(Markup(" · ").join(a for a in actions if a)))
    return join(parts)


# ---- on the Compare page -----------------------------------------------------------------------------


def regressions_by_cause(regressions: list[dict]) -> Markup:
    """Regressions grouped by cause, most models first: "7 models newly fail with NRT_RESOURCE"."""
    groups: dict[str, list[dict]] = {}
    for entry in regressions:
        cause = entry.get("cause") or {}
        groups.setdefault(cause.get("signature") or "", []).append(entry)
    if not groups:
        return Markup("")
    items = []
    for entries in sorted(groups.values(), key=lambda g: (-len(g), (g[0].get("cause") or {}).get("summary") or "")):
        cause = entries[0].get("cause") or {}
        what = cause.get("code") or cause.get("summary") or "an unknown cause"
        items.append(
            Markup("<li><b>{:,}</b> model{} newly fail{} with <code>{}</code> {}<br><small>{}: {}</small></li>").format(
                len(entries),
                "s" if len(entries) != 1 else "",
                "" if len(entries) != 1 else "s",
                what,
                _docs(cause.get("docs")),
                cause.get("summary") or "",
                ", ".join(e["model_id"] for e in entries),
            )  # fmt: skip
        )
    return Markup(
        '<section class="compare-section" id="compare-regressions-by-cause"><h3>Regressions by cause</h3>'
        "<ul>{}</ul></section>"
    ).format(join(items))


# ---- the Failures page -------------------------------------------------------------------------------


def failures_html(answer: dict, snapshot: Snapshot, stack: Stack | None, opened: str = "") -> Markup:
    """The causes on one stack, ranked by models blocked; the cause `opened` (a signature) starts open."""
    if stack is None:
        return Markup('<p class="summary">No data loaded. See the notice above.</p>')
    causes = answer["causes"]
    # the address bar follows it (ADDRESS_JS), and a person can copy it
    query = _query(stack.as_dict(), opened)
    view = Markup(' <a class="view-link" href="{}" data-query="{}">Link to this view</a>').format(query, query)
    if not causes:
        return Markup('<p class="summary" id="failures-summary">No model fails on {}.{}</p>').format(
            stack_label(stack), view
        )
    head = Markup(
        '<p class="summary" id="failures-summary"><b>{:,}</b> of {:,} models fail on {}, in <b>{:,}</b> cause{}.{}</p>'
    ).format(answer["failed"], stack.models, stack_label(stack), len(causes), "s" if len(causes) != 1 else "", view)
    return head + join(_cause_block(c, stack, opened) for c in causes)


def _cause_block(cause: dict, stack: Stack, opened: str) -> Markup:
    seen = cause["first_seen"]
    first = (
        Markup("on this stack") if seen["neuronx_cc"] == stack.neuronx_cc and seen["library_version"] == stack.library_version
        else Markup("{}").format(stack_label(seen))
    )  # fmt: skip
    fixed = [
        Markup("<li><b>Fixed in</b> {}: {}</li>").format(stack_label(f), _joined(f["models"], Stack(
            f["neuronx_cc"], f["library"], f["library_version"], 0, 0), len(f["models"]) - MAX_MODELS_LISTED))
        for f in cause["fixed_in"]
    ]  # fmt: skip
    facts = [Markup("<li><b>First seen</b> {}</li>").format(first), *fixed]
    if cause.get("docs"):
        facts.append(Markup("<li>{}</li>").format(_docs(cause["docs"])))
    facts.append(Markup("<li>Signature <code>{}</code></li>").format(cause["signature"]))
    return Markup(
        '<details class="cause" id="cause-{}"{}><summary><span class="cause-count">{:,}</span> model{} · '
        '<span class="cause-code">{}</span><code class="cause-summary">{}</code></summary>'
        '<ul class="cause-facts">{}</ul><p class="cause-models">{}</p></details>'
    ).format(
        cause["signature"], Markup(" open") if cause["signature"] == opened else "", cause["count"],
        "s" if cause["count"] != 1 else "", cause.get("code") or "no exception named", cause["summary"],
        join(facts), _joined(cause["models"], stack, cause["count"] - MAX_MODELS_LISTED),
    )  # fmt: skip


class FailuresTab:
    """The page's handlers: inputs by picker name, answers by component name (see `wiring.py`)."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def layout(self) -> None:
        gr.Markdown(INTRO, elem_classes=["hint"])
        self.stack = gr.Dropdown(label="Stack", elem_id="failures-stack", min_width=260)
        self.result = gr.HTML(elem_id="failures-result", css_template=CSS)

    def on_open(self, request: gr.Request | None = None, stack: str | None = None) -> dict:
        """Fill the stack picker (from the address's stack, else the choice kept, else the newest) and draw."""
        snapshot = self.sources.now().snapshot
        params = dict(request.query_params) if request is not None else {}
        chosen = None
        if any(params.get(k) for k in ("neuronx_cc", "transformers", "library", "library_version")):
            query = links.parse(params, snapshot).query
            chosen = snapshot.stack_or_default(query.neuronx_cc, query.library_version)
        chosen = chosen or snapshot.picker_stack(stack, snapshot.newest)
        picker = gr.update(choices=picker_choices(snapshot.stacks), value=chosen.picker_value if chosen else None)
        opened = str(params.get("cause") or "")[:40]
        return {"stack": picker, "result": self._draw(snapshot, chosen, opened)}

    def on_stack(self, stack: str | None = None) -> dict:
        snapshot = self.sources.now().snapshot
        return {"result": self._draw(snapshot, snapshot.picker_stack(stack, snapshot.newest))}

    @staticmethod
    def _draw(snapshot: Snapshot, stack: Stack | None, opened: str = "") -> Markup:
        return failures_html(failures.failures(snapshot, stack), snapshot, stack, opened)


def build(opened: Callable, sources: Sources) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    tab = FailuresTab(sources)
    tab.layout()
    picker, private = by_name(tab, ("stack",)), {"api_visibility": "private"}
    opened(answering(tab, tab.on_open), inputs_kwargs=picker, outputs=[tab.stack, tab.result], **private)
    tab.stack.input(answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=[tab.result],
                    trigger_mode="always_last", **private)  # fmt: skip
    # no component of its own for the link: every page's layout rides on the first page's config
    tab.result.change(None, tab.result, None, js=ADDRESS_JS, **private)
