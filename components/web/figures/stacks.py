"""The figures: pass rate across stacks, wall time and memory on one stack, results by organisation.

Their data comes from `queries/charts.py`; each figure is drawn once per snapshot (and stack) and memoised.
plotly is imported inside the functions that draw, so starting the app does not pay for it. Model ids and versions are data:
plotly renders hover and tick text as a subset of HTML, so every one is escaped with `esc`.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

import pandas as pd

from components.domain.results import EXCLUDED, FAIL, KIND_LABELS, OTHER, PASS
from components.domain.stacks import StackRef
from components.queries import formatting
from components.queries.charts import KINDS, TOP_ORGS, org_counts, stack_points, stack_trend
from components.sources.snapshot import Snapshot, Stack
from components.web.html.markup import esc

if TYPE_CHECKING:
    import plotly.graph_objects as go

# Mid-tone colours read on a white and on a near-black page alike.
KIND_COLOURS = {PASS: "#22a355", FAIL: "#e5484d", EXCLUDED: "#d4a017", OTHER: "#8b95a7"}
RATE_COLOUR = "#3b82f6"
TEXT_COLOUR = "#7f8a9c"
GRID_COLOUR = "rgba(128, 128, 128, 0.25)"
CORE_TICKS = (1, 2, 4, 8, 16)
LOG_TICKS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]

CAPTIONS = {
    "trend": "Pass rate (line, left axis) and models run (bars, right axis) on each stack, oldest on the left; "
    "excluded models count in neither.",
    "wall": "Wall time of each run on this stack (compilation included, log scale) against the Trainium cores "
    "it was sharded over; points are spread sideways a little so that they do not hide each other.",
    "memory": "Peak device memory of each run against the HBM capacity of the cores it used (both log scale); "
    "the dashed line is full capacity.",
    "orgs": f"Results on this stack by organisation (the part of the model id before “/”), the {TOP_ORGS} "
    "organisations with the most models.",
}


def trend_figure(snapshot: Snapshot) -> go.Figure:
    """Pass rate and models run per stack, oldest stack on the left."""
    return snapshot.memo(("chart", "trend"), lambda: _trend_figure(stack_trend(snapshot)))


def wall_figure(snapshot: Snapshot, stack: Stack) -> go.Figure:
    """Wall time against cores on one stack, one colour per result."""
    return snapshot.memo(("chart", "wall", stack.ref), lambda: _wall_figure(stack_points(snapshot, stack)))


def memory_figure(snapshot: Snapshot, stack: Stack) -> go.Figure:
    """Peak device memory against the capacity of the cores used, on one stack."""
    return snapshot.memo(("chart", "memory", stack.ref), lambda: _memory_figure(stack_points(snapshot, stack)))


def org_figure(snapshot: Snapshot, stack: Stack) -> go.Figure:
    """Stacked result counts for the organisations with the most models on one stack."""
    return snapshot.memo(("chart", "orgs", stack.ref), lambda: _org_figure(org_counts(snapshot, stack)))


def _trend_figure(trend: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    labels = [esc(v) for v in trend["label"]]
    rates = [None if r is None or pd.isna(r) else 100 * r for r in trend["pass_rate"]]
    hover = [
        [
            esc(StackRef(cc, lib, lv).long_label),
            f"{passed:,} of {run:,}",
            f"{excluded:,}",
            "—" if at is None or pd.isna(at) else at.strftime("%Y-%m-%d"),
        ]
        for cc, lib, lv, passed, run, excluded, at in trend[
            ["neuronx_cc", "library", "library_version", "passed", "run", "excluded", "newest_tested_at"]
        ].itertuples(index=False)
    ]
    fig = go.Figure()
    fig.add_bar(
        x=labels, y=list(trend["run"]), name="models run", yaxis="y2", customdata=hover,
        marker_color="rgba(128, 128, 128, 0.35)",
        hovertemplate="%{customdata[0]}<br>%{y:,} models run · %{customdata[2]} excluded<extra></extra>",
    )  # fmt: skip
    fig.add_scatter(
        x=labels, y=rates, name="pass rate", mode="lines+markers", customdata=hover,
        line={"color": RATE_COLOUR, "width": 3}, marker={"size": 8},
        hovertemplate="%{customdata[0]}<br>pass rate %{y:.0f}% (%{customdata[1]} run)"
        "<br>newest run %{customdata[3]}<extra></extra>",
    )  # fmt: skip
    fig.update_layout(
        yaxis={"title": "pass rate (%)", "range": [0, 105], "ticksuffix": "%"},
        yaxis2={"title": "models run", "overlaying": "y", "side": "right", "rangemode": "tozero", "showgrid": False},
        xaxis={"title": "stack: neuronx-cc · library", "type": "category"},
    )
    return _style(fig, empty=not len(trend))


def _wall_figure(points: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    points = points[points["tp"].notna() & points["wall_s"].notna()]
    fig = go.Figure()
    _add_runs(fig, points, "tp", lambda part: [float(w) / 60 for w in part["wall_s"]])
    fig.update_layout(
        xaxis={
            "title": "Trainium cores",
            "type": "log",
            "tickvals": list(CORE_TICKS),
            "ticktext": [str(c) for c in CORE_TICKS],
        },
        yaxis={"title": "wall time (minutes, log scale)", "type": "log", "tickvals": LOG_TICKS},
    )
    return _style(fig, empty=not len(points))


def _add_runs(fig: go.Figure, points: pd.DataFrame, x: str, y: Callable[[pd.DataFrame], list[float]]) -> None:
    """One scatter of runs per result, coloured by it: x from the column `x` (spread sideways, `_jitter`),
    y from `y` of the runs; every point's hover tells its whole story."""
    for kind in KINDS:
        part = points[points["kind"] == kind]
        if not len(part):
            continue
        fig.add_scatter(
            x=[_jitter(float(v), m) for v, m in zip(part[x], part["model_id"])], y=y(part),
            mode="markers", name=KIND_LABELS[kind], marker={"color": KIND_COLOURS[kind], "size": 8, "opacity": 0.8},
            customdata=_hover_rows(part), hovertemplate=_POINT_HOVER,
        )  # fmt: skip


def _memory_figure(points: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    points = points[points["hbm_peak_gb"].notna() & points["hbm_capacity_gb"].notna() & (points["hbm_capacity_gb"] > 0)]
    fig = go.Figure()
    if len(points):
        capacities = sorted({float(c) for c in points["hbm_capacity_gb"]})
        fig.add_scatter(
            x=capacities, y=capacities, mode="lines", name="capacity", hoverinfo="skip",
            line={"color": TEXT_COLOUR, "dash": "dash", "width": 1},
        )  # fmt: skip
    _add_runs(fig, points, "hbm_capacity_gb", lambda part: [float(p) for p in part["hbm_peak_gb"]])
    ticks = sorted({float(c) for c in points["hbm_capacity_gb"]})
    fig.update_layout(
        xaxis={"title": "HBM capacity of the cores used (GB)", "type": "log", "tickvals": ticks, "ticktext": [f"{t:g}" for t in ticks]},
        yaxis={"title": "peak device memory (GB)", "type": "log", "tickvals": LOG_TICKS},
    )  # fmt: skip
    return _style(fig, empty=not len(points))


def _org_figure(counts: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    orgs = [esc(o) for o in counts["org"]]
    fig = go.Figure()
    for kind in KINDS:
        values = [int(v) for v in counts[kind]] if len(counts) else []
        if not any(values):
            continue
        fig.add_bar(
            y=orgs, x=values, name=KIND_LABELS[kind], orientation="h", marker_color=KIND_COLOURS[kind],
            customdata=[[o, int(t)] for o, t in zip(orgs, counts["total"])],
            hovertemplate=f"%{{customdata[0]}}: %{{x}} {KIND_LABELS[kind]} of %{{customdata[1]}}<extra></extra>",
        )  # fmt: skip
    fig.update_layout(
        barmode="stack",
        xaxis={"title": "models"},
        yaxis={"type": "category", "categoryorder": "array", "categoryarray": orgs, "autorange": "reversed"},
        height=max(320, 40 + 24 * len(orgs)),
    )
    return _style(fig, empty=not len(counts))


_POINT_HOVER = (
    "<b>%{customdata[0]}</b><br>%{customdata[1]} on %{customdata[2]}<br>wall time %{customdata[3]}"
    "<br>peak memory %{customdata[4]}<extra></extra>"
)


def _hover_rows(part: pd.DataFrame) -> list[list[str]]:
    """What a point's hover tells, every value escaped (plotly reads hover text as HTML)."""
    return [
        [
            esc(model_id),
            esc(result if result is not None and not pd.isna(result) else "—"),
            formatting.cores_noted(tp),
            formatting.duration(wall),
            formatting.memory(peak, capacity),
        ]
        for model_id, result, tp, wall, peak, capacity in part[
            ["model_id", "result", "tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb"]
        ].itertuples(index=False)
    ]


def _jitter(value: float, model_id: str) -> float:
    """Spread points that share an x value (cores come in 1, 2, 4…) by up to ±13% on a log axis,
    the same way for the same model every time."""
    spread = zlib.crc32(model_id.encode("utf-8")) / 0xFFFFFFFF - 0.5
    return value * 2 ** (0.35 * spread)


def _style(fig: go.Figure, *, empty: bool) -> go.Figure:
    """Transparent backgrounds and mid-tone text and grid, so one figure reads in light and dark mode."""
    fig.update_layout(
        template="plotly",
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        font={"color": TEXT_COLOUR, "size": 13},
        margin={"l": 60, "r": 60, "t": 40, "b": 60},
        # top right: Gradio draws the component's label over the top left corner
        legend={"orientation": "h", "x": 1, "xanchor": "right", "y": 1.02, "yanchor": "bottom", "traceorder": "normal"},
        hoverlabel={"font": {"size": 13}},
    )
    fig.update_xaxes(gridcolor=GRID_COLOUR, zerolinecolor=GRID_COLOUR, linecolor=GRID_COLOUR)
    fig.update_yaxes(gridcolor=GRID_COLOUR, zerolinecolor=GRID_COLOUR, linecolor=GRID_COLOUR)
    if empty:
        fig.add_annotation(
            text="No runs to show on this stack.", showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper"
        )
    return fig
