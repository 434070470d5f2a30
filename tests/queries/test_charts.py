"""components/queries/charts.py: the figures' data, per stack and per organisation."""

from __future__ import annotations

import pytest

from components.queries import charts
from tests.queries.chart_runs import NEW, OLD


def test_pass_rate_and_models_run_per_stack_oldest_first(chart_snap):
    trend = charts.stack_trend(chart_snap)
    assert list(trend["neuronx_cc"]) == [OLD, NEW]
    assert list(trend["label"]) == [
        "neuronx-cc 2.9.1.0 · Transformers 4.57.1",
        "neuronx-cc 2.10.0.0 · Transformers 4.57.1",
    ]
    assert list(trend["run"]) == [3, 6] and list(trend["passed"]) == [1, 4] and list(trend["excluded"]) == [1, 0]
    assert trend["pass_rate"].tolist() == pytest.approx([1 / 3, 4 / 6])
    assert charts.stack_trend(chart_snap) is trend  # once per snapshot


def test_results_by_organisation_most_models_first(chart_snap):
    new = chart_snap.newest
    counts = charts.org_counts(chart_snap, new)
    assert list(counts["org"]) == ["Qwen", "(no organisation)", "evil", "meta"]
    qwen = counts.iloc[0]
    assert (qwen["pass"], qwen["fail"], qwen["excluded"], qwen["other"], qwen["total"]) == (2, 1, 0, 0, 3)
    assert counts.set_index("org").loc["(no organisation)", "other"] == 1
    assert len(charts.org_counts(chart_snap, new, top=2)) == 2


def test_the_runs_of_a_stack_keep_missing_figures_missing(chart_snap):
    points = charts.stack_points(chart_snap, chart_snap.newest)
    assert len(points) == 6 and set(points["kind"]) == {"pass", "fail", "other"}
    assert charts.stack_points(chart_snap, chart_snap.stacks[-1])["wall_s"].isna().sum() == 1
