"""components/web/figures/stacks.py: the figures drawn from their data, escaped hover text, and plotly kept
out of start-up."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from components.sources.dataset import load
from components.web.figures import stacks as charts
from tests.helpers import ROOT, row, write
from tests.queries.chart_runs import chart_snapshot


@pytest.fixture
def snap(tmp_path):
    return chart_snapshot(tmp_path)


def test_pass_rate_and_models_run_per_stack_oldest_first(snap):
    fig = charts.trend_figure(snap)
    bars, line = fig.data
    assert list(bars.y) == [3, 6]
    assert list(line.y) == pytest.approx([100 / 3, 400 / 6])


def test_results_by_organisation_most_models_first(snap):
    new = snap.newest
    fig = charts.org_figure(snap, new)
    assert fig.layout.barmode == "stack"
    assert {t.name for t in fig.data} == {"PASS", "FAIL", "other result"}
    assert "evil" in list(fig.data[0].y)


def test_scatter_points_hold_every_run_with_figures(snap):
    new = snap.newest
    wall = charts.wall_figure(snap, new)
    by_name = {t.name: t for t in wall.data}
    assert len(by_name["PASS"].x) == 4 and len(by_name["FAIL"].x) == 1
    passed = dict(zip((c[0] for c in by_name["PASS"].customdata), by_name["PASS"].y))
    assert passed["Qwen/a"] == pytest.approx(20.0)  # minutes
    xs = dict(zip((c[0] for c in by_name["PASS"].customdata), by_name["PASS"].x))
    assert 2 / 1.2 < xs["Qwen/a"] < 2 * 1.2  # spread sideways, but near its cores
    memory = charts.memory_figure(snap, new)
    capacity_line = memory.data[0]
    assert capacity_line.name == "capacity" and list(capacity_line.x) == [24.0, 48.0]


def test_hover_text_is_escaped(snap):
    new = snap.newest
    for fig in (charts.wall_figure(snap, new), charts.memory_figure(snap, new), charts.org_figure(snap, new)):
        text = fig.to_json()
        assert "<img" not in text and "onerror=alert(1)>" not in text
    hover = [c for t in charts.wall_figure(snap, new).data for c in (t.customdata or [])]
    assert [c[0] for c in hover if c[0].startswith("evil")] == ["evil/&lt;img src=x onerror=alert(1)&gt;&amp;"]


def test_figures_are_memoised_and_transparent(snap):
    fig = charts.trend_figure(snap)
    assert charts.trend_figure(snap) is fig
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
