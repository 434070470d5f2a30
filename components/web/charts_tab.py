"""The "Charts" tab: pass rate across stacks, and wall time, memory and organisations on one stack.

The figures are drawn when the tab is opened or its stack changes, never at page load, so the
first page load neither computes them nor imports plotly.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from components.sources.store import DatasetStore
from components.web import charts, failure_charts
from components.web.stack_picker import stack_choices, stack_from_value, stack_value


class ChartsTab:
    def __init__(self, datasets: DatasetStore):
        self.datasets = datasets

    def on_open(self, value: str | None):
        """Fill the stack picker (keeping a choice still in the data) and draw the trend across stacks;
        the stack's own figures follow (`on_stack`, chained after it)."""
        snapshot = self.datasets.current()
        stack = stack_from_value(snapshot, value) or snapshot.newest
        picker = gr.update(choices=stack_choices(snapshot), value=stack_value(stack) if stack else None)
        return picker, charts.trend_figure(snapshot)

    def on_stack(self, value: str | None):
        """The figures of one stack: wall time, memory, organisations."""
        snapshot = self.datasets.current()
        return self._stack_figures(snapshot, stack_from_value(snapshot, value) or snapshot.newest)

    @staticmethod
    def _stack_figures(snapshot, stack):
        if stack is None:
            return None, None, None
        return (
            charts.wall_figure(snapshot, stack),
            charts.memory_figure(snapshot, stack),
            charts.org_figure(snapshot, stack),
        )


def build(opened: Callable, datasets: DatasetStore) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    handler = ChartsTab(datasets)
    trend = gr.Plot(label="Pass rate across stacks", elem_id="chart-trend")
    gr.Markdown(charts.CAPTIONS["trend"], elem_classes=["hint"])
    stack = gr.Dropdown(label="Stack for the figures below", elem_id="charts-stack", min_width=260)
    with gr.Row():
        with gr.Column(min_width=320):
            wall = gr.Plot(label="Wall time against cores", elem_id="chart-wall")
            gr.Markdown(charts.CAPTIONS["wall"], elem_classes=["hint"])
        with gr.Column(min_width=320):
            memory = gr.Plot(label="Peak memory against capacity", elem_id="chart-memory")
            gr.Markdown(charts.CAPTIONS["memory"], elem_classes=["hint"])
    orgs = gr.Plot(label="Results by organisation", elem_id="chart-orgs")
    gr.Markdown(charts.CAPTIONS["orgs"], elem_classes=["hint"])
    causes = gr.Plot(label="Causes of failure across stacks", elem_id="chart-causes")
    gr.Markdown(failure_charts.CAPTION, elem_classes=["hint"])
    opened(lambda: failure_charts.causes_figure(datasets.current()), None, causes, api_visibility="private")
    opened(handler.on_open, stack, [stack, trend], api_visibility="private").then(
        handler.on_stack, stack, [wall, memory, orgs], api_visibility="private"
    )
    stack.input(handler.on_stack, stack, [wall, memory, orgs], trigger_mode="always_last", api_visibility="private")
