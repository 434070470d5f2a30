"""Run every benchmark and print its table: `python benchmarks/run_all.py [--quick] [--markdown FILE]`.

The full run takes about 5-8 minutes on a 2-core machine; `--quick` (small row counts, short
load, few queries) takes 1-2 minutes and only proves the scripts still run — its goals are not judged.
Speed never fails the run: the exit status is 1 only when a benchmark itself breaks.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import traceback
from datetime import date
from pathlib import Path

import api_v1
import browser
import cold_start
import common
import cost
import expectation
import first_rows
import load
import memory
import page_weight
import refresh
import search_latency
import soak
import visitors

BENCHMARKS = (
    ("Cold start (process start → first HTTP 200)", cold_start),
    ("First-page weight (HTML with inlined config)", page_weight),
    ("Search and lookup latency over HTTP", search_latency),
    ("Plain HTTP API (GET /api/v1) beside the named endpoints", api_v1),
    ("Memory (RSS)", memory),
    ("In Chromium: typing a query → the table shows it", browser),
    ("In Chromium: navigation → first result rows on screen", first_rows),
    (f"Load: {load.CLIENTS} concurrent clients searching", load),
    ("Refresh: nothing changed, one file changed, in full", refresh),
    ("Expectation: verdicts against the real result, each model held out", expectation),
    ("Soak: refreshes while clients search", soak),
    ("Cost per request (CPU of the app): normal and worst input, each route", cost),
    ("Visitors: a burst of new tabs on a shared link (locust), beside the floor", visitors),
)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small row counts, short load, few queries")
    parser.add_argument("--only", help="comma-separated module names, e.g. search_latency,load")
    parser.add_argument("--markdown", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    started = time.perf_counter()
    command = "python benchmarks/run_all.py" + (" --quick" if args.quick else "")
    out = ["# Benchmark results", "", f"`{command}` on {date.today():%Y-%m-%d}", "", f"Machine: {machine()}", ""]
    print("\n".join(out), flush=True)
    broken = []
    for title, module in BENCHMARKS:
        name = module.__name__
        if only and name not in only:
            continue
        began = time.perf_counter()
        try:
            text = common.report(title, module.run(args.quick), args.quick)
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
