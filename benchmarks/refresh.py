"""8. Refresh: what rereading the dataset costs when nothing changed, when one file changed, and in full.

    python benchmarks/refresh.py [--quick]

A copy of the large synthetic set is served by a `DatasetStore` (the real loader, with its per-file
cache) in a child process, so the memory figures are that process's alone. Each case runs `refresh()`
three times (the median time is shown) after: nothing (the listing is unchanged), rewriting the
newest file (one file changed), and rewriting every file (a full reread, the baseline). Steady
memory is the RSS with the data served and the cache kept; a peak is the highest RSS during one
refresh (Linux: VmHWM, reset before each case through /proc/self/clear_refs).
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common
from common import Figure

REPEATS = 3
GOAL_TIME = 0.2  # one changed file: at most this share of a full reread
GOAL_PEAK = 1.5  # peak during a refresh: at most this multiple of steady RSS


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    return float("nan")


def _reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def _rewrite(path: Path) -> None:
    """The same rows written again: a new modification time, as a new run of that stack would give."""
    import pyarrow.parquet as pq

    pq.write_table(pq.read_table(path), path)


def child(folder: Path) -> dict:
    """Measure in this process (run as `refresh.py --child FOLDER`)."""
    import pyarrow as pa

    sys.path.insert(0, str(common.ROOT))
    from components.sources.dataset_store import DatasetStore

    files = sorted(folder.rglob("*.parquet"))
    store = DatasetStore(str(folder))
    store.start()
    gc.collect()
    pa.default_memory_pool().release_unused()
    time.sleep(0.5)
    steady = _status_mb("VmRSS:")
    cases = {"unchanged": lambda: None, "one file": lambda: _rewrite(files[-1]),
             "full": lambda: [_rewrite(f) for f in files]}  # fmt: skip
    out: dict = {"steady_mb": steady, "files": len(files), "rows": len(store.current())}
    for name, change in cases.items():
        times, peaks = [], []
        for _ in range(REPEATS):
            change()
            gc.collect()
            pa.default_memory_pool().release_unused()  # what rewriting the file left behind is not the refresh's
            _reset_peak()
            began = time.perf_counter()
            assert store.refresh(), store.last_error
            times.append(time.perf_counter() - began)
            peaks.append(_status_mb("VmHWM:"))
        out[name] = {"s": statistics.median(times), "peak_mb": max(peaks)}
    return out


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)["large"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        shutil.copytree(common.dataset(rows), folder)
        out = subprocess.run([sys.executable, __file__, "--child", str(folder)], capture_output=True, text=True,
                             env={**os.environ, **common.ENV}, check=True)  # fmt: skip
    result = json.loads(out.stdout.strip().splitlines()[-1])
    label = common.rows_label(rows)
    full, one, same, steady = result["full"], result["one file"], result["unchanged"], result["steady_mb"]
    ms = 1000
    return [
        Figure("refresh, nothing changed", label, same["s"] * ms, "ms", full["s"] * ms,
               note="one listing of the folder (on the Hub: one dataset_info call), no file read"),
        Figure("refresh, one file changed", label, one["s"] * ms, "ms", full["s"] * ms,
               goal=f"≤ {GOAL_TIME:.0%} of full", met=one["s"] <= GOAL_TIME * full["s"],
               note=f"1 of {result['files']} files reread and its stack merged again; the other stacks are "
                    "sliced from the last snapshot, then the new snapshot is indexed"),
        Figure("refresh in full (every file changed)", label, full["s"] * ms, "ms",
               note=f"median of {REPEATS} refreshes per case"),
        Figure("peak RSS, refresh with nothing changed", label, same["peak_mb"], "MB", steady),
        Figure("peak RSS, refresh with one file changed", label, one["peak_mb"], "MB", steady,
               goal=f"≤ {GOAL_PEAK}× steady", met=one["peak_mb"] <= GOAL_PEAK * steady,
               note="baseline: steady RSS with the data served and every file's table cached"),
        Figure("peak RSS, refresh in full", label, full["peak_mb"], "MB", steady),
    ]  # fmt: skip


if __name__ == "__main__":
    if "--child" in sys.argv:
        print(json.dumps(child(Path(sys.argv[sys.argv.index("--child") + 1]))))
    else:
        quick = "--quick" in sys.argv
        print(common.report("Refresh: nothing changed, one file changed, in full", run(quick), quick))
