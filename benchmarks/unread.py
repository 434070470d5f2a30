"""Results nobody reads: what 300 unread `POST /gradio_api/call/search` calls make the app hold, and what it
holds once they have expired.

    python benchmarks/unread.py [--calls N]

On 2,000 models × 5 stacks (the five newest files of a synthetic set of 2,000 rows a stack), one client
asks for every row of a stack (`/search` with an empty query, the largest answer: ~0.9 MB of JSON), cycling
through the stacks, and never reads a result. RSS is read before (after the same searches were asked and
read once, so the app's caches are warm), right after the calls, at its peak, and again once the results
have expired (`components/web/gradio/patches/unread.py` drops them after `UNREAD_SECONDS`). Not part of
`run_all.py`: the wait for expiry alone takes over a minute.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time

import common
import httpx
from common import Figure

MODELS, STACKS = 2_000, 5
CALLS = 300
GOAL_GROWTH = 100.0  # MB: what the calls may grow RSS by
GOAL_BACK = 50.0  # MB: how far above the start RSS may stay once they have expired


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


def run(calls: int = CALLS) -> list[Figure]:
    with common.ours(dataset()) as app, httpx.Client(base_url=app.url, timeout=120) as client:
        stacks = common.call(client, app.url, "stacks", [])[1][0]
        asks = [["", "selected", "", s["neuronx_cc"], s["library_version"]] for s in stacks]
        for data in asks:  # each answer once, read: the caches every later call finds warm
            common.call(client, app.url, "search", data)
        time.sleep(2)
        started = app.rss_mb()
        began = time.perf_counter()
        for i in range(calls):
            posted = client.post("/gradio_api/call/search", json={"data": asks[i % len(asks)]})
            posted.raise_for_status()
        common.call(client, app.url, "search", asks[0])  # queued behind them: read once they have run
        sent = time.perf_counter() - began
        time.sleep(2)
        after = app.rss_mb()
        peak = app.rss_mb(peak=True)
        expired_at = time.perf_counter()
        deadline = expired_at + 150
        back = after
        while time.perf_counter() < deadline:  # until the sweep has dropped them all and RSS settles
            time.sleep(5)
            now = app.rss_mb()
            if abs(now - back) < 2 and time.perf_counter() - expired_at > 75:
                back = now
                break
            back = now
        waited = time.perf_counter() - expired_at
    rows = f"{MODELS:,} × {STACKS}"
    return [
        Figure(
            f"RSS growth, {calls} unread /search calls", rows, after - started, "MB", None,
            goal=f"≤ {GOAL_GROWTH:.0f} MB", met=after - started <= GOAL_GROWTH,
            note=f"RSS {started:,.0f} → {after:,.0f} MB (peak {peak:,.0f} MB); the calls took {sent:.1f} s to send and run, "
                 f"each an all-row search of one of {len(asks)} stacks",
        ),
        Figure(
            "RSS above the start once they expired", rows, back - started, "MB", None,
            goal=f"≤ {GOAL_BACK:.0f} MB", met=back - started <= GOAL_BACK,
            note=f"{back:,.0f} MB {waited:.0f} s after the last call",
        ),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=CALLS)
    args = parser.parse_args()
    print(common.table("Unread results (RSS)", run(args.calls)))


if __name__ == "__main__":
    sys.exit(main())
