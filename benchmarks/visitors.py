"""8. Visitors: a burst of new tabs following a shared model link, against the floor in the same run.

    python benchmarks/visitors.py [--quick]

locust (`locustfile.py`) replays the tab recorded from a real Chromium visit (`visit.json`, made by
`visit.py`): each visitor opens the link's first HTML, holds the page's heartbeat while the tab is open
(where the page opens one: ours no longer does), fetches Gradio's scripts and styles if it is one new visitor in ten, and runs the load event through the
queue. Each visitor has its own `X-Forwarded-For` and both apps run in a Space's environment
(`SYSTEM=spaces`). The floor (`baselines/floor.py`) is a Gradio page whose 100-row table is filled by a
load event. Each burst starts each app afresh; load goes to 127.0.0.1 only and the load tool shares the
machine's cores with the app.

Figures per burst: failed visits; the first HTML with the model's answer (ours) against the floor's rows
arriving (its load event completed), both p95; the live page's load event completed, p95; RSS after the
burst against before. Then a crowd of tabs opened at once, each holding only its heartbeat: how many
were refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import common
from common import Figure

# (name, visitors a second, seconds, each tab open for seconds)
BURSTS = (("slow burst", 10, 30, 15), ("fast burst", 30, 30, 15))
QUICK_BURSTS = (("slow burst", 4, 2, 2), ("fast burst", 8, 2, 2))
TABS, TABS_HOLD = 2000, 15
QUICK_TABS, QUICK_TABS_HOLD = 40, 2
FIRST_HTML_GOAL = 0.5  # ours' first HTML with the answer, against the floor's rows
LIVE_GOAL = 1.3  # ours' live page, against the floor's
RSS_GOAL = 1.5  # RSS after the burst against before
MS = 1000


def app(target: str) -> common.App:
    if target == "ours":
        args = ("--dataset", str(common.SAMPLE), "--rankings", str(common.RANKINGS))
        return common.App(common.ROOT / "app.py", args, common.SPACE)
    return common.App(common.BASELINES / "floor.py", env=common.SPACE)


def crowd(target: str, users: int, rate: float, hold: float, mode: str = "visits") -> tuple[list[dict], float, float]:
    """Run locust against a fresh `target` app: `users` tabs opened `rate` a second, each open `hold` s.
    Returns each visit's figures, and the app's RSS (MB) before and after."""
    with app(target) as server, tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "visits.json"
        before = server.rss_mb()
        env = {"VISIT_TARGET": target, "VISIT_MODE": mode, "VISIT_HOLD": str(hold), "VISIT_USERS": str(users),
               "VISIT_OUT": str(out), "PYTHONUNBUFFERED": "1"}  # fmt: skip
        limit = users / rate + hold + 180
        subprocess.run(
            [sys.executable, "-m", "locust", "-f", str(common.HERE / "locustfile.py"), "--headless", "-u", str(users),
             "-r", str(rate), "--run-time", f"{limit:.0f}s", "--stop-timeout", "5", "--host", server.url,
             "--only-summary", "--loglevel", "WARNING"],
            cwd=common.HERE, env={**common.os.environ, **env}, capture_output=True, timeout=limit + 120, check=False,
        )  # fmt: skip
        after = server.rss_mb()
        visits = json.loads(out.read_text()) if out.exists() else []
    return visits + [{"ok": False, "why": "never ran"}] * (users - len(visits)), before, after


def p95(visits: list[dict], key: str) -> float:
    return common.percentile([v[key] for v in visits if v.get("ok") and key in v], 95) * MS


def reasons(visits: list[dict]) -> str:
    counted = Counter(v.get("why", "") for v in visits if not v["ok"])
    return "; ".join(f"{n} × {why}" for why, n in counted.most_common(3))


def burst_figures(name: str, rate: int, seconds: int, hold: int) -> list[Figure]:
    users = rate * seconds
    ours, ours_before, ours_after = crowd("ours", users, rate, hold)
    floor, floor_before, floor_after = crowd("floor", users, rate, hold)
    rows = f"{users:,} at {rate}/s, open {hold} s"
    failed = sum(not v["ok"] for v in ours)
    floor_failed = sum(not v["ok"] for v in floor)
    first, floor_rows = p95(ours, "first_html"), p95(floor, "live")
    live = p95(ours, "live")
    growth, floor_growth = ours_after / ours_before, floor_after / floor_before
    why = reasons(ours) + (f" (floor: {reasons(floor)})" if floor_failed else "")
    return [
        Figure(f"visitors, {name}: failed visits", rows, failed, "count", floor_failed, "0", failed == 0, why),
        Figure(f"visitors, {name}: visits that waited for a full queue", rows, sum(bool(v.get("retries")) for v in ours),
               "count", sum(bool(v.get("retries")) for v in floor),
               note="each retried as the page does: its painted answer shown, the load event joined again later"),
        Figure(f"visitors, {name}: first HTML with the answer p95 (floor: its rows)", rows, first, "ms", floor_rows,
               f"≤ {FIRST_HTML_GOAL}× the floor's rows", first <= FIRST_HTML_GOAL * floor_rows),
        Figure(f"visitors, {name}: live table p95", rows, live, "ms", p95(floor, "live"), f"≤ {LIVE_GOAL}×",
               live <= LIVE_GOAL * floor_rows),
        Figure(f"visitors, {name}: RSS after ÷ before", rows, round(growth, 2), "×", round(floor_growth, 2),
               f"≤ {RSS_GOAL}", growth <= RSS_GOAL,
               f"ours {ours_before:,.0f} → {ours_after:,.0f} MB, floor {floor_before:,.0f} → {floor_after:,.0f} MB"),
    ]  # fmt: skip


def run(quick: bool = False) -> list[Figure]:
    figures = []
    for name, rate, seconds, hold in QUICK_BURSTS if quick else BURSTS:
        figures += burst_figures(name, rate, seconds, hold)
    tabs, hold = (QUICK_TABS, QUICK_TABS_HOLD) if quick else (TABS, TABS_HOLD)
    ours, ours_before, ours_after = crowd("ours", tabs, tabs, hold, mode="tabs")
    floor, _, _ = crowd("floor", tabs, tabs, hold, mode="tabs")
    refused, floor_refused = sum(not v["ok"] for v in ours), sum(not v["ok"] for v in floor)
    figures.append(Figure("tabs opened at once, each holding its heartbeat: refused", f"{tabs:,}, open {hold} s",
                          refused, "count", floor_refused, "0", refused == 0,
                          f"ours' RSS {ours_before:,.0f} → {ours_after:,.0f} MB. {reasons(ours)}"))  # fmt: skip
    return figures


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Visitors: a burst of new tabs on a shared link (locust), beside the floor", run(quick), quick))
