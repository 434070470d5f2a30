"""3 and 4. /search, /lookup and /failures latency over plain HTTP: `POST /gradio_api/call/NAME`, then its
event stream, each call timed end to end. The floor is the bare page's no-op endpoint.

    python benchmarks/search_latency.py [--quick]

Calls alternate between our app and the bare page so a busy machine slows both alike; the headline query is
also called back to back on each (no other call between), which a server that has not idled answers faster.
`/search` memoises a view per query, so repeating one query measures the steady state; the
"typing" figure sends distinct queries (every prefix of a few names), none of them cached.
`/search` returns every matching row, so the empty query at the large size sends ~10,000 rows.
`/failures` reduces every FAIL's error to its cause once per snapshot, on its first call (timed apart),
then answers each stack from that: its p50 is printed beside `/search`'s.
"""

from __future__ import annotations

import random
import sys

import common
import httpx
from common import Figure

NOOP = "noop"
TYPED = ("llama 3.1 8b", "qwen2.5 7b instruct", "mistral", "model-4217", "org-12/model")


def prefixes() -> list[str]:
    return [text[:i] for text in TYPED for i in range(2, len(text) + 1) if not text[:i].endswith(" ")]


def paired(
    client: httpx.Client, ours: common.App, bare: common.App, queries: list[list], api: str
) -> tuple[list, list]:
    """Time each query on our endpoint and the no-op alternately; returns (ours, floor) in ms."""
    mine, floor = [], []
    for data in queries:
        floor.append(common.call(client, bare.url, NOOP, data)[0] * 1000)
        mine.append(common.call(client, ours.url, api, data)[0] * 1000)
    return mine, floor


def search_figures(client, ours, bare, size: str, rows: int, n: int, goal: float | None) -> list[Figure]:
    label = common.rows_label(rows)
    for _ in range(5):  # warm both servers and the memo of the headline query
        common.call(client, ours.url, "search", [common.QUERY, "selected", "", "", ""])
        common.call(client, bare.url, NOOP, [common.QUERY, "selected", "", "", ""])
    mine, floor = paired(client, ours, bare, [[common.QUERY, "selected", "", "", ""]] * n, "search")
    figures = [
        Figure(f"search p50, '{common.QUERY}', {size} set", label, common.median(mine), "ms", common.median(floor),
               goal=f"≤ {goal}× floor" if goal else "", met=common.median(mine) <= goal * common.median(floor) if goal else None),
        Figure(f"search p95, '{common.QUERY}', {size} set", label, common.percentile(mine, 95), "ms", common.percentile(floor, 95)),
    ]  # fmt: skip
    if size == "small":
        figures.append(back_to_back(client, ours, bare, label, n))
    typed = [[q, "selected", "", "", ""] for q in prefixes()]
    mine, floor = paired(client, ours, bare, typed, "search")
    figures.append(Figure(f"search p50 while typing, {size} set", label, common.median(mine), "ms", common.median(floor),
                          note=f"{len(typed)} distinct prefixes of {', '.join(repr(t) for t in TYPED)}; p95 "
                               f"{common.percentile(mine, 95):,.0f} ms (floor {common.percentile(floor, 95):,.0f} ms)"))  # fmt: skip
    empty = [["", "selected", "", "", ""]] * max(3, n // 10)
    mine, floor = paired(client, ours, bare, empty, "search")
    count = len(common.call(client, ours.url, "search", empty[0])[1][0])
    figures.append(Figure(f"search p50, empty query, {size} set", label, common.median(mine), "ms", common.median(floor),
                          note=f"returns all {count:,} rows of the newest stack; p95 {common.percentile(mine, 95):,.0f} ms"))  # fmt: skip
    return figures


def back_to_back(client, ours, bare, label: str, n: int) -> Figure:
    """The headline query called n times in a row on each app (no call to the other between). The paired figure
    makes each server wait through the other's call, so it also pays the machine waking an idle process: on the
    2-core VMs measured, a bare /healthz took ~1 ms back to back and ~3-4 ms after a 10-30 ms pause."""
    data = [common.QUERY, "selected", "", "", ""]
    mine = [common.call(client, ours.url, "search", data)[0] * 1000 for _ in range(n)]
    floor = [common.call(client, bare.url, NOOP, data)[0] * 1000 for _ in range(n)]
    return Figure(f"search p50 back to back, '{common.QUERY}', small set", label, common.median(mine), "ms",
                  common.median(floor), note=f"{n} calls in a row on each app, ours first; p95 "
                  f"{common.percentile(mine, 95):,.1f} ms (floor {common.percentile(floor, 95):,.1f} ms)")  # fmt: skip


def lookup_figures(client, ours, bare, rows: int, n: int) -> list[Figure]:
    found = common.call(client, ours.url, "search", ["", "selected", "", "", ""])[1][0]
    stacks = common.call(client, ours.url, "stacks", [])[1][0]
    rng = random.Random(11)
    ids = [r["model_id"] for r in found]
    calls = []
    for _ in range(n):
        stack = rng.choice(stacks)
        calls.append([rng.choice(ids), stack["neuronx_cc"], stack["library_version"]])
    mine, floor = [], []
    for data in calls:
        floor.append(common.call(client, bare.url, NOOP, [*data, "", ""])[0] * 1000)
        mine.append(common.call(client, ours.url, "lookup", data)[0] * 1000)
    label = common.rows_label(rows)
    return [
        Figure("lookup p50, large set", label, common.median(mine), "ms", common.median(floor),
               note=f"{n} random models on random stacks (row, run.py, error, history)"),
        Figure("lookup p95, large set", label, common.percentile(mine, 95), "ms", common.percentile(floor, 95)),
    ]  # fmt: skip


def failures_figures(client, ours, bare, rows: int, n: int, search_p50: float) -> list[Figure]:
    stacks = common.call(client, ours.url, "stacks", [])[1][0]
    first, answer = common.call(client, ours.url, "failures", ["", ""])
    causes = len(answer[0]["causes"])
    rng = random.Random(13)
    calls = [[s["neuronx_cc"], s["library_version"]] for s in (rng.choice(stacks) for _ in range(n))]
    mine, floor = [], []
    for data in calls:
        floor.append(common.call(client, bare.url, NOOP, [*data, "", "", ""])[0] * 1000)
        mine.append(common.call(client, ours.url, "failures", data)[0] * 1000)
    label = common.rows_label(rows)
    return [
        Figure("failures p50, large set", label, common.median(mine), "ms", common.median(floor),
               note=f"beside search p50 {search_p50:,.1f} ms; {n} calls on random stacks of {len(stacks)}; the newest "
                    f"has {causes} causes; the first call, which reduces every FAIL's error, took {first * 1000:,.0f} ms"),
        Figure("failures p95, large set", label, common.percentile(mine, 95), "ms", common.percentile(floor, 95)),
    ]  # fmt: skip


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)
    n = 20 if quick else 200
    figures: list[Figure] = []
    with common.bare() as bare, httpx.Client(timeout=120) as client:
        for size, goal in (("small", 0.8), ("large", 1.3)):  # issue 47: p50 ≤ 0.8×; issue 13: ≤ 1.3× at 200,000 rows
            with common.ours(common.dataset(rows[size])) as ours:
                figures += search_figures(client, ours, bare, size, rows[size], n, goal)
                if size == "large":
                    figures += lookup_figures(client, ours, bare, rows[size], n)
                    search_p50 = next(
                        f.ours for f in figures if f.label.startswith(f"search p50, '{common.QUERY}', large")
                    )
                    figures += failures_figures(client, ours, bare, rows[size], n, search_p50)
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Search and lookup latency over HTTP (ms)", run(quick), quick))
