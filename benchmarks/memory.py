"""5. Memory: resident set size (RSS) of the app after start, after serving some requests, and after
1,000 distinct searches at 200,000 rows (each a new answer to compute and, while it fits, to keep).

    python benchmarks/memory.py [--quick]

The baseline of the start figures is the bare page: what Gradio itself holds before any data. The
baseline of the searches is our own RSS after start, in the same process: memory must stay flat.
"""

from __future__ import annotations

import random
import sys
import time

import common
import httpx
from common import Figure

GOAL_MB = 600
GROWTH_GOAL = 1.3  # RSS after the distinct searches ≤ 1.3× RSS after start


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


def distinct_searches(stacks: list[dict], n: int) -> list[list]:
    """`n` different /search calls: the whole of every view on every stack (the largest answers), then
    model names, organisations and what people type, each on a random view and stack."""
    rng = random.Random(13)
    views = ("selected", "selected", "trending", "downloads")
    calls = [["", view, "", s["neuronx_cc"], s["library_version"]] for s in stacks for view in dict.fromkeys(views)]
    texts = [*common.QUERIES, *(f"model-{i}" for i in range(n)), *(f"org-{i}" for i in range(100))]
    seen = {tuple(c) for c in calls}
    while len(calls) < n:
        stack = rng.choice(stacks)
        call = [rng.choice(texts), rng.choice(views), "", stack["neuronx_cc"], stack["library_version"]]
        if tuple(call) not in seen:
            seen.add(tuple(call))
            calls.append(call)
    return calls[:n]


def searches_figure(rows: int, n: int, judged: bool) -> Figure:
    with common.ours(common.dataset(rows)) as app:
        time.sleep(1)
        started = app.rss_mb()
        with httpx.Client(timeout=120) as client:
            stacks = common.call(client, app.url, "stacks", [])[1][0]
            calls = distinct_searches(stacks, n)
            began = time.perf_counter()
            for data in calls:
                common.call(client, app.url, "search", data)
            took = time.perf_counter() - began
        time.sleep(1)
        after, peak = app.rss_mb(), app.rss_mb(peak=True)
    return Figure(
        "RSS after distinct searches, large set", common.rows_label(rows), after, "MB", started,
        goal=f"≤ {GROWTH_GOAL}× after start" if judged else "", met=after <= GROWTH_GOAL * started if judged else None,
        note=f"{n:,} distinct /search calls over plain HTTP (each a new session); baseline: RSS after start, "
             f"same process; {len(stacks)} stacks, {sum(not c[0] for c in calls)} of the "
             f"searches whole views; {took:.0f} s of searching; peak {peak:,.0f} MB",
    )  # fmt: skip


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
    figures.append(searches_figure(rows["large"], 100 if quick else 1000, not quick))
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Memory (RSS)", run(quick), quick))
