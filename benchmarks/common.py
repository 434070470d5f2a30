"""What every benchmark shares: datasets, starting an app in a subprocess, timing, and tables.

Only the project's own dependencies (httpx comes with gradio); no network beyond 127.0.0.1.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import httpx

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
BASELINES = HERE / "baselines"
SAMPLE = ROOT / "data" / "sample"
RANKINGS = ROOT / "data" / "rankings_snapshot.json"
DATA_DIR = Path(os.environ.get("BENCH_DATA", Path(tempfile.gettempdir()) / "neuronx-support-bench"))

# Row counts of the synthetic sets; --quick swaps in small ones so the scripts prove they still run.
FULL_ROWS = {"small": 10_000, "large": 200_000}
QUICK_ROWS = {"small": 2_000, "large": 20_000}
NAIVE_SET = "small"  # the naive page holds the same rows as our "small" set

# What people type: model families (a few to a few dozen rows at any size) and synthetic slices that
# grow with the dataset. QUERY is the headline search.
QUERY = "llama"
QUERIES = ("llama", "qwen", "qwen3 0.6b", "mistral 7b", "gemma", "phi", "deepseek", "llama 8b instruct",
           "smollm", "7b", "org-12", "model-42")  # fmt: skip

ENV = {"HF_HUB_OFFLINE": "1", "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONUNBUFFERED": "1"}


def rows_for(quick: bool) -> dict[str, int]:
    return QUICK_ROWS if quick else FULL_ROWS


def dataset(rows: int, stacks: int | None = None) -> Path:
    """A synthetic dataset of about `rows` rows over `stacks` stacks (by default as many as
    data/make_sample.py gives that many rows), made once, then reused."""
    out = DATA_DIR / (f"rows-{rows}" if stacks is None else f"rows-{rows}-stacks-{stacks}")
    done = out / ".complete"
    if not done.exists():
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        from data.make_sample import write_synthetic

        write_synthetic(out, rows, stacks)
        done.write_text("ok\n")
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class App:
    """A Gradio app in a subprocess: ours (`app.py`) or a baseline script."""

    script: Path
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)  # added to the environment (e.g. a Space's)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    started_at: float = 0.0
    ready_after: float = 0.0  # seconds from process start to the first HTTP 200

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120.0) -> App:
        self.started_at = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, str(self.script), *self.args, "--port", str(self.port)],
            cwd=ROOT, env={**os.environ, **ENV, **self.env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = self.started_at + timeout
        with httpx.Client(timeout=2.0) as client:
            while time.perf_counter() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"{self.script.name} exited with {self.proc.returncode}")
                try:
                    if client.get(self.url + "/").status_code == 200:
                        self.ready_after = time.perf_counter() - self.started_at
                        return self
                except httpx.HTTPError:
                    pass
                time.sleep(0.02)
        self.stop()
        raise TimeoutError(f"{self.script.name} did not answer within {timeout:g} s")

    def rss_mb(self, peak: bool = False) -> float:
        """Resident memory of the app process in MB, or its peak so far (Linux /proc; `ps` elsewhere)."""
        assert self.proc is not None
        status = Path(f"/proc/{self.proc.pid}/status")
        if status.exists():
            field = "VmHWM:" if peak else "VmRSS:"
            for line in status.read_text().splitlines():
                if line.startswith(field):
                    return int(line.split()[1]) / 1024
        out = subprocess.run(["ps", "-o", "rss=", "-p", str(self.proc.pid)], capture_output=True, text=True, check=True)
        return int(out.stdout.strip()) / 1024

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def __enter__(self) -> Self:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc) -> None:
        self.stop()


def ours(dataset_dir: Path | str) -> App:
    return App(ROOT / "app.py", ("--dataset", str(dataset_dir), "--rankings", str(RANKINGS)))


# A Space's environment without server-side rendering: what the visitor benchmark gives ours and the floor
# alike (the app turns SSR off on a Space whatever it is told; the floor would try to start Node).
SPACE = {
    "SYSTEM": "spaces",
    "SPACE_ID": "bench/torch-neuronx-support",
    "SPACE_HOST": "bench-torch-neuronx-support.hf.space",
}


def space_env(node: str | None) -> dict[str, str]:
    """The environment a Hugging Face Space gives the app: server-side rendering asked for, Node present."""
    env = {"GRADIO_SSR_MODE": "true", "SYSTEM": "spaces", "SPACE_ID": "bench/torch-neuronx-support",
           "SPACE_HOST": "bench-torch-neuronx-support.hf.space"}  # fmt: skip
    return {**env, "GRADIO_NODE_PATH": node} if node else env


def ours_on_space(dataset_dir: Path | str, node: str | None) -> App:
    """Ours as shipped, in a Space's environment (the app turns server-side rendering off itself)."""
    return App(ROOT / "app.py", ("--dataset", str(dataset_dir), "--rankings", str(RANKINGS)), space_env(node))


def ours_ssr_on(dataset_dir: Path | str, node: str) -> App:
    """Ours with Gradio's server-side rendering forced on, as a Space would run it if app.py let it. Without
    `SPACE_HOST`: Node's proxy reaches Python on another port, so the page would take the Space's public address
    (`middleware/origin.py`), which this machine cannot reach."""
    env = {key: value for key, value in space_env(node).items() if key != "SPACE_HOST"}
    return App(BASELINES / "ssr_on.py", ("--dataset", str(dataset_dir), "--rankings", str(RANKINGS)), env)


def node() -> str | None:
    """A Node 24 or newer (what Gradio's server-side rendering needs): tests/node.sh finds or installs it."""
    found = subprocess.run(["bash", str(ROOT / "tests" / "node.sh")], capture_output=True, text=True, check=False)
    return found.stdout.strip() or None


def bare() -> App:
    return App(BASELINES / "bare.py")


def floor() -> App:
    return App(BASELINES / "floor.py")


def naive(dataset_dir: Path | str) -> App:
    return App(BASELINES / "naive.py", ("--dataset", str(dataset_dir)))


# ---- calling an endpoint over plain HTTP ----------------------------------------------------


class CallError(RuntimeError):
    pass


def call(client: httpx.Client, base: str, api_name: str, data: list) -> tuple[float, object]:
    """POST /gradio_api/call/NAME, then read its event stream to the end; (seconds, output)."""
    started = time.perf_counter()
    r = client.post(f"{base}/gradio_api/call/{api_name}", json={"data": data})
    if r.status_code != 200:
        raise CallError(f"POST {api_name}: HTTP {r.status_code}")
    event_id = r.json()["event_id"]
    r = client.get(f"{base}/gradio_api/call/{api_name}/{event_id}")
    elapsed = time.perf_counter() - started
    return elapsed, parse_stream(r.status_code, r.text, api_name)


async def acall(client: httpx.AsyncClient, base: str, api_name: str, data: list) -> float:
    """The same as `call`, for many concurrent clients; returns the seconds it took."""
    started = time.perf_counter()
    r = await client.post(f"{base}/gradio_api/call/{api_name}", json={"data": data})
    if r.status_code != 200:
        raise CallError(f"POST {api_name}: HTTP {r.status_code}")
    event_id = r.json()["event_id"]
    r = await client.get(f"{base}/gradio_api/call/{api_name}/{event_id}")
    elapsed = time.perf_counter() - started
    parse_stream(r.status_code, r.text, api_name)
    return elapsed


def parse_stream(status: int, text: str, api_name: str) -> object:
    import json

    if status != 200:
        raise CallError(f"GET {api_name}: HTTP {status}")
    event = None
    for line in text.splitlines():
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:") and event == "complete":
            return json.loads(line[5:])
        elif event == "error":
            raise CallError(f"{api_name}: error event {line[:200]}")
    raise CallError(f"{api_name}: the stream ended without a result")


# ---- figures and tables ---------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100), linear between the nearest ranks."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


@dataclass
class Figure:
    """One row of a results table. `ratio` is ours against the baseline, when there is one."""

    label: str
    rows: str
    ours: float
    unit: str
    baseline: float | None = None
    goal: str = ""
    met: bool | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        return self.ours / self.baseline if self.baseline else None


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "ms":
        return f"{value:,.1f} ms" if value < 100 else f"{value:,.0f} ms"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "KB":
        return f"{value:,.1f} KB"
    if unit == "MB":
        return f"{value:,.0f} MB"
    if unit == "count":
        return f"{value:,.0f}"
    if unit == "%":
        return f"{value:.0f}%"
    return f"{value:g} {unit}"


def report(title: str, figures: list[Figure], quick: bool) -> str:
    """The table of one script; quick runs use other row counts, so their goals are not judged."""
    if quick:
        for f in figures:
            f.met = None
    return table(title + (" — quick mode, goals not judged" if quick else ""), figures)


def table(title: str, figures: list[Figure]) -> str:
    """A Markdown table of figures, for the terminal and for the README alike."""
    head = ["figure", "rows", "ours", "baseline", "ratio", "goal", "met"]
    lines = [f"### {title}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for f in figures:
        met = "" if f.met is None else ("yes" if f.met else "**no**")
        ratio = "—" if f.ratio is None else f"{f.ratio:.2f}×"
        cells = [f.label, f.rows, fmt(f.ours, f.unit), fmt(f.baseline, f.unit), ratio, f.goal, met]
        lines.append("| " + " | ".join(cells) + " |")
    notes = [f"- {f.label}: {f.note}" for f in figures if f.note]
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


def rows_label(n: int) -> str:
    return f"{n:,}"
