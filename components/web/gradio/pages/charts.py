"""The "Charts" tab: pass rate across stacks, and wall time, memory and organisations on one stack.

The figures are drawn when the tab is opened or its stack changes, never at page load, so the
first page load neither computes them nor imports plotly.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from components.domain.stacks import PICKER_PARTS, picker_choices
from components.sources.app_sources import Sources
from components.web.figures import causes as failure_charts
from components.web.figures import stacks as charts
from components.web.gradio.pages.wiring import PAGE_EVENT, answering, by_name, components


class ChartsPage:
    """The page's handlers: inputs by picker name, answers by component name (see `wiring.py`)."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def layout(self) -> None:
        self.trend = _plot("Pass rate across stacks", "chart-trend")
        gr.Markdown(charts.CAPTIONS["trend"], elem_classes=["hint"])
        # the picker sits above the figures it sets, and says so in as few words as the other pages' pickers: on a
        # phone "Stack for the figures below: neuronx-cc · library" took two lines
        self.stack = gr.Dropdown(label=f"Stack: {PICKER_PARTS}", elem_id="charts-stack", min_width=260)
        with gr.Row():
            with gr.Column(min_width=320):
                self.wall = _plot("Wall time against cores", "chart-wall")
                gr.Markdown(charts.CAPTIONS["wall"], elem_classes=["hint"])
            with gr.Column(min_width=320):
                self.memory = _plot("Peak memory against capacity", "chart-memory")
                gr.Markdown(charts.CAPTIONS["memory"], elem_classes=["hint"])
        self.orgs = _plot("Results by organisation", "chart-orgs")
        gr.Markdown(charts.CAPTIONS["orgs"], elem_classes=["hint"])
        self.causes = _plot("Causes of failure across stacks", "chart-causes")
        gr.Markdown(failure_charts.CAPTION, elem_classes=["hint"])

    def on_causes(self) -> dict:
        """The causes of failure across stacks (models blocked by each of the top causes)."""
        return {"causes": failure_charts.causes_figure(self.sources.now().snapshot)}

    def on_open(self, stack: str | None = None) -> dict:
        """Fill the stack picker (keeping a choice still in the data) and draw the trend across stacks;
        the stack's own figures follow (`on_stack`, chained after it)."""
        snapshot = self.sources.now().snapshot
        chosen = snapshot.picker_stack(stack)
        picker = gr.update(choices=picker_choices(snapshot.stacks), value=chosen.picker_value if chosen else None)
        return {"stack": picker, "trend": charts.trend_figure(snapshot)}

    def on_stack(self, stack: str | None = None) -> dict:
        """The figures of one stack: wall time, memory, organisations."""
        snapshot = self.sources.now().snapshot
        chosen = snapshot.picker_stack(stack)
        if chosen is None:
            return dict.fromkeys(STACK_FIGURES)
        return {
            "wall": charts.wall_figure(snapshot, chosen),
            "memory": charts.memory_figure(snapshot, chosen),
            "orgs": charts.org_figure(snapshot, chosen),
        }


STACK_FIGURES = ("wall", "memory", "orgs")


def _plot(title: str, elem_id: str) -> gr.Plot:
    """A figure under a heading of its own: Gradio draws a component's label over the figure's top left
    corner, where each figure's legend sits (`figures/stacks.py: _style`)."""
    gr.Markdown(f"## {title}", elem_classes=["chart-title"])
    return gr.Plot(label=title, show_label=False, elem_id=elem_id)


def build(opened: Callable, sources: Sources) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    tab = ChartsPage(sources)
    tab.layout()
    picker = by_name(tab, ("stack",))
    figures = components(tab, STACK_FIGURES)
    opened(answering(tab, tab.on_causes), outputs=[tab.causes], **PAGE_EVENT)
    opened(answering(tab, tab.on_open), inputs_kwargs=picker, outputs=[tab.stack, tab.trend], **PAGE_EVENT).then(
        answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=figures, **PAGE_EVENT
    )
    tab.stack.input(answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=figures, trigger_mode="always_last",
                    **PAGE_EVENT)  # fmt: skip
