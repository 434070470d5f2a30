"""The "Compare stacks" page: two stack pickers and what changed from one to the other (drawn by
`web/html/comparison.py`).

A page of its own (`/compare`): the first page never carries its layout, and it fills itself on load.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr
from markupsafe import Markup

from components.domain.errors import UnknownStack
from components.domain.stacks import PICKER_PARTS, picker_choices
from components.queries import compare
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.snapshot import Snapshot, Stack
from components.web.gradio.pages.wiring import PAGE_EVENT, answering, by_name, components
from components.web.html.comparison import CSS, comparison_html

INTRO = (
    "What changed from stack **A** to stack **B** (pick the older one as A). A model's row opens it on "
    "the stack where it was run (B, or A when it was removed). *Changed* means both runs passed and "
    f"{compare.DEFAULT_THRESHOLDS.describe()}. Being excluded is a decision, not a failure: a model that "
    "became excluded is listed under *Other result changes*, not as a regression."
)


class ComparePage:
    """The page's handlers: inputs by picker name, answers by component name (see `wiring.py`)."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def layout(self) -> None:
        with gr.Row(equal_height=True):
            self.stack_a = gr.Dropdown(label=f"A (from): {PICKER_PARTS}", elem_id="compare-a", scale=1, min_width=260)
            self.stack_b = gr.Dropdown(label=f"B (to): {PICKER_PARTS}", elem_id="compare-b", scale=1, min_width=260)
        self.result = gr.HTML(elem_id="compare-result", css_template=CSS)

    def on_open(
        self, stack_a: str | None = None, stack_b: str | None = None, request: gr.Request | None = None
    ) -> dict:
        """Fill the pickers (keeping a choice that is still in the data) and show the comparison. A link names
        its stacks as /compare's arguments do (`neuronx_cc_a`, `library_version_a`, `…_b`: the Grid's links);
        an unknown one falls back to the default."""
        snapshot = self.sources.now().snapshot
        params = dict(request.query_params) if request is not None else {}
        stack_a, stack_b = (stack_a or _linked(snapshot, params, "a")), (stack_b or _linked(snapshot, params, "b"))
        a, b = self._stacks(snapshot, stack_a, stack_b)
        choices = picker_choices(snapshot.stacks)
        return {
            "stack_a": gr.update(choices=choices, value=a.picker_value if a else None),
            "stack_b": gr.update(choices=choices, value=b.picker_value if b else None),
            "result": self._draw(snapshot, a, b),
        }

    def on_change(self, stack_a: str | None = None, stack_b: str | None = None) -> dict:
        snapshot = self.sources.now().snapshot
        return {"result": self._draw(snapshot, *self._stacks(snapshot, stack_a, stack_b))}

    @staticmethod
    def _stacks(snapshot: Snapshot, value_a: str | None, value_b: str | None) -> tuple[Stack | None, Stack | None]:
        default_a, default_b = compare.default_stacks(snapshot)
        return snapshot.picker_stack(value_a, default_a), snapshot.picker_stack(value_b, default_b)

    @staticmethod
    def _draw(snapshot: Snapshot, stack_a: Stack | None, stack_b: Stack | None) -> Markup:
        return comparison_html(compare.compare(snapshot, stack_a, stack_b), stack_a, stack_b)


def _linked(snapshot: Snapshot, params: dict[str, str], side: str) -> str | None:
    """The picker value of the stack a link names for `side` ("a" or "b"), or None."""
    cc, spec = params.get(f"neuronx_cc_{side}", ""), params.get(f"library_version_{side}", "")
    if not (cc or spec):
        return None
    try:
        stack = snapshot.resolve_stack(cc[: settings.LINK_VALUE.value], spec[: settings.LINK_VALUE.value])
    except UnknownStack:
        return None
    return stack.picker_value if stack else None


def build(opened: Callable, sources: Sources) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    tab = ComparePage(sources)
    gr.Markdown(INTRO, elem_classes=["hint"])
    tab.layout()
    pickers = by_name(tab, ("stack_a", "stack_b"))
    opened(
        answering(tab, tab.on_open), inputs_kwargs=pickers, outputs=components(tab, (*pickers, "result")), **PAGE_EVENT
    )
    gr.on([tab.stack_a.input, tab.stack_b.input], answering(tab, tab.on_change), inputs_kwargs=pickers,
          outputs=[tab.result], trigger_mode="always_last", **PAGE_EVENT)  # fmt: skip
