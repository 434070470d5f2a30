"""The figure of causes across stacks: how many models each of the top causes blocks on every stack.

Computed once per snapshot; plotly is imported only when it is drawn. Codes, summaries and versions are
data: plotly renders hover and tick text as a subset of HTML, so each is escaped with `esc`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.domain.stacks import StackRef
from components.queries import causes, failures
from components.queries.formatting import noun
from components.runtime import settings
from components.sources.snapshot import Snapshot
from components.web.figures.stacks import COLOURWAY, STACK_AXIS, _style, library_dividers, stack_ticks
from components.web.html.markup import esc

if TYPE_CHECKING:
    import plotly.graph_objects as go

CAPTION = (
    f"Models blocked on each stack by the {settings.CHART_CAUSES.value} causes that block the most models over all stacks (and "
    "each library's first cause), a line per cause and library, each library's oldest stack on its left. A cause "
    "is an error code or exception type with its error line's run-to-run details set aside; the Failures page "
    "lists each cause's models and a real error line."
)


def causes_figure(snapshot: Snapshot) -> go.Figure:
    """One line per top cause and library: models it blocks on each of that library's stacks."""
    return snapshot.memo(("chart", "causes", causes.ALGORITHM), lambda: _causes_figure(snapshot))


def _label(cause: dict) -> str:
    text = cause.get("code") or cause.get("example") or "?"
    return text.rsplit(".", 1)[-1] if "." in text and " " not in text else text[: settings.CHART_CAUSE_LABEL.value]


def _causes_figure(snapshot: Snapshot) -> go.Figure:
    import plotly.graph_objects as go

    data = failures.across_stacks(snapshot, settings.CHART_CAUSES.value)
    refs = [StackRef.of(s) for library in data for s in library["stacks"]]
    ticks = stack_ticks(refs)
    first = 0  # where each library's stacks start among `ticks`
    shown_causes = [c for library in data for c in library["causes"]]
    names = {c["signature"]: _label(c) for c in shown_causes}
    colours: dict[str, str] = {}
    fig = go.Figure()
    for library in data:
        x = ticks[first : first + len(library["stacks"])]
        first += len(library["stacks"])
        for cause in library["causes"]:
            signature = cause["signature"]
            name = names[signature]
            # two causes can share a code (two RuntimeErrors): the legend says which by its signature's start
            if sum(n == name for n in names.values()) > 1:
                name = f"{name} ({signature[3:9]})"
            new = signature not in colours
            colour = colours.setdefault(signature, COLOURWAY[len(colours) % len(COLOURWAY)])
            fig.add_scatter(
                x=x, y=cause["counts"], name=esc(name), mode="lines+markers", legendgroup=signature, showlegend=new,
                line={"color": colour, "width": 2}, marker={"color": colour, "size": 7},
                customdata=[[esc(cause["example"][: settings.CHART_CAUSE_EXAMPLE.value]), f"{n:,} {noun(n, 'model')} blocked"] for n in cause["counts"]],
                hovertemplate="%{x}<br>%{customdata[1]}<br>%{customdata[0]}<extra>" + esc(name) + "</extra>",
            )  # fmt: skip
    fig = _style(fig, empty=not shown_causes)
    fig.update_layout(
        yaxis={"title": "models blocked", "rangemode": "tozero"},
        xaxis={"title": STACK_AXIS, "type": "category", "categoryorder": "array", "categoryarray": ticks},
        height=560,
    )
    return library_dividers(fig, [r.library for r in refs])
