"""The benchmarks still run: `run_all.py --smoke` imports every one and runs those in its `SMOKE` (quick mode),
printing their tables. Their speed is never judged here, and the quick mode of them all
(`python benchmarks/run_all.py --quick`, about 5 minutes) is run on its own, not by the suite."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import run_all  # noqa: E402
import worst_inputs  # noqa: E402

COST_FIGURES = [
    "cost: GET / (the Models page)", "cost: GET /card.png", "cost: GET /api/v1/search", "cost: GET /api/v1/lookup",
    "cost: POST /api/v1/check_config", "cost: GET /export/csv", "cost: GET /feed.atom", "cost: /search (named endpoint)",
    "cost: /check_config (named endpoint)",
]  # fmt: skip
WORST_FIGURES = [f"worst input: {name}" for name in worst_inputs.CASES]


def test_smoke_mode_names_every_benchmark_and_prints_the_tables_of_those_it_runs(tmp_path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run_all.py"), "--smoke"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "BENCH_DATA": str(tmp_path)},
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run_all.SMOKE == ("cost", "worst_inputs"), "a benchmark added to SMOKE: name its figures here"
    headings = {line.removeprefix("### ") for line in run.stdout.splitlines() if line.startswith("### ")}
    untitled = [title for title, _ in run_all.BENCHMARKS if not any(h.startswith(title) for h in headings)]
    assert not untitled, f"not named: {untitled}\n{run.stdout[-3000:]}"
    rows = {line.split("|")[1].strip() for line in run.stdout.splitlines() if line.startswith("| ")}
    missing = [f for f in COST_FIGURES + WORST_FIGURES if f not in rows]
    assert not missing, f"not printed: {missing}\n{run.stdout[-3000:]}"
    assert "smoke mode does not run it" in run.stdout and "broken" not in run.stdout.splitlines()[-1]
