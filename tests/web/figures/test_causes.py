"""web/figures/causes.py: the causes across stacks, escaped."""

from __future__ import annotations

import json

from components.web.figures import causes as failure_charts
from tests.web.figures.test_stacks import libraries_snapshot


def test_the_causes_chart_counts_models_per_stack_and_escapes_its_text(failing_snap):
    fig = failure_charts.causes_figure(failing_snap)
    assert fig is failure_charts.causes_figure(failing_snap)  # once per snapshot
    text = json.dumps(fig.to_plotly_json(), default=str)
    assert "<img" not in text and "<script" not in text
    runtime = next(t for t in fig.data if t.name == "RuntimeError")
    assert list(runtime.y) == [1, 2] and len(fig.data) == 2


def test_a_cause_is_drawn_over_its_own_librarys_stacks_only(tmp_path):
    fig = failure_charts.causes_figure(libraries_snapshot(tmp_path))
    by_name = {t.name: t for t in fig.data}
    assert set(by_name) == {"RuntimeError", "ValueError"}
    assert [x.split(" · ")[1] for x in by_name["RuntimeError"].x] == ["Transformers 4.57.1"] * 2
    assert list(by_name["RuntimeError"].y) == [1, 1]
    assert list(by_name["ValueError"].x) == ["2.10.0.0 · Diffusers 0.36.0"] and list(by_name["ValueError"].y) == [1]
    assert [c[1] for c in by_name["RuntimeError"].customdata] == ["1 model blocked"] * 2
    assert list(fig.layout.xaxis.categoryarray) == [*by_name["RuntimeError"].x, *by_name["ValueError"].x]
