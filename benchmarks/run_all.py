"""Run every benchmark and print its table: `python benchmarks/run_all.py [--quick | --smoke] [--markdown FILE]`.

The full run takes about 13-18 minutes on a 2-core machine; `--quick` (small row counts, short
load, few queries) takes about 5 minutes and only proves the scripts still run — its goals are not judged.
`--smoke` (under 30 s, what the test suite runs) proves less: every benchmark imports and takes `run(quick)`,
and the ones in `SMOKE` run in quick mode and print their tables.
`--repeat N` runs each benchmark N times and reports each figure as the median of its runs (each run's
ratio against its own baseline, measured in that run, is listed in the figure's note).
Speed never fails the run: the exit status is 1 only when a benchmark itself breaks.
"""

from __future__ import annotations

import argparse
import inspect
import os
import platform
import sys
import time
import traceback
from dataclasses import replace
from datetime import date
from pathlib import Path

import api_v1
import browser
import cold_start
import common
import cost
import expectation
import first_rows
import lighthouse
import load
import memory
import new_link
import page_weight
import refresh
import search_latency
import soak
import unread
import visitors
import worst_inputs

BENCHMARKS = (
    ("Cold start (process start → first HTTP 200)", cold_start),
    ("First-page weight (HTML with inlined config)", page_weight),
    ("Search and lookup latency over HTTP", search_latency),
    ("Plain HTTP API (GET /api/v1) beside the named endpoints", api_v1),
    ("Memory (RSS)", memory),
    ("Unread plain calls: what they hold, and memory 90 s after (RSS)", unread),
    ("In Chromium: typing a query → the table shows it", browser),
    ("In Chromium: navigation → first result rows on screen", first_rows),
    (f"Load: {load.CLIENTS} concurrent clients searching", load),
    ("Refresh: nothing changed, one file changed, in full", refresh),
    ("Expectation: verdicts against the real result, each model held out", expectation),
    ("Soak: refreshes while clients search", soak),
    ("Cost per request (CPU of the app): normal and worst input, each route", cost),
    ("The text readers on their worst inputs, in process", worst_inputs),
    ("What one new link costs, one request at a time", new_link),
    ("Visitors: a burst of new tabs on a shared link (locust), beside the floor", visitors),
    ("Lighthouse as a phone: first page and a model link beside a bare Gradio table", lighthouse),
)
# What `--smoke` runs (in quick mode): one benchmark that starts the app, drives it over HTTP and prints a table,
# so the machinery every benchmark shares (common.App, the datasets, the report) is proved in seconds; and the
# worst inputs, in process (about a second), whose figures the hang-guarded tests no longer time.
SMOKE = ("cost", "worst_inputs")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import gradio
    import pandas
    import pyarrow

    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, gradio {gradio.__version__}, "
            f"pandas {pandas.__version__}, pyarrow {pyarrow.__version__}, {platform.system()} {platform.release()}")  # fmt: skip


def medians(runs: list[list[common.Figure]]) -> list[common.Figure]:
    """One figure per label over several runs of one benchmark: the median of ours, of the baseline and of
    the runs' ratios (each against the baseline of its own run), and whether the goal is met in the median
    run; the note lists every run's ratio. A label missing from a run is reported over the runs that have it."""
    out = []
    for first in runs[0]:
        same = [f for run in runs for f in run if f.label == first.label]
        ratios = [f.ratio for f in same if f.ratio is not None]
        mets = [f.met for f in same if f.met is not None]
        ours = common.median([f.ours for f in same])
        baselines = [f.baseline for f in same if f.baseline is not None]
        runs_note = ", ".join(f"{r:.2f}×" for r in ratios)
        note = f"median of {len(same)} runs" + (f"; ratio per run {runs_note}" if ratios else "")
        if ratios:
            note += f"; median ratio {common.median(ratios):.2f}×"
        if mets:
            note += f"; goal met in {sum(mets)} of {len(mets)} runs"
        out.append(
            replace(
                first,
                ours=ours,
                baseline=common.median(baselines) if baselines else None,
                met=None if not mets else sorted(mets)[len(mets) // 2],
                note=note + (f". {first.note}" if first.note else ""),
            )
        )
    return out


def takes_quick(module) -> bool:
    """Whether a benchmark module has the `run(quick)` this script calls."""
    run = getattr(module, "run", None)
    return callable(run) and "quick" in inspect.signature(run).parameters


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small row counts, short load, few queries")
    parser.add_argument("--smoke", action="store_true", help=f"check every benchmark imports; run only {SMOKE}, quick")
    parser.add_argument("--only", help="comma-separated module names, e.g. search_latency,load")
    parser.add_argument("--markdown", type=Path, help="also write the tables to this file")
    parser.add_argument("--repeat", type=int, default=1, help="run each benchmark N times; report the medians")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    quick = args.quick or args.smoke
    started = time.perf_counter()
    command = "python benchmarks/run_all.py" + (" --smoke" if args.smoke else " --quick" if args.quick else "")
    command += (f" --only {args.only}" if args.only else "") + (f" --repeat {args.repeat}" if args.repeat > 1 else "")
    out = ["# Benchmark results", "", f"`{command}` on {date.today():%Y-%m-%d}", "", f"Machine: {machine()}", ""]
    print("\n".join(out), flush=True)
    broken = []
    for title, module in BENCHMARKS:
        name = module.__name__
        if only and name not in only:
            continue
        began = time.perf_counter()
        if not takes_quick(module):
            broken.append(name)
            text = f"### {title}\n\n{name} has no run(quick) to call\n"
        elif args.smoke and name not in SMOKE:
            text = f"### {title}\n\n({name}: imported; smoke mode does not run it, `--quick` does)\n"
        else:
            try:
                runs = [module.run(quick) for _ in range(max(1, args.repeat))]
                text = common.report(title, medians(runs) if len(runs) > 1 else runs[0], quick)
            except Exception:  # noqa: BLE001 — report the broken benchmark, run the others
                broken.append(name)
                text = f"### {title}\n\n{name} failed:\n\n```\n{traceback.format_exc()}```\n"
            text += f"\n({name}: {time.perf_counter() - began:.0f} s)\n"
        print(text, flush=True)
        out.append(text)
    total = f"Total: {time.perf_counter() - started:.0f} s" + (f"; broken: {', '.join(broken)}" if broken else "")
    print(total)
    out.append(total)
    if args.markdown:
        args.markdown.write_text("\n".join(out) + "\n", encoding="utf-8")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
