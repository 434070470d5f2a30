"""8. Visitors: a burst of new tabs following a shared model link, against the floor in the same run.

    python benchmarks/visitors.py [--quick] [--profile]

locust (`locustfile.py`) replays the tab recorded from a real Chromium visit (`visit.json`, made by
`visit.py`): each visitor opens the link's first HTML, holds the page's heartbeat while the tab is open
(where the page opens one: ours no longer does), fetches Gradio's scripts and styles if it is one new visitor in ten, and runs the page's load event
through the queue where the page has one (the floor's does; ours, for a tested model's link, carries its answer in
the page and has none: it is live once its scripts are in hand). Each visitor has its own `X-Forwarded-For` and both apps run in a Space's environment
(`SYSTEM=spaces`). The floor (`baselines/floor.py`) is a Gradio page whose 100-row table is filled by a
load event. Each burst starts each app afresh; load goes to 127.0.0.1 only and the load tool shares the
machine's cores with the app.

Spread mode runs the same bursts with each visitor opening a different model (`SPREAD_LINKS` links, in turn)
over a generated dataset of 2,000 models × 5 stacks, as people arriving from many model pages on the Hub do;
its figures stand beside the floor measured in the same run at the same rate. `--profile` samples the app
with py-spy (`pip install py-spy`; it needs ptrace, as root) during the spread slow burst and prints the
functions that held the most samples.

Figures per burst: failed visits; the first HTML with the model's answer (ours) against the floor's rows
arriving (its load event completed), both p95; the live page filled (its load event completed, or its scripts in
hand where it has none), p95; RSS after the
burst against before. Then a crowd of tabs opened at once, each holding only its heartbeat: how many
were refused.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import common
import pyarrow.parquet as pq
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
# spread mode: distinct model links, over a generated dataset of (rows, stacks)
SPREAD_LINKS, SPREAD_DATA = 400, (10_000, 5)  # 2,000 models × 5 stacks
QUICK_SPREAD_LINKS, QUICK_SPREAD_DATA = 8, (1_000, 5)
SPREAD_FIRST_HTML_CEILING = 1000  # ms, spread mode at 30 a second
PROFILE_TOP = 15  # functions listed from a profile, in each of its two tables
# where a sampled thread waits rather than works: the event loop's poll, an idle worker thread's wait
IDLE = ("EpollSelector.select (selectors.py", "Condition.wait (threading.py")


def app(target: str, dataset: Path = common.SAMPLE) -> common.App:
    if target == "ours":
        args = ("--dataset", str(dataset), "--rankings", str(common.RANKINGS))
        return common.App(common.ROOT / "app.py", args, common.SPACE)
    return common.App(common.BASELINES / "floor.py", env=common.SPACE)


def spread_models(dataset: Path, links: int) -> list[str]:
    """`links` distinct model ids of `dataset`, spaced evenly over its sorted ids."""
    ids = sorted(set(pq.read_table(dataset, columns=["model_id"]).column("model_id").to_pylist()))
    step = max(1, len(ids) // links)
    return ids[::step][:links]


def crowd(
    target: str,
    users: int,
    rate: float,
    hold: float,
    mode: str = "visits",
    dataset: Path = common.SAMPLE,
    models: list[str] | None = None,
    profile: bool = False,
) -> tuple[list[dict], float, float]:
    """Run locust against a fresh `target` app: `users` tabs opened `rate` a second, each open `hold` s; with
    `models`, visitor N opens model N of the list in turn. Returns each visit's figures, and the app's RSS (MB)
    before and after; with `profile`, prints the functions py-spy sampled most in the app meanwhile."""
    with app(target, dataset) as server, tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "visits.json"
        before = server.rss_mb()
        env = {"VISIT_TARGET": target, "VISIT_MODE": mode, "VISIT_HOLD": str(hold), "VISIT_USERS": str(users),
               "VISIT_OUT": str(out), "PYTHONUNBUFFERED": "1"}  # fmt: skip
        if models:
            (Path(folder) / "models.json").write_text(json.dumps(models))
            env["VISIT_MODELS"] = str(Path(folder) / "models.json")
        sampler = start_profile(server, Path(folder) / "profile.txt") if profile else None
        limit = users / rate + hold + 180
        subprocess.run(
            [sys.executable, "-m", "locust", "-f", str(common.HERE / "locustfile.py"), "--headless", "-u", str(users),
             "-r", str(rate), "--run-time", f"{limit:.0f}s", "--stop-timeout", "5", "--host", server.url,
             "--only-summary", "--loglevel", "WARNING"],
            cwd=common.HERE, env={**common.os.environ, **env}, capture_output=True, timeout=limit + 120, check=False,
        )  # fmt: skip
        after = server.rss_mb()
        if sampler is not None:
            print(stop_profile(sampler, Path(folder) / "profile.txt"))
        visits = json.loads(out.read_text()) if out.exists() else []
    return visits + [{"ok": False, "why": "never ran"}] * (users - len(visits)), before, after


def p95(visits: list[dict], key: str) -> float:
    return common.percentile([v[key] for v in visits if v.get("ok") and key in v], 95) * MS


def phases(visits: list[dict]) -> str:
    """Where a visit's time went, p50 of each step: the first HTML, the scripts and the join, the result
    stream's opening, the load event's end."""
    steps = (("first HTML", None, "first_html"), ("scripts and join", "first_html", "joined"),
             ("stream open", "joined", "stream_open"), ("event done", "stream_open", "live"))  # fmt: skip
    shown = []
    for label, begin, end in steps:
        took = [
            v[end] - (v[begin] if begin else 0)
            for v in visits
            if v.get("ok") and end in v and (not begin or begin in v)
        ]
        if took:
            shown.append(f"{label} {common.percentile(took, 50) * MS:,.0f}")
    return "p50 of each step (ms): " + ", ".join(shown) if shown else ""


def reasons(visits: list[dict]) -> str:
    counted = Counter(v.get("why", "") for v in visits if not v["ok"])
    return "; ".join(f"{n} × {why}" for why, n in counted.most_common(3))


def start_profile(server: common.App, out: Path) -> subprocess.Popen | None:
    """py-spy sampling the app (its native and idle frames left out) into `out`, or None without py-spy."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("--profile: py-spy is not installed (pip install py-spy): no profile taken")
        return None
    assert server.proc is not None
    return subprocess.Popen([spy, "record", "--pid", str(server.proc.pid), "--format", "raw", "--output", str(out),
                             "--rate", "100", "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip


def stop_profile(sampler: subprocess.Popen, out: Path) -> str:
    """Stop py-spy and give its samples as a Markdown table: each function's share of the samples that
    include it (total) and that it was running itself (self)."""
    sampler.send_signal(signal.SIGINT)
    try:
        sampler.wait(30)
    except subprocess.TimeoutExpired:
        sampler.kill()
    return profile_table(out.read_text() if out.exists() else "")


def profile_table(collapsed: str) -> str:
    """py-spy's collapsed stacks (`name (file:line);... count` a line) as two Markdown tables over the samples
    in which the process was busy (waiting in the event loop's `select` or on a lock is left out): the
    functions most often running themselves (self), and the app's own functions (`components/`, `app.py`)
    most often on the stack (total)."""
    own: Counter[str] = Counter()
    ours: Counter[str] = Counter()
    busy = 0
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [frame.rsplit(":", 1)[0] + ")" for frame in stack.split(";")]  # a function, whatever its line
        if frames[-1].startswith(IDLE):
            continue
        busy += int(count)
        own[frames[-1]] += int(count)
        for frame in set(frames):
            if frame.split(" (", 1)[-1].startswith(("components/", "app.py")):
                ours[frame] += int(count)
    if not busy:
        return "profile: no busy samples"
    lines = [f"profile: {busy:,} busy samples at 100 a second", ""]
    for title, counted in (("running itself (self)", own), ("the app's own, on the stack (total)", ours)):
        lines += [f"| function {title} | share of busy samples |", "|---|---|"]
        lines += [f"| `{frame}` | {count / busy:.1%} |" for frame, count in counted.most_common(PROFILE_TOP)] + [""]
    return "\n".join(lines)


def burst_figures(
    name: str,
    rate: int,
    seconds: int,
    hold: int,
    floor_run: tuple[list[dict], float, float] | None = None,
    dataset: Path = common.SAMPLE,
    models: list[str] | None = None,
    profile: bool = False,
) -> tuple[list[Figure], tuple[list[dict], float, float]]:
    """A burst's figures beside the floor's (run here, or `floor_run` from the same run at the same rate), and
    the floor's run."""
    users = rate * seconds
    ours, ours_before, ours_after = crowd("ours", users, rate, hold, dataset=dataset, models=models, profile=profile)
    floor_run = floor_run or crowd("floor", users, rate, hold)
    floor, floor_before, floor_after = floor_run
    rows = f"{users:,} at {rate}/s, open {hold} s" + (f", {len(models):,} links" if models else "")
    failed = sum(not v["ok"] for v in ours)
    floor_failed = sum(not v["ok"] for v in floor)
    first, floor_rows = p95(ours, "first_html"), p95(floor, "live")
    live = p95(ours, "live")
    growth, floor_growth = ours_after / ours_before, floor_after / floor_before
    why = reasons(ours) + (f" (floor: {reasons(floor)})" if floor_failed else "")
    figures = [
        Figure(f"visitors, {name}: failed visits", rows, failed, "count", floor_failed, "0", failed == 0, why),
        Figure(f"visitors, {name}: visits that waited for a full queue", rows, sum(bool(v.get("retries")) for v in ours),
               "count", sum(bool(v.get("retries")) for v in floor),
               note="each retried as the page does: its painted answer shown, the load event joined again later"),
        Figure(f"visitors, {name}: first HTML with the answer p95 (floor: its rows)", rows, first, "ms", floor_rows,
               f"≤ {FIRST_HTML_GOAL}× the floor's rows", first <= FIRST_HTML_GOAL * floor_rows),
        Figure(f"visitors, {name}: live table p95", rows, live, "ms", p95(floor, "live"), f"≤ {LIVE_GOAL}×",
               live <= LIVE_GOAL * floor_rows, f"ours: {phases(ours)}; floor: {phases(floor)}"),
        Figure(f"visitors, {name}: RSS after ÷ before", rows, round(growth, 2), "×", round(floor_growth, 2),
               f"≤ {RSS_GOAL}", growth <= RSS_GOAL,
               f"ours {ours_before:,.0f} → {ours_after:,.0f} MB, floor {floor_before:,.0f} → {floor_after:,.0f} MB"),
    ]  # fmt: skip
    if models and rate >= 30:  # the floor itself is overloaded at this rate, so the ratio alone says little
        figures[2].goal += f" and ≤ {SPREAD_FIRST_HTML_CEILING:,} ms"
        figures[2].met = figures[2].met and first <= SPREAD_FIRST_HTML_CEILING
    return figures, floor_run


def run(quick: bool = False, profile: bool = False) -> list[Figure]:
    figures = []
    links, (rows, stacks) = (QUICK_SPREAD_LINKS, QUICK_SPREAD_DATA) if quick else (SPREAD_LINKS, SPREAD_DATA)
    spread_data = common.dataset(rows, stacks)
    models = spread_models(spread_data, links)
    for name, rate, seconds, hold in QUICK_BURSTS if quick else BURSTS:
        one_link, floor_run = burst_figures(name, rate, seconds, hold)
        spread, _ = burst_figures(f"spread, {name}", rate, seconds, hold, floor_run, spread_data, models,
                                  profile and name == "slow burst")  # fmt: skip
        figures += one_link + spread
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
    figures = run(quick, profile="--profile" in sys.argv)
    print(
        common.report(
            "Visitors: a burst of new tabs on a shared link or spread over many (locust), beside the floor",
            figures,
            quick,
        )
    )
