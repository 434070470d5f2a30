"""components/web/figures/stacks.py: the figures drawn from their data, escaped hover text, and plotly kept
out of start-up."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from components.sources.dataset import load
from components.web.figures import stacks as charts
from tests.helpers import ROOT, contrast, row, write
from tests.queries.chart_runs import NEW, OLD


def test_pass_rate_and_models_run_per_stack_oldest_first(chart_snap):
    fig = charts.trend_figure(chart_snap)
    bars, line = fig.data
    assert list(bars.y) == [3, 6]
    assert list(line.y) == pytest.approx([100 / 3, 400 / 6])


def libraries_snapshot(folder):
    """Two Transformers stacks and a Diffusers stack on the newer compiler, each with a FAIL."""
    write(folder / "t1.parquet", [row("t/a", cc=OLD), row("t/b", cc=OLD, result="FAIL", error="RuntimeError: x 1")])
    write(folder / "t2.parquet", [row("t/a", cc=NEW), row("t/b", cc=NEW, result="FAIL", error="RuntimeError: x 2")])
    write(folder / "d.parquet", [
        row(f"d/{i}", cc=NEW, library="diffusers", lib_version="0.36.0", transformers=None) for i in range(4)
    ] + [row("d/f", cc=NEW, library="diffusers", lib_version="0.36.0", result="FAIL", error="ValueError: y")])  # fmt: skip
    return load(folder)


def test_the_pass_rate_is_a_line_per_library_that_never_joins_two_libraries(tmp_path):
    fig = charts.trend_figure(libraries_snapshot(tmp_path))
    lines = {t.name: list(t.x) for t in fig.data if t.type == "scatter"}
    assert set(lines) == {"Transformers pass rate", "Diffusers pass rate"}
    assert [x.split(" · ")[1] for x in lines["Transformers pass rate"]] == ["Transformers 4.57.1"] * 2
    assert [x.split(" · ")[0] for x in lines["Transformers pass rate"]] == ["2.9.1.0", "2.10.0.0"]  # oldest first
    assert lines["Diffusers pass rate"] == ["2.10.0.0 · Diffusers 0.36.0"]
    bars = next(t for t in fig.data if t.type == "bar")
    assert list(bars.x) == [*lines["Transformers pass rate"], *lines["Diffusers pass rate"]]  # grouped by library
    assert [c[4] for c in bars.customdata] == ["2 models run", "2 models run", "5 models run"]
    (divider,) = fig.layout.shapes  # between the libraries
    assert divider.x0 == 1.5


def test_every_series_colour_reads_on_the_light_page_and_the_dark_themes_blocks():
    colours = {*charts.KIND_COLOURS.values(), *charts.LIBRARY_COLOURS.values(), *charts.COLOURWAY, charts.TEXT_COLOUR}
    for background in ("#ffffff", "#1f2937"):  # the page, and a block in Gradio's dark theme (measured in Chromium)
        assert {c: round(contrast(c, background), 2) for c in colours if contrast(c, background) < 3} == {}
    assert len(set(charts.COLOURWAY)) == len(charts.COLOURWAY) >= 8  # the causes chart's 8 top causes, apart


def test_results_by_organisation_most_models_first(chart_snap):
    new = chart_snap.newest
    fig = charts.org_figure(chart_snap, new)
    assert fig.layout.barmode == "stack"
    assert {t.name for t in fig.data} == {"PASS", "FAIL", "other result"}
    assert "evil" in list(fig.data[0].y)


def test_scatter_points_hold_every_run_with_figures(chart_snap):
    new = chart_snap.newest
    wall = charts.wall_figure(chart_snap, new)
    by_name = {t.name: t for t in wall.data}
    assert len(by_name["PASS"].x) == 4 and len(by_name["FAIL"].x) == 1
    passed = dict(zip((c[0] for c in by_name["PASS"].customdata), by_name["PASS"].y))
    assert passed["Qwen/a"] == pytest.approx(20.0)  # minutes
    xs = dict(zip((c[0] for c in by_name["PASS"].customdata), by_name["PASS"].x))
    assert 2 / 1.2 < xs["Qwen/a"] < 2 * 1.2  # spread sideways, but near its cores
    memory = charts.memory_figure(chart_snap, new)
    capacity_line = memory.data[0]
    assert capacity_line.name == "capacity" and list(capacity_line.x) == [24.0, 48.0]


def test_hover_text_is_escaped(chart_snap):
    new = chart_snap.newest
    for fig in (
        charts.wall_figure(chart_snap, new),
        charts.memory_figure(chart_snap, new),
        charts.org_figure(chart_snap, new),
    ):
        text = fig.to_json()
        assert "<img" not in text and "onerror=alert(1)>" not in text
    hover = [c for t in charts.wall_figure(chart_snap, new).data for c in (t.customdata or [])]
    assert [c[0] for c in hover if c[0].startswith("evil")] == ["evil/&lt;img src=x onerror=alert(1)&gt;&amp;"]


def test_figures_are_memoised_and_transparent(chart_snap):
    fig = charts.trend_figure(chart_snap)
    assert charts.trend_figure(chart_snap) is fig
    assert fig.layout.paper_bgcolor == "rgba(0,0,0,0)" and fig.layout.plot_bgcolor == "rgba(0,0,0,0)"


def test_a_stack_without_figures_still_draws(tmp_path):
    write(
        tmp_path / "x.parquet", [row("a/m", result="EXCLUDED", exclusion="no", tp=None, wall_s=None, hbm_peak_gb=None)]
    )
    snap = load(tmp_path)
    for fig in (charts.wall_figure(snap, snap.newest), charts.memory_figure(snap, snap.newest)):
        assert fig.layout.annotations[0].text.startswith("No runs")


def test_importing_the_app_does_not_import_plotly():
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", "import app, sys; print('plotly' in sys.modules)"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"
