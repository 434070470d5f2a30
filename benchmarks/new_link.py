"""What one new link costs, one request at a time: the first HTML of a model link never asked for (made), the
same link again (kept), and `/api/v1/lookup` of a model never asked for, over the visitor benchmark's spread
data (2,000 models × 5 stacks), beside the floor page's own HTML measured in the same run.

`python benchmarks/new_link.py [--quick]` (also run by `run_all.py`). Issue 48 measured 12.6 ms (made), 1.0 ms
(kept) and 4.9 ms (lookup) p50 on this data; under a crowd spread over many links, the made page is what each
visitor pays.
"""

from __future__ import annotations

import argparse
import time

import common
import httpx
from common import Figure
from visitors import SPREAD_DATA, SPREAD_LINKS, spread_models

QUICK_LINKS, QUICK_DATA = 20, (1_000, 5)
MS = 1000
# what a browser sends: the page comes compressed as it would to a visitor
HEADERS = {"accept-encoding": "gzip, deflate, br, zstd", "accept": "text/html"}


def timed(client: httpx.Client, url: str, **params: str) -> float:
    began = time.perf_counter()
    answer = client.get(url, params=params, headers=HEADERS)
    elapsed = time.perf_counter() - began
    if answer.status_code != 200:
        raise RuntimeError(f"{url} {params}: {answer.status_code}")
    return elapsed * MS


def run(quick: bool = False) -> list[Figure]:
    links, (rows, stacks) = (QUICK_LINKS, QUICK_DATA) if quick else (SPREAD_LINKS, SPREAD_DATA)
    data = common.dataset(rows, stacks)
    models = spread_models(data, links)
    label = f"{len(models)} links, {rows:,} rows × {stacks} stacks"
    with common.ours(data) as ours, common.floor() as floor, httpx.Client(timeout=30) as client:
        for _ in range(5):  # both servers warm: their templates rendered, their first moment read
            timed(client, ours.url + "/")
            timed(client, floor.url + "/")
        floor_html, made, kept, lookup = [], [], [], []
        for model in models:  # in turns, so the machine's moments fall on both alike
            floor_html.append(timed(client, floor.url + "/"))
            made.append(timed(client, ours.url + "/", model=model))
            kept.append(timed(client, ours.url + "/", model=model))
        for model in reversed(models):  # /api/v1 keeps its own answers: each model once
            lookup.append(timed(client, ours.url + "/api/v1/lookup", model=model))
    floor_p50 = common.median(floor_html)
    return [
        Figure("first HTML of a new model link, p50", label, common.median(made), "ms", floor_p50,
               note=f"p95 {common.percentile(made, 95):,.1f} ms; baseline: the floor page's HTML (no rows in it)"),
        Figure("first HTML of the same link again (kept), p50", label, common.median(kept), "ms", floor_p50,
               note=f"p95 {common.percentile(kept, 95):,.1f} ms"),
        Figure("/api/v1/lookup of a new model, p50", label, common.median(lookup), "ms",
               note=f"p95 {common.percentile(lookup, 95):,.1f} ms"),
    ]  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    print(common.report("What one new link costs, one request at a time", run(parser.parse_args().quick), False))
