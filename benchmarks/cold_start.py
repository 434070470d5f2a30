"""1. Cold start: process start to the first HTTP 200, ours (bundled sample) against the bare page.

    python benchmarks/cold_start.py [--quick]

Runs alternate (bare, ours, bare, ours, ...) so a busy machine slows both alike; the first pair
only warms the disk cache and is not counted. Also checks that `import app` leaves plotly unimported.
"""

from __future__ import annotations

import subprocess
import sys

import common
from common import Figure


def plotly_imported_by_app() -> bool:
    code = "import sys, app; print('plotly' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=common.ROOT, capture_output=True, text=True,
                         env={**__import__("os").environ, **common.ENV}, check=True)  # fmt: skip
    return out.stdout.strip().endswith("True")


def run(quick: bool = False) -> list[Figure]:
    runs = 1 if quick else 6
    ours, bare = [], []
    for i in range(runs + (0 if quick else 1)):
        for app, times in ((common.bare(), bare), (common.ours(common.SAMPLE), ours)):
            with app:
                if i or quick:  # the first pair warms the page cache
                    times.append(app.ready_after)
    large_rows = common.rows_for(quick)["large"]
    with common.ours(common.dataset(large_rows)) as app:
        large = app.ready_after
    ratio_goal = 1.15  # issue 47
    plotly = plotly_imported_by_app()
    return [
        Figure("cold start, bundled sample", "sample", common.median(ours), "s", common.median(bare),
               goal=f"≤ {ratio_goal}× bare", met=common.median(ours) <= ratio_goal * common.median(bare),
               note=f"median of {runs} starts each, alternating; `import app` imports plotly: {'yes' if plotly else 'no'}"),
        Figure("cold start, large synthetic set", common.rows_label(large_rows), large, "s", common.median(bare),
               note="one start; includes reading and indexing every Parquet file"),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("Cold start (process start → first HTTP 200)", run(quick), quick))
