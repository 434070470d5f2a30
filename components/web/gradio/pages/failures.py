"""The "Failures" page (`/failures`): a stack's FAILs grouped by cause, the cause that blocks the most models
first. Built with markupsafe: error text, model ids and versions are data, escaped by construction (the
cause's own fragments, shared with the Models and Compare pages, are in `web/html/causes.py`).

The page reads `?neuronx_cc=V&transformers=V` (or `library=L&library_version=V`) and `cause=SIGNATURE` (that
cause opened): the Models page links here with them.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr
from markupsafe import Markup

from components.domain.stacks import StackRef, picker_choices
from components.queries import failures
from components.queries.answers import FailureCause, FailuresAnswer
from components.sources.app_sources import Sources
from components.sources.snapshot import Snapshot, Stack
from components.web.gradio.pages.wiring import ADDRESS_JS, PAGE_EVENT, answering, by_name
from components.web.html.causes import MAX_MODELS_LISTED, docs_link, failures_query, model_links
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
INTRO = (
    "Every FAIL on the stack grouped by **cause**: its `NCC_…` compiler code or `NRT_…` runtime status where the "
    "error has one, else its exception type, and its error line, where models whose lines differ only in "
    "run-to-run details (numbers, sizes, core ids, addresses, paths) share a cause. Each cause shows the error "
    "line of its first model. The causes blocking the most models come first. *First seen*: the oldest stack "
    "of the same library where the cause blocked a model. *Fixed in*: newer stacks of that library where some "
    "of its models pass."
)


def failures_html(answer: FailuresAnswer, snapshot: Snapshot, stack: Stack | None, opened: str = "") -> Markup:
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
        listed = model_links(entry["models"], where, len(entry["models"]) - MAX_MODELS_LISTED)
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
        join(facts), model_links(cause["models"], stack, cause["count"] - MAX_MODELS_LISTED),
    )  # fmt: skip


class FailuresPage:
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
        asked = StackRef.from_params(params)
        chosen = snapshot.stack_or_default(asked.neuronx_cc, asked.spec) if asked.neuronx_cc or asked.spec else None
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
    tab = FailuresPage(sources)
    tab.layout()
    picker = by_name(tab, ("stack",))
    opened(answering(tab, tab.on_open), inputs_kwargs=picker, outputs=[tab.stack, tab.result], **PAGE_EVENT)
    tab.stack.input(answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=[tab.result],
                    trigger_mode="always_last", **PAGE_EVENT)  # fmt: skip
    # no component of its own for the link: every page's layout rides on the first page's config
    tab.result.change(None, tab.result, None, js=ADDRESS_JS, **PAGE_EVENT)
