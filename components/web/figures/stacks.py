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
from components.domain.stacks import StackRef, library_name
from components.queries import formatting
from components.queries.charts import KINDS, org_counts, stack_points, stack_trend
from components.runtime import settings
from components.sources.snapshot import Snapshot, Stack
from components.web.html.markup import esc

if TYPE_CHECKING:
    import plotly.graph_objects as go

# Mid-tones that keep a 3:1 contrast (WCAG's for graphics) on the white page and on the dark theme's
# #1f2937 blocks alike (tests/web/figures/test_stacks.py measures each).
KIND_COLOURS = {PASS: "#22a355", FAIL: "#e5484d", EXCLUDED: "#b7860f", OTHER: "#7f8a9c"}
LIBRARY_COLOURS = {"transformers": "#3b82f6", "diffusers": "#c056c9", "sentence-transformers": "#14a09a"}
# One colour per series where series are many (causes, other libraries), in this order.
COLOURWAY = ("#6c7ae0", "#e05a3a", "#14a09a", "#c056c9", "#8c9a1c", "#3f8fe0", "#b07a3a", "#d9508a", "#2e9e4e",
             "#9b6bdf")  # fmt: skip
TEXT_COLOUR = "#7f8a9c"
GRID_COLOUR = "rgba(128, 128, 128, 0.25)"
BAR_COLOUR = "rgba(128, 128, 128, 0.35)"
CORE_TICKS = (1, 2, 4, 8, 16)
LOG_TICKS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]

CAPTIONS = {
    "trend": "Pass rate (a line per library, left axis) and models run (bars, right axis) on each stack, "
    "library by library, each library's oldest stack on its left; excluded models count in neither.",
    "wall": "Wall time of each run on this stack (compilation included, log scale) against the Trainium cores "
    "it was sharded over; points are spread sideways a little so that they do not hide each other.",
    "memory": "Peak device memory of each run against the HBM capacity of the cores it used (both log scale); "
    "the dashed line is full capacity.",
    "orgs": f"Results on this stack by organisation (the part of the model id before “/”), the {settings.CHART_ORGS.value} "
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


def library_colour(library: str, index: int) -> str:
    """The colour of a library's series (`index`: its place among the libraries, for one not named here)."""
    return LIBRARY_COLOURS.get(library) or COLOURWAY[index % len(COLOURWAY)]


def stack_tick(stack: StackRef) -> str:
    """A stack's tick label on an axis of stacks (titled `STACK_AXIS`): `2.28.7631.0 · Transformers 4.57.1`. One
    line: on a phone plotly turns the labels upright, and two lines side by side ran into the next label."""
    return f"{esc(stack.compiler)} · {esc(stack.library_label)}"


STACK_AXIS = "stack: neuronx-cc · library"


def _trend_figure(trend: pd.DataFrame) -> go.Figure:
    import plotly.graph_objects as go

    refs = [StackRef(cc, lib, lv) for cc, lib, lv in trend[["neuronx_cc", "library", "library_version"]].itertuples(index=False)]  # fmt: skip
    ticks = stack_ticks(refs)
    rates = [None if r is None or pd.isna(r) else 100 * r for r in trend["pass_rate"]]
    hover = [
        [
            esc(ref.long_label),
            f"{passed:,} of {run:,}",
            f"{excluded:,}",
            "—" if at is None or pd.isna(at) else at.strftime("%Y-%m-%d"),
            f"{run:,} {formatting.noun(run, 'model')} run",
        ]
        for ref, passed, run, excluded, at in zip(
            refs, trend["passed"], trend["run"], trend["excluded"], trend["newest_tested_at"]
        )
    ]
    fig = go.Figure()
    fig.add_bar(
        x=ticks, y=list(trend["run"]), name="models run", yaxis="y2", customdata=hover, marker_color=BAR_COLOUR,
        hovertemplate="%{customdata[0]}<br>%{customdata[4]} · %{customdata[2]} excluded<extra></extra>",
    )  # fmt: skip
    libraries = list(dict.fromkeys(trend["library"]))
    for index, library in enumerate(libraries):  # one line per library: never from one library's stack to another's
        at = [i for i, lib in enumerate(trend["library"]) if lib == library]
        fig.add_scatter(
            x=[ticks[i] for i in at], y=[rates[i] for i in at], name=esc(f"{library_name(library)} pass rate"),
            mode="lines+markers", customdata=[hover[i] for i in at],
            line={"color": library_colour(library, index), "width": 3}, marker={"size": 9},
            hovertemplate="%{customdata[0]}<br>pass rate %{y:.0f}% (%{customdata[1]} run)"
            "<br>newest run %{customdata[3]}<extra></extra>",
        )  # fmt: skip
    fig.update_layout(
        yaxis={"title": "pass rate (%)", "range": [0, 105], "ticksuffix": "%"},
        yaxis2={"title": "models run", "overlaying": "y", "side": "right", "rangemode": "tozero", "showgrid": False},
        xaxis={"title": STACK_AXIS, "type": "category", "categoryorder": "array", "categoryarray": ticks},
        # as tall as the causes' figure: on a phone the legend (a line a library) and the upright stack labels
        # took ~330 of plotly's default 450 px and left the plot ~60 px
        height=560,
    )
    _style(fig, empty=not len(trend))
    return library_dividers(fig, list(trend["library"]))


def stack_ticks(refs: list[StackRef]) -> list[str]:
    """The tick labels of stacks (`stack_tick`), the full compiler version where two would read the same."""
    ticks = [stack_tick(r) for r in refs]
    if len(set(ticks)) < len(ticks):
        ticks = [f"{esc(r.neuronx_cc)} · {esc(r.library_label)}" for r in refs]
    return ticks


def library_dividers(fig: go.Figure, libraries: list[str]) -> go.Figure:
    """A faint vertical line between one library's stacks and the next library's on an axis of stacks."""
    for i in range(1, len(libraries)):
        if libraries[i] != libraries[i - 1]:
            fig.add_shape(
                type="line", xref="x", yref="paper", x0=i - 0.5, x1=i - 0.5, y0=0, y1=1,
                line={"color": TEXT_COLOUR, "width": 1, "dash": "dot"},
            )  # fmt: skip
    return fig


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


MODEBAR_REMOVED = ("zoomin", "zoomout", "autoscale", "select", "lasso", "select2d", "lasso2d")


def _style(fig: go.Figure, *, empty: bool) -> go.Figure:
    """Transparent backgrounds and mid-tone text and grid, so one figure reads in light and dark mode."""
    fig.update_layout(
        template="plotly",
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        font={"color": TEXT_COLOUR, "size": 13},
        colorway=list(COLOURWAY),
        margin={"l": 60, "r": 60, "t": 20, "b": 40},
        # Above the plot: plotly widens the top margin to hold it, as it widens the bottom one for the tick
        # labels, so the two never meet (below the plot, a legend placed by a fraction of the plot's height
        # ran into long tick labels). The page titles each figure outside it, so nothing covers the legend.
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom", "traceorder": "normal"},
        hoverlabel={"font": {"size": 13}},
        # Plotly's toolbar sits over the figure's top right, where the legend runs when it is long: the buttons
        # a reader uses (save, zoom, pan, reset) take a third of its width (a phone gets none: assets/style.css).
        modebar={"remove": list(MODEBAR_REMOVED)},
    )
    fig.update_xaxes(gridcolor=GRID_COLOUR, zerolinecolor=GRID_COLOUR, linecolor=GRID_COLOUR)
    fig.update_yaxes(gridcolor=GRID_COLOUR, zerolinecolor=GRID_COLOUR, linecolor=GRID_COLOUR)
    if empty:
        fig.add_annotation(
            text="No runs to show on this stack.", showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper"
        )
    return fig
