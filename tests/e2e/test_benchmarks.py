"""The benchmarks still run (quick mode) and print every figure; their speed is never judged here."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

FIGURES = [
    "cold start, bundled sample", "cold start, large synthetic set",
    "first page, bundled sample", "first page, small set", "first page, large set",
    "search p50, 'llama', small set", "search p95, 'llama', small set", "search p50 while typing, small set",
    "search p50, empty query, small set", "search p50, 'llama', large set", "search p95, 'llama', large set",
    "search p50 while typing, large set", "search p50, empty query, large set",
    "lookup p50, large set", "lookup p95, large set", "failures p50, large set", "failures p95, large set",
    "RSS after start, small set", "RSS after start, large set", "RSS after distinct searches, large set",
    "typing to result, median", "typing to result, p95",
    "first rows on screen, median", "load event sent, median", "JS chunks before first rows",
    "web fonts before first rows", "first HTML, SSR off (as shipped)",
    "first rows on screen with SSR on, median",  # a figure, or why it was not measured (no Node 24)
    "load: requests served", "load: errors", "load: p50", "load: p95",
    "refresh, nothing changed", "refresh, one file changed", "refresh in full (every file changed)",
    "peak RSS, refresh with nothing changed", "peak RSS, refresh with one file changed", "peak RSS, refresh in full",
    "fine-tunes: 'likely runs' matched", "fine-tunes: 'likely fails' matched", "fine-tunes: 'unknown'",
    "every tested model: 'likely runs' matched", "every tested model: 'likely fails' matched",
]  # fmt: skip


@pytest.mark.browser  # the typing benchmark drives Chromium
def test_every_benchmark_runs_in_quick_mode(tmp_path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run_all.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
        env={**os.environ, "BENCH_DATA": str(tmp_path)},
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    rows = {line.split("|")[1].strip() for line in run.stdout.splitlines() if line.startswith("| ")}
    missing = [f for f in FIGURES if f not in rows]
    assert not missing, f"not printed: {missing}\n{run.stdout[-3000:]}"


def test_the_expectation_benchmark_holds_out_each_tested_fine_tune(tmp_path):
    import json

    from tests.helpers import row, write

    llama = {"architectures": ["LlamaForCausalLM"]}
    write(tmp_path / "data" / "one.parquet", [
        row("base/a"), row("ft/a1"), row("ft/a2", result="FAIL", error="RuntimeError: x"),
        row("base/b", result="FAIL", error="RuntimeError: y"), row("ft/b1", result="FAIL"),
        row("ft/skipped", result="EXCLUDED", exclusion="not prioritized", tp=None),
    ])  # fmt: skip
    records = [{"id": m, "config": llama, "safetensors": {"total": 8_000_000_000}} for m in ("base/a", "base/b")]
    records += [
        {"id": m, "config": llama, "safetensors": {"total": 8_000_000_000}, "cardData": {"base_model": base}}
        for m, base in (("ft/a1", "base/a"), ("ft/a2", "base/a"), ("ft/b1", "base/b"), ("ft/skipped", "base/a"))
    ]
    (tmp_path / "models.json").write_text(json.dumps(records))
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "expectation.py"), "--dataset", str(tmp_path / "data"),
         "--models", str(tmp_path / "models.json")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    out = " ".join(run.stdout.split())
    # ft/a1 and ft/a2 expect to run (base/a passes): one matched; ft/b1 expects to fail (base/b fails): matched
    assert "fine-tunes: 3 held out (1 PASS, 2 FAIL)" in out, out
    assert "likely runs 2 matched 1 (50%) likely fails 1 matched 1 (100%)" in out, out
    assert "| fine-tunes: 'likely runs' matched | 3 held out | 50% | 33% |" in out, out
