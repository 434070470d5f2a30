"""5. Memory: resident set size (RSS) of the app after start, and after serving some requests.

    python benchmarks/memory.py [--quick]

The baseline is the bare page: what Gradio itself holds before any data.
"""

from __future__ import annotations

import random
import sys
import time

import common
import httpx
from common import Figure

GOAL_MB = 600


def warm(app: common.App, n: int) -> None:
    """Serve the page, some searches and lookups, as a few visitors would."""
    rng = random.Random(7)
    with httpx.Client(timeout=120) as client:
        client.get(app.url + "/")
        stacks = common.call(client, app.url, "stacks", [])[1]
        rows = common.call(client, app.url, "search", ["", "selected", "", "", ""])[1]
        ids = [r["model_id"] for r in rows[0]] if rows and rows[0] else []
        for _ in range(n):
            common.call(client, app.url, "search", [rng.choice(common.QUERIES), "selected", "", "", ""])
            if ids:
                stack = rng.choice(stacks[0])
                common.call(client, app.url, "lookup", [rng.choice(ids), stack["neuronx_cc"], stack["library_version"]])


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)
    n = 10 if quick else 100
    with common.bare() as app:
        time.sleep(1)
        bare = app.rss_mb()
    figures = []
    for size in ("small", "large"):
        with common.ours(common.dataset(rows[size])) as app:
            time.sleep(1)  # let the allocators hand back what start-up freed
            started, peak = app.rss_mb(), app.rss_mb(peak=True)
            warm(app, n)
            served = app.rss_mb()
        goal = size == "large" and not quick
        figures.append(Figure(
            f"RSS after start, {size} set", common.rows_label(rows[size]), started, "MB", bare,
            goal=f"≤ {GOAL_MB} MB" if goal else "", met=started <= GOAL_MB if goal else None,
            note=f"1 s after the first HTTP 200; peak during start {peak:,.0f} MB; {served:,.0f} MB after serving "
                 f"the page, every row of the newest stack and {n} searches and lookups",
        ))  # fmt: skip
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Memory (RSS)", run(quick), quick))
