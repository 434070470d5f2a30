"""The "Architectures" page: a stack picker, and each architecture on that stack with its tested and passed
counts and its models, under the headline figure and its definition (drawn by `web/html/architectures.py`).
Drawn when the page is opened, never at the first page's load."""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from components.domain.stacks import PICKER_PARTS, Stack, picker_choices
from components.queries import architectures
from components.sources.app_sources import Moment, Sources
from components.web.gradio.pages.wiring import PAGE_EVENT, answering, by_name, components
from components.web.html.architectures import headline_html, table_html


class ArchitecturesPage:
    """The page's handlers: inputs by picker name, answers by component name (see `wiring.py`)."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def layout(self) -> None:
        self.stack = gr.Dropdown(label=f"Stack: {PICKER_PARTS}", elem_id="arch-stack", min_width=260)
        self.headline = gr.HTML(elem_id="arch-headline-box")
        self.table = gr.HTML(elem_id="arch-table-box")

    def on_open(self, stack: str | None = None) -> dict:
        """Fill the stack picker (keeping a choice still in the data) and draw the tab."""
        now = self.sources.now()
        chosen = now.snapshot.picker_stack(stack)
        picker = gr.update(choices=picker_choices(now.snapshot.stacks), value=chosen.picker_value if chosen else None)
        return {"stack": picker, **self._draw(now, chosen)}

    def on_stack(self, stack: str | None = None) -> dict:
        now = self.sources.now()
        return self._draw(now, now.snapshot.picker_stack(stack))

    @staticmethod
    def _draw(now: Moment, stack: Stack | None) -> dict:
        figure = architectures.headline(now.snapshot, now.rankings, now.records, stack)
        return {
            "headline": headline_html(figure),
            "table": table_html(architectures.architectures(now.snapshot, now.records, stack)),
        }


def build(opened: Callable, sources: Sources) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    tab = ArchitecturesPage(sources)
    tab.layout()
    picker = by_name(tab, ("stack",))
    drawn = components(tab, ("headline", "table"))
    opened(answering(tab, tab.on_open), inputs_kwargs=picker, outputs=[tab.stack, *drawn], **PAGE_EVENT)
    tab.stack.input(answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=drawn, trigger_mode="always_last",
                    **PAGE_EVENT)  # fmt: skip
