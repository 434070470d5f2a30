"""9. Soak: refreshes in a row while clients search, as on a Space whose dataset changes while people use it.

    python benchmarks/soak.py [--quick]

The app serves a copy of the large synthetic set with `WEBHOOK_SECRET` set. First the clients search
alone for a while (the quiet figures); then, 20 times, one file is replaced whole (written beside it,
then renamed over it, as a sync tool does) with one more row — a model that was never there — and the
webhook is called; a watcher looks that model up until it is served. All the while `CLIENTS` clients
search distinct queries over plain HTTP. Figures: errors (failed requests, error events, webhook
answers other than 202), seconds from the webhook call until each change is served, RSS after the last
refresh against after the first, and search p95 during the refreshes against the quiet p95.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import common
import httpx
from common import Figure

CLIENTS = 6
REFRESHES = 20
SECRET = "soak-benchmark-secret"
# seconds from the webhook call until the change is served: each change's webhook follows the previous one's
# refresh at once, so it waits out the webhook's spacing (`WEBHOOK_DEBOUNCE_SECONDS`, 2 s) and one refresh
GOAL_SERVED_P95 = 5.0
GOAL_RSS = 1.3  # RSS after the last refresh against after the first
GOAL_SEARCH = 3.0  # search p95 during refreshes against the quiet p95
TIMEOUT = 30.0


def _replace_with_one_more_row(path: Path, model_id: str) -> None:
    """Write the file again with one more row (a model never seen before), then rename it into place."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    extra = table.slice(0, 1).to_pylist()[0]
    extra["model_id"] = model_id
    table = pa.concat_tables([table, pa.Table.from_pylist([extra], schema=table.schema)])
    staged = path.with_name(f".{path.name}.partial")
    pq.write_table(table, staged)
    os.replace(staged, path)


class Clients:
    """`CLIENTS` threads searching distinct queries until stopped; each latency is kept with its start time."""

    def __init__(self, url: str):
        self.url = url
        self.samples: list[tuple[float, float]] = []
        self.errors = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._loop, args=(k,), daemon=True) for k in range(CLIENTS)]

    def _loop(self, k: int) -> None:
        with httpx.Client(timeout=TIMEOUT) as http:
            i = k
            while not self._stop.is_set():
                query = common.QUERIES[i % len(common.QUERIES)]
                i += CLIENTS  # distinct queries across the clients
                began = time.perf_counter()
                try:
                    common.call(http, self.url, "search", [query, "selected", "", "", ""])
                    with self._lock:
                        self.samples.append((began, time.perf_counter() - began))
                except (httpx.HTTPError, common.CallError, ValueError):
                    with self._lock:
                        self.errors += 1

    def start(self) -> Clients:
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(TIMEOUT)

    def latencies(self, since: float, until: float) -> list[float]:
        with self._lock:
            return [s for began, s in self.samples if since <= began < until]


def _newest_file(http: httpx.Client, url: str, folder: Path) -> Path:
    """The file of the newest stack: the stack a lookup without a stack reads."""
    _, stacks = common.call(http, url, "stacks", [])
    newest = stacks[0][0]
    name = f"neuronxcc-{newest['neuronx_cc']}_{newest['library']}-{newest['library_version']}.parquet"
    return next(p for p in folder.rglob("*.parquet") if p.name == name)


def _served(http: httpx.Client, url: str, model_id: str) -> bool:
    _, answer = common.call(http, url, "lookup", [model_id, "", ""])
    return isinstance(answer, list) and bool(answer) and answer[0].get("result") != "not tested"


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)["large"]
    refreshes = 4 if quick else REFRESHES
    quiet_seconds = 5.0 if quick else 20.0
    label = common.rows_label(rows)
    served: list[float] = []
    webhook_errors = 0
    os.environ["WEBHOOK_SECRET"] = SECRET
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        shutil.copytree(common.dataset(rows), folder)
        with common.ours(folder) as app, httpx.Client(timeout=TIMEOUT) as http:
            newest = _newest_file(http, app.url, folder)
            clients = Clients(app.url).start()
            quiet_from = time.perf_counter()
            time.sleep(quiet_seconds)
            busy_from = time.perf_counter()
            rss_after: list[float] = []
            for i in range(refreshes):
                model_id = f"soak/refresh-{i}"
                _replace_with_one_more_row(newest, model_id)
                began = time.perf_counter()
                r = http.post(f"{app.url}/webhooks/dataset", json={"event": {"scope": "repo.content", "action": "update"}},
                              headers={"X-Webhook-Secret": SECRET})  # fmt: skip
                webhook_errors += r.status_code != 202
                while time.perf_counter() - began < 60 and not _served(http, app.url, model_id):
                    time.sleep(0.05)
                served.append(time.perf_counter() - began)
                rss_after.append(app.rss_mb())
            busy_until = time.perf_counter()
            clients.stop()
    quiet = clients.latencies(quiet_from, busy_from)
    busy = clients.latencies(busy_from, busy_until)
    ms = 1000
    quiet_p95, busy_p95 = common.percentile(quiet, 95), common.percentile(busy, 95)
    served_p95 = common.percentile(served, 95)
    errors = clients.errors + webhook_errors
    return [
        Figure("soak: errors (searches, webhook calls)", label, errors, "count", goal="0", met=errors == 0,
               note=f"{CLIENTS} clients, {len(quiet) + len(busy):,} searches; {refreshes} refreshes"),
        Figure("soak: seconds until a change is served, p95", label, served_p95, "s",
               goal=f"≤ {GOAL_SERVED_P95:g} s", met=served_p95 <= GOAL_SERVED_P95,
               note=f"median {common.median(served):.2f} s, max {max(served):.2f} s"),
        Figure("soak: RSS after the last refresh", label, rss_after[-1], "MB", rss_after[0],
               goal=f"≤ {GOAL_RSS}× after the first", met=rss_after[-1] <= GOAL_RSS * rss_after[0],
               note="baseline: RSS after the first refresh"),
        Figure("soak: search p95 during refreshes", label, busy_p95 * ms, "ms", quiet_p95 * ms,
               goal=f"≤ {GOAL_SEARCH:g}× quiet", met=busy_p95 <= GOAL_SEARCH * quiet_p95,
               note=f"baseline: the same clients before any refresh (p95 of {len(quiet):,} searches)"),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Soak: refreshes while clients search", run(quick), quick))
