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
    "search p50, empty query, small set", "search p50 back to back, 'llama', small set",
    "search p50, 'llama', large set", "search p95, 'llama', large set",
    "search p50 while typing, large set", "search p50, empty query, large set",
    "lookup p50, large set", "lookup p95, large set", "failures p50, large set", "failures p95, large set",
    "GET /api/v1/search p50, 'llama', large set", "GET /api/v1/search p95, 'llama', large set",
    "GET /api/v1/lookup p50, large set", "GET /api/v1/lookup p95, large set",
    "GET /api/v1/search p50, empty query, large set", "GET /api/v1/lookup p50, If-None-Match (304), large set",
    "RSS after start, small set", "RSS after start, large set", "RSS after distinct searches, large set",
    "unread: RSS growth, all-row /search calls (2 s after)", "unread: RSS above the start after the /search calls expired",
    "unread: RSS growth, refused ~1 MB calls (2 s after)", "unread: RSS above the start after the refused calls expired",
    "unread: another visitor's /lookup during the refused calls, median",
    "typing to result, median", "typing to result, p95",
    "first rows on screen, median", "load event sent, median", "JS chunks before first rows",
    "web fonts before first rows", "first HTML, SSR off (as shipped)",
    "first rows on screen with SSR on, median",  # a figure, or why it was not measured (no Node 24)
    "load: requests served", "load: errors", "load: p50", "load: p95",
    "refresh, nothing changed", "refresh, one file changed", "refresh in full (every file changed)",
    "peak RSS, refresh with nothing changed", "peak RSS, refresh with one file changed", "peak RSS, refresh in full",
    "soak: errors (searches, webhook calls)", "soak: seconds until a change is served, p95",
    "soak: RSS after the last refresh", "soak: search p95 during refreshes",
    "fine-tunes: 'likely runs' matched", "fine-tunes: 'likely fails' matched", "fine-tunes: 'unknown'",
    "every tested model: 'likely runs' matched", "every tested model: 'likely fails' matched",
    "cost: GET / (the Models page)", "cost: GET /card.png", "cost: GET /api/v1/search", "cost: GET /api/v1/lookup",
    "cost: POST /api/v1/check_config", "cost: GET /export/csv", "cost: GET /feed.atom", "cost: /search (named endpoint)",
    "cost: /check_config (named endpoint)",
    "first HTML of a new model link, p50", "first HTML of the same link again (kept), p50",
    "/api/v1/lookup of a new model, p50",
    *(f"visitors, {burst}: {figure}" for burst in ("slow burst", "fast burst", "spread, slow burst", "spread, fast burst") for figure in (
        "failed visits", "visits that waited for a full queue", "first HTML with the answer p95 (floor: its rows)", "live table p95", "RSS after ÷ before")),
    "tabs opened at once, each holding its heartbeat: refused",
    *(f"lighthouse mobile, {page}: {figure}" for page in ("home", "model link", "bare Gradio table")
      for figure in ("performance", "TBT")),
]  # fmt: skip


@pytest.mark.browser  # the typing benchmark drives Chromium
def test_every_benchmark_runs_in_quick_mode(tmp_path):
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run_all.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=1200, check=False,
        env={**os.environ, "BENCH_DATA": str(tmp_path)},
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    rows = {line.split("|")[1].strip() for line in run.stdout.splitlines() if line.startswith("| ")}
    missing = [f for f in FIGURES if f not in rows]
    assert not missing, f"not printed: {missing}\n{run.stdout[-3000:]}"
