"""The expectation benchmark holds out each tested fine-tune and counts how often its verdict matched
(a script of `benchmarks/`, run here on data the test makes; no browser)."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT


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
