"""The figure of causes across stacks: how many models each of the top causes blocks on every stack.

Computed once per snapshot; plotly is imported only when it is drawn. Codes, summaries and versions are
data: plotly renders hover and tick text as a subset of HTML, so each is escaped with `esc`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.domain.stacks import StackRef
from components.queries import causes, failures
from components.sources.snapshot import Snapshot
from components.web.figures.stacks import _style
from components.web.html.markup import esc

if TYPE_CHECKING:
    import plotly.graph_objects as go

TOP_CAUSES = 8
CAPTION = (
    f"Models blocked by each of the {TOP_CAUSES} causes that block the most models over all stacks, on each "
    "stack, oldest on the left. A cause is an error code or exception type with its error line's run-to-run "
    "details masked; the Failures page lists each cause's models."
)


def causes_figure(snapshot: Snapshot) -> go.Figure:
    """One line per top cause: models it blocks on each stack, oldest stack on the left."""
    return snapshot.memo(("chart", "causes", causes.ALGORITHM), lambda: _causes_figure(snapshot))


def _label(cause: dict) -> str:
    text = cause.get("code") or cause.get("summary") or "?"
    return text.rsplit(".", 1)[-1] if "." in text and " " not in text else text[:40]


def _causes_figure(snapshot: Snapshot) -> go.Figure:
    import plotly.graph_objects as go

    data = failures.across_stacks(snapshot, TOP_CAUSES)
    labels = [esc(StackRef.of(s).label) for s in data["stacks"]]
    fig = go.Figure()
    names = [_label(c) for c in data["causes"]]
    for cause, name in zip(data["causes"], names):
        # two causes can share a code (two RuntimeErrors): the legend says which by its signature's start
        shown = name if names.count(name) == 1 else f"{name} ({cause['signature'][3:9]})"
        fig.add_scatter(
            x=labels, y=cause["counts"], name=esc(shown), mode="lines+markers",
            customdata=[[esc(cause["summary"][:120])]] * len(labels),
            hovertemplate="%{x}<br>%{y} model(s) blocked<br>%{customdata[0]}<extra>" + esc(shown) + "</extra>",
        )  # fmt: skip
    fig = _style(fig, empty=not data["causes"])
    # below the plot: eight names on one row at the top would run under Gradio's label on the left
    fig.update_layout(
        yaxis={"title": "models blocked", "rangemode": "tozero"},
        xaxis={"type": "category"},  # the ticks name each stack: neuronx-cc · library version
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.4, "yanchor": "top"},
        margin={"b": 40},
        height=620,
    )
    return fig
