"""Results nobody reads: what unread plain calls (`POST /gradio_api/call/NAME`, never followed by the read) make the
app hold, and whether the memory comes back.

    python benchmarks/unread.py [--quick]

On 2,000 models × 5 stacks (the five newest files of a synthetic set of 2,000 rows a stack), one app, two bursts:

1. 300 `/search` calls asking for every row of a stack (the largest answer: ~0.9 MB of JSON), cycling through the
   stacks, one after another;
2. 300 refused `/check_config` calls, each a ~990 KB text that is no JSON object, 32 at a time (issue 61: these
   were handed to Gradio's queue, which kept each input until someone read the answer), while another visitor
   looks a model up once every 50 ms; that visitor's median is reported beside its median before the burst.

For each, RSS is read before (caches warm), 2 s after the last call, and 90 s after it: the kept answers expire
after `UNREAD_SECONDS` (60 s, `components/web/gradio/direct_calls.py`) and the freed memory is given back. Quick mode
(`run_all.py --quick`) makes 20 calls of each on the small dataset and reads RSS 5 s after: it only proves the
script runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import common
import httpx
from common import Figure

MODELS, STACKS = 2_000, 5
CALLS, AT_ONCE = 300, 32
BACK_AFTER = 90.0  # s after the last call: when RSS should be back near the start
GOAL_SEARCHES = 100.0  # MB: what 300 unread all-row searches may add
GOAL_REFUSED = 150.0  # MB: what 300 refused ~1 MB calls may add, 2 s after the last (issue 61)
GOAL_BACK = 50.0  # MB: how far above the start RSS may stay 90 s after the last call
REFUSED = '["' + "x" * 990_000 + '"]'  # a config.json that is no JSON object: refused in words


def dataset() -> common.Path:
    """2,000 models on each of the 5 newest stacks of a 20-stack synthetic set."""
    out = common.DATA_DIR / f"unread-{MODELS}x{STACKS}"
    if not (out / ".complete").exists():
        whole = common.dataset(MODELS * 20)  # 20 stacks of 2,000 rows, one file each
        out.mkdir(parents=True, exist_ok=True)
        for path in sorted(whole.rglob("*.parquet"))[-STACKS:]:
            shutil.copy(path, out / path.name)
        (out / ".complete").write_text("ok\n")
    return out


def searches(app: common.App, client: httpx.Client, asks: list[list[str]], calls: int) -> float:
    """Post `calls` all-row searches, never read; the seconds it took."""
    began = time.perf_counter()
    for i in range(calls):
        client.post("/gradio_api/call/search", json={"data": asks[i % len(asks)]}).raise_for_status()
    return time.perf_counter() - began


def refused(app: common.App, calls: int) -> tuple[float, list[float], list[float]]:
    """Post `calls` refused ~1 MB calls, `AT_ONCE` at a time, never read, while a visitor looks a model up every
    50 ms; (the seconds it took, the visitor's latencies before the burst, during it)."""
    body = json.dumps({"data": [REFUSED, "", ""]}).encode()
    headers = {"content-type": "application/json"}
    before: list[float] = []
    during: list[float] = []
    burst = threading.Event()
    done = threading.Event()

    def visitor() -> None:
        with httpx.Client(base_url=app.url, timeout=60) as client:
            while not done.is_set():
                seconds, _ = common.call(client, app.url, "lookup", ["Qwen/Qwen3-0.6B", "", ""])
                (during if burst.is_set() else before).append(seconds)
                time.sleep(0.05)

    def post(_: int) -> None:
        with httpx.Client(base_url=app.url, timeout=120) as client:
            client.post("/gradio_api/call/check_config", content=body, headers=headers).raise_for_status()

    watcher = threading.Thread(target=visitor)
    watcher.start()
    time.sleep(2)
    burst.set()
    began = time.perf_counter()
    with ThreadPoolExecutor(AT_ONCE) as pool:
        list(pool.map(post, range(calls)))
    sent = time.perf_counter() - began
    done.set()
    watcher.join(60)
    return sent, before, during


def burst(app: common.App, send, back_after: float) -> tuple[float, float, float, float]:  # noqa: ANN001
    """RSS before `send()`, 2 s after it returned, and `back_after` s after; and what `send()` returned."""
    time.sleep(2)
    started = app.rss_mb()
    result = send()
    last = time.perf_counter()
    time.sleep(2)
    after = app.rss_mb()
    time.sleep(max(0.0, last + back_after - time.perf_counter()))
    return started, after, app.rss_mb(), result


def run(quick: bool = False) -> list[Figure]:
    calls = 20 if quick else CALLS
    back_after = 5.0 if quick else BACK_AFTER
    data = common.dataset(common.rows_for(True)["small"]) if quick else dataset()
    with common.ours(data) as app, httpx.Client(base_url=app.url, timeout=120) as client:
        stacks = common.call(client, app.url, "stacks", [])[1][0]
        asks = [["", "selected", "", s["neuronx_cc"], s["library_version"]] for s in stacks][:STACKS]
        for ask in asks:  # each answer once, read: the caches every later call finds warm
            common.call(client, app.url, "search", ask)
        common.call(client, app.url, "lookup", ["Qwen/Qwen3-0.6B", "", ""])
        s0, s_after, s_back, s_sent = burst(app, lambda: searches(app, client, asks, calls), back_after)
        r0, r_after, r_back, (r_sent, before, during) = burst(app, lambda: refused(app, calls), back_after)
        peak = app.rss_mb(peak=True)
    rows = f"{MODELS:,} × {STACKS}" if not quick else "quick"
    median_before = statistics.median(before) * 1000 if before else float("nan")
    median_during = statistics.median(during) * 1000 if during else float("nan")
    return [
        Figure(
            "unread: RSS growth, all-row /search calls (2 s after)", rows, s_after - s0, "MB", None,
            goal=f"≤ {GOAL_SEARCHES:.0f} MB", met=s_after - s0 <= GOAL_SEARCHES,
            note=f"{calls} calls: RSS {s0:,.0f} → {s_after:,.0f} MB; sent and run in {s_sent:.1f} s, each every row of "
                 f"one of {len(asks)} stacks",
        ),
        Figure(
            "unread: RSS above the start after the /search calls expired", rows, s_back - s0, "MB", None,
            goal=f"≤ {GOAL_BACK:.0f} MB", met=s_back - s0 <= GOAL_BACK,
            note=f"{s_back:,.0f} MB, {back_after:.0f} s after the last call",
        ),
        Figure(
            "unread: RSS growth, refused ~1 MB calls (2 s after)", rows,
            r_after - r0, "MB", None, goal=f"≤ {GOAL_REFUSED:.0f} MB", met=r_after - r0 <= GOAL_REFUSED,
            note=f"{calls} calls, {AT_ONCE} at a time: RSS {r0:,.0f} → {r_after:,.0f} MB (the process's peak so far "
                 f"{peak:,.0f} MB); sent in {r_sent:.1f} s",
        ),
        Figure(
            "unread: RSS above the start after the refused calls expired", rows, r_back - r0, "MB", None,
            goal=f"≤ {GOAL_BACK:.0f} MB", met=r_back - r0 <= GOAL_BACK,
            note=f"{r_back:,.0f} MB, {back_after:.0f} s after the last call",
        ),
        Figure(
            "unread: another visitor's /lookup during the refused calls, median", rows, median_during, "ms", median_before,
            note=f"baseline: the same visitor in the 2 s before the burst ({len(before)} calls); {len(during)} during it",
        ),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 calls of each on the small dataset")
    args = parser.parse_args()
    print(common.table("Unread results (RSS)", run(args.quick)))


if __name__ == "__main__":
    sys.exit(main())
