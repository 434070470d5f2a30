"""9. Replicas: one process against nginx in front of two replicas with its cache, at 60 new visitors a second
on one shared link.

    python benchmarks/replicas.py [--quick]

The same crowd as `visitors.py` (locust replaying the recorded tab, `locustfile.py`): each visitor opens the
link's first HTML, fetches the scripts if it is one new visitor in ten, runs the load event through the queue
and keeps its tab open. First against `python app.py` alone, then against `bash deploy/local.sh PORT 2`:
nginx (its cache keeps the link's first HTML and the scripts for as long as the app's Cache-Control says)
with each tab's queue calls held to one replica by its `affinity` cookie. Both serve the bundled sample
offline; load goes to 127.0.0.1 only and shares the machine's cores with the apps and nginx.

Figures: failed visits, the first HTML's p95 and the live page's p95 (its load event completed), the
replicas' setup beside the one process as baseline; and how many first-HTML requests reached a replica.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import common
import httpx
from common import Figure
from visitors import p95, reasons

RATE, SECONDS, HOLD = 60, 20, 15  # visitors a second, for how long, each tab open this long
QUICK_RATE, QUICK_SECONDS, QUICK_HOLD = 6, 2, 2
REPLICAS = 2
ARGS = ("--dataset", str(common.SAMPLE), "--rankings", str(common.RANKINGS))


@contextlib.contextmanager
def one_process() -> Iterator[list[str]]:
    """`python app.py` alone: yields its URL, and where its /metrics are."""
    with common.App(common.ROOT / "app.py", ARGS) as server:
        yield [server.url]


@contextlib.contextmanager
def behind_nginx(count: int = REPLICAS) -> Iterator[list[str]]:
    """`bash deploy/local.sh PORT count`: yields nginx's URL, then each replica's."""
    port = common.free_port()
    env = {**os.environ, **common.ENV, "PYTHON": sys.executable, "NGINX": shutil.which("nginx") or "/usr/sbin/nginx"}
    process = subprocess.Popen(
        ["bash", str(common.ROOT / "deploy" / "local.sh"), str(port), str(count), *ARGS], cwd=common.ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True,
    )  # fmt: skip
    ports: list[str] = []
    assert process.stdout is not None
    for line in process.stdout:
        if found := re.fullmatch(r"replica \d+ pid \d+ port (\d+)", line.strip()):
            ports.append(f"http://127.0.0.1:{found[1]}")
        if line.startswith("nginx pid"):
            break
    else:
        raise RuntimeError(f"deploy/local.sh ended with {process.wait()}")
    threading.Thread(target=process.stdout.read, daemon=True).start()  # the rest of its output, unread
    try:
        yield [f"http://127.0.0.1:{port}", *ports]
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def pages_reached(urls: list[str]) -> float:
    """First HTML requests the app processes answered, from their /metrics."""
    total = 0.0
    for url in urls:
        text = httpx.get(url + "/metrics", timeout=10).text
        total += sum(
            float(v) for v in re.findall(r'^http_requests_total\{route="/",status="\d+"\} ([\d.e+]+)$', text, re.M)
        )
    return total


def crowd(setup, users: int, rate: float, hold: float) -> tuple[list[dict], float, float]:
    """The crowd against a fresh `setup`: each visit's figures, the first HTMLs that reached an app, and the
    machine's load average (1 min) as the crowd began (other work on the cores shows in every figure)."""
    with setup() as urls, tempfile.TemporaryDirectory() as folder:
        front, apps = urls[0], urls[1:] or urls
        out = Path(folder) / "visits.json"
        env = {"VISIT_TARGET": "ours", "VISIT_MODE": "visits", "VISIT_HOLD": str(hold), "VISIT_USERS": str(users),
               "VISIT_OUT": str(out), "PYTHONUNBUFFERED": "1"}  # fmt: skip
        limit = users / rate + hold + 180
        before = pages_reached(apps)
        load = os.getloadavg()[0]
        subprocess.run(
            [sys.executable, "-m", "locust", "-f", str(common.HERE / "locustfile.py"), "--headless", "-u", str(users),
             "-r", str(rate), "--run-time", f"{limit:.0f}s", "--stop-timeout", "5", "--host", front,
             "--only-summary", "--loglevel", "WARNING"],
            cwd=common.HERE, env={**os.environ, **env}, capture_output=True, timeout=limit + 120, check=False,
        )  # fmt: skip
        reached = pages_reached(apps) - before
        visits = json.loads(out.read_text()) if out.exists() else []
    return visits + [{"ok": False, "why": "never ran"}] * (users - len(visits)), reached, load


def run(quick: bool = False) -> list[Figure]:
    rate, seconds, hold = (QUICK_RATE, QUICK_SECONDS, QUICK_HOLD) if quick else (RATE, SECONDS, HOLD)
    users = rate * seconds
    alone, alone_reached, alone_load = crowd(one_process, users, rate, hold)
    spread, spread_reached, spread_load = crowd(behind_nginx, users, rate, hold)
    rows = f"{users:,} at {rate}/s on one link, open {hold} s"
    failed, alone_failed = sum(not v["ok"] for v in spread), sum(not v["ok"] for v in alone)
    cut = sum(not v["ok"] and not v.get("why") for v in alone + spread)  # still running when locust's time ran out
    why = "; ".join(filter(None, [reasons(spread), alone_failed and f"one process: {reasons(alone)}",
                                  cut and f"{cut} visit(s) were still running at the run's time limit"]))  # fmt: skip
    load = f"load average (1 min) as each crowd began: {spread_load:.1f} (replicas), {alone_load:.1f} (one process)"
    first, alone_first = p95(spread, "first_html"), p95(alone, "first_html")
    live, alone_live = p95(spread, "live"), p95(alone, "live")
    return [
        Figure(f"replicas: failed visits ({REPLICAS} + nginx; baseline one process)", rows, failed, "count",
               alone_failed, "0", failed == 0, why),
        Figure(f"replicas: first HTML p95 ({REPLICAS} + nginx; baseline one process)", rows, first, "ms",
               alone_first, "≤ one process", first <= alone_first, load),
        Figure(f"replicas: live page p95 ({REPLICAS} + nginx; baseline one process)", rows, live, "ms", alone_live,
               "≤ one process", live <= alone_live),
        Figure("replicas: first HTMLs that reached an app", rows, spread_reached, "count", alone_reached,
               note="the rest came from nginx's cache (the link's page, kept for its s-maxage)"),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Replicas: one process against nginx + 2 replicas and its cache (locust)", run(quick), quick))
