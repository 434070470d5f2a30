"""Two stacks of runs for the charts, with a hostile model id: the charts' data and figures read it."""

from __future__ import annotations

from components.sources.dataset import load
from tests.helpers import row, write

OLD, NEW = "2.9.1.0+aaaaaaaa", "2.10.0.0+bbbbbbbb"  # 2.9 < 2.10: version order, not text order
HOSTILE = "evil/<img src=x onerror=alert(1)>&"


def chart_snapshot(folder):
    write(folder / "old.parquet", [
        row("Qwen/a", cc=OLD),
        row("Qwen/b", cc=OLD, result="FAIL"),
        row("meta/c", cc=OLD, result="FAIL"),
        row("meta/d", cc=OLD, result="EXCLUDED", exclusion="too big", tp=None, wall_s=None, hbm_peak_gb=None),
    ])  # fmt: skip
    write(folder / "new.parquet", [
        row("Qwen/a", cc=NEW, tp=2, wall_s=1200, hbm_peak_gb=30.0, hbm_capacity_gb=48.0),
        row("Qwen/b", cc=NEW),
        row("Qwen/e", cc=NEW, result="FAIL"),
        row("meta/c", cc=NEW),
        row("gpt2", cc=NEW, result="TIMEOUT"),
        row(HOSTILE, cc=NEW),
    ])  # fmt: skip
    return load(folder)
