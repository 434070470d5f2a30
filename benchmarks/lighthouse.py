"""Lighthouse as a phone: performance and Total Blocking Time of the first page and a model's link, beside a bare
Gradio table page (`baselines/naive.py`: the same 2,000 synthetic rows in a gr.Dataframe) measured in the same run; and how much
of the script work before the page can be used is the app's own.

    python benchmarks/lighthouse.py [--quick]

Lighthouse's mobile preset throttles the CPU four times and the network to a slow 4G, so its figures read as a
mid-range phone's, not this machine's; on 2 busy cores they also move with the machine's load, hence the median of
`RUNS` audits of each page, taken in turn. `--quick` audits each page once. Lighthouse comes from the npm registry
into the gitignored .lighthouse/ (tests/lighthouse.sh); without it every figure says it was not measured.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import common
from common import ROOT, Figure

RUNS = 3
ROWS = 2_000  # about the bundled sample's size, in quick mode and full alike
CHROMIUM = "/usr/bin/chromium"
MODEL_LINK = "/?model=Qwen/Qwen3-0.6B"
# the app's own scripts: the page's script and the table's (routes/scripts.py), and what its first HTML inlines
OWN_SCRIPTS = ("/page.js", "/table.js")
TITLE = "Lighthouse as a phone: first page and a model link beside a bare Gradio table"
PAGES = (("home", "ours", "/"), ("model link", "ours", MODEL_LINK), ("bare Gradio table", "naive", "/"))


def lighthouse() -> list[str] | None:
    """`[node, cli]`, from tests/lighthouse.sh (which installs Lighthouse when missing), or None."""
    found = subprocess.run(["bash", str(ROOT / "tests" / "lighthouse.sh")], capture_output=True, text=True, check=False)
    return found.stdout.split() or None


def audit(command: list[str], url: str) -> dict:
    """One mobile Lighthouse performance audit of `url`: its score (0-100), TBT (ms), the main thread's script
    time (ms) and, of it, the app's own files' and the page's inline scripts'."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        subprocess.run(
            [*command, url, "--output=json", f"--output-path={out}", "--quiet", "--only-categories=performance",
             "--chrome-flags=--headless=new --no-sandbox"],
            env={**os.environ, "CHROME_PATH": CHROMIUM}, check=True, timeout=300, capture_output=True,
        )  # fmt: skip
        report = json.loads(out.read_text(encoding="utf-8"))
    audits = report["audits"]
    boot = audits["bootup-time"]["details"]["items"]
    page = url.split("?")[0].rstrip("/")
    return {
        "score": report["categories"]["performance"]["score"] * 100,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "scripting": sum(item["scripting"] for item in boot),
        "files": sum(item["scripting"] for item in boot if item["url"].split("?")[0].endswith(OWN_SCRIPTS)),
        # Lighthouse gives the page itself what its inline scripts run, Gradio's inlined config read among them
        "document": sum(item["scripting"] for item in boot if item["url"].split("?")[0].rstrip("/") == page),
    }


def run(quick: bool = False) -> list[Figure]:
    command = lighthouse()
    if command is None:
        why = "not measured: no Lighthouse (tests/lighthouse.sh could not find or install it)"
        return [
            Figure(f"lighthouse mobile, {name}: {what}", common.rows_label(ROWS), float("nan"), unit, note=why)
            for name, _, _ in PAGES
            for what, unit in (("performance", "/100"), ("TBT", "ms"))
        ]
    rows = common.dataset(ROWS)  # the bare page reads a set of one schema; the bundled sample mixes several
    apps = {"ours": common.ours(rows), "naive": common.naive(rows)}
    seen: dict[str, list[dict]] = {name: [] for name, _, _ in PAGES}
    try:
        for app in apps.values():
            app.start()
        for _ in range(1 if quick else RUNS):  # each page in turn, so the machine's load falls on all alike
            for name, app_name, path in PAGES:
                seen[name].append(audit(command, apps[app_name].url + path))
    finally:
        for app in apps.values():
            app.stop()

    def mid(name: str, key: str) -> float:
        return statistics.median(a[key] for a in seen[name])

    floor = "bare Gradio table"
    figures = []
    for name, _, _ in PAGES:
        baseline = None if name == floor else mid(floor, "score")
        figures.append(
            Figure(f"lighthouse mobile, {name}: performance", common.rows_label(ROWS), mid(name, "score"), "/100", baseline,
                   note="runs: " + ", ".join(f"{a['score']:.0f}" for a in seen[name]))
        )  # fmt: skip
        figures.append(
            Figure(f"lighthouse mobile, {name}: TBT", common.rows_label(ROWS), mid(name, "tbt"), "ms",
                   None if name == floor else mid(floor, "tbt"),
                   note=f"script time {mid(name, 'scripting'):,.0f} ms: the app's files ({', '.join(OWN_SCRIPTS)}) "
                        f"{mid(name, 'files'):,.0f} ms, the page's inline scripts {mid(name, 'document'):,.0f} ms, "
                        "the rest Gradio's bundles")
        )  # fmt: skip
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report(TITLE, run(quick), quick))
