"""`run_all.py --repeat N`: a figure over several runs is the median of each part, and its note keeps every
run's ratio against the baseline of that run. Every benchmark it lists has the `run(quick)` it calls."""

from __future__ import annotations

import sys

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import common  # noqa: E402
import run_all  # noqa: E402


def figure(ours: float, baseline: float, met: bool | None = None, label: str = "search p50") -> common.Figure:
    return common.Figure(label, "10,000", ours, "ms", baseline, goal="≤ 0.8× floor", met=met, note="warm")


def test_the_median_of_three_runs_takes_each_part_and_lists_every_ratio():
    runs = [[figure(4.0, 10.0, True)], [figure(9.0, 10.0, False)], [figure(6.0, 12.0, True)]]
    (merged,) = run_all.medians(runs)
    assert (merged.ours, merged.baseline, merged.met) == (6.0, 10.0, True)
    assert "ratio per run 0.40×, 0.90×, 0.50×" in merged.note
    assert "median ratio 0.50×" in merged.note and "goal met in 2 of 3 runs" in merged.note
    assert merged.note.endswith(". warm")  # the benchmark's own note is kept


def test_a_goal_missed_in_most_runs_is_missed_and_a_figure_without_baseline_has_no_ratio():
    runs = [[figure(9.0, 10.0, False), common.Figure("rss", "sample", v, "MB")] for v in (100.0, 300.0, 200.0)]
    missed, rss = run_all.medians(runs)
    assert missed.met is False and "goal met in 0 of 3 runs" in missed.note
    assert rss.ours == 200.0 and rss.baseline is None and "ratio" not in rss.note


def test_every_listed_benchmark_has_the_run_quick_that_run_all_calls():
    assert all(run_all.takes_quick(module) for _, module in run_all.BENCHMARKS)
    assert not run_all.takes_quick(common)  # no run(): reported broken, not called
    assert set(run_all.SMOKE) <= {module.__name__ for _, module in run_all.BENCHMARKS}
