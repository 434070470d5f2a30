"""web/figures/causes.py: the causes across stacks, escaped."""

from __future__ import annotations

import json

import pytest

from components.web.figures import causes as failure_charts
from tests.web.failing import failing_snapshot


@pytest.fixture
def snap(tmp_path):
    return failing_snapshot(tmp_path)


def test_the_causes_chart_counts_models_per_stack_and_escapes_its_text(snap):
    fig = failure_charts.causes_figure(snap)
    assert fig is failure_charts.causes_figure(snap)  # once per snapshot
    text = json.dumps(fig.to_plotly_json(), default=str)
    assert "<img" not in text and "<script" not in text
    runtime = next(t for t in fig.data if t.name == "RuntimeError")
    assert list(runtime.y) == [1, 2] and len(fig.data) == 2
