"""7. Load: concurrent clients searching over plain HTTP for a fixed time, against the bare page's
no-op endpoint under the same load.

    python benchmarks/load.py [--quick]

Each client is its own connection and loops: pick the next realistic query, POST
/gradio_api/call/search, read its event stream, repeat. Errors are failed requests, error events
and timeouts (30 s).
"""

from __future__ import annotations

import asyncio
import sys
import time

import common
import httpx
from common import Figure

CLIENTS = 50
TIMEOUT = 30.0


async def hammer(url: str, api: str, clients: int, seconds: float) -> tuple[list[float], int]:
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds

    async def client(k: int) -> None:
        nonlocal errors
        async with httpx.AsyncClient(timeout=TIMEOUT) as http:
            i = k
            while time.perf_counter() < deadline:
                query = common.QUERIES[i % len(common.QUERIES)]
                i += 1
                try:
                    latencies.append(await common.acall(http, url, api, [query, "selected", "", "", ""]))
                except (httpx.HTTPError, common.CallError, ValueError):
                    errors += 1

    await asyncio.gather(*(client(k) for k in range(clients)))
    return latencies, errors


def run(quick: bool = False) -> list[Figure]:
    seconds = 5.0 if quick else 30.0
    rows = common.rows_for(quick)["large"]
    with common.bare() as bare:
        floor, floor_errors = asyncio.run(hammer(bare.url, "noop", CLIENTS, seconds))
    with common.ours(common.dataset(rows)) as app:
        mine, errors = asyncio.run(hammer(app.url, "search", CLIENTS, seconds))
        rss = app.rss_mb()
    label = common.rows_label(rows)
    ms = 1000
    return [
        Figure("load: requests served", label, len(mine), "count", len(floor),
               note=f"{CLIENTS} clients for {seconds:g} s; {len(mine) / seconds:,.0f} searches/s; RSS afterwards {rss:,.0f} MB"),
        Figure("load: errors", label, errors, "count", floor_errors, goal="0", met=errors == 0),
        Figure("load: p50", label, common.median(mine) * ms, "ms", common.median(floor) * ms),
        Figure("load: p95", label, common.percentile(mine, 95) * ms, "ms", common.percentile(floor, 95) * ms,
               goal="≤ 1 s", met=common.percentile(mine, 95) <= 1.0),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report(f"Load: {CLIENTS} concurrent clients searching", run(quick), quick))
