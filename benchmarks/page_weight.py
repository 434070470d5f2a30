"""2. First-page weight: the HTML of `/` with its inlined config and painted first rows, ours against the naive page.

    python benchmarks/page_weight.py [--quick]

The naive page inlines the small synthetic set into a gr.Dataframe. Sizes are the bytes served
(uncompressed); the gzip size is given in the notes for comparison.
"""

from __future__ import annotations

import gzip
import sys

import common
import httpx
from common import Figure

GOAL = 0.06  # issue 32: the first page, its painted rows included, at most 6% of the naive page at 10,000 rows (issue 13: 5% without rows)


def page_bytes(app: common.App) -> tuple[int, int]:
    with app:
        body = httpx.get(app.url + "/", timeout=60).content
    return len(body), len(gzip.compress(body, 6))


def run(quick: bool = False) -> list[Figure]:
    rows = common.rows_for(quick)
    small, large = common.dataset(rows["small"]), common.dataset(rows["large"])
    naive, naive_gz = page_bytes(common.naive(small))
    sample, sample_gz = page_bytes(common.ours(common.SAMPLE))
    ours_small, small_gz = page_bytes(common.ours(small))
    ours_large, large_gz = page_bytes(common.ours(large))
    kb = 1024
    growth = ours_large / ours_small
    return [
        Figure("first page, bundled sample", "sample", sample / kb, "KB", naive / kb, note=f"gzip {sample_gz / kb:.1f} KB"),
        Figure("first page, small set", common.rows_label(rows["small"]), ours_small / kb, "KB", naive / kb,
               goal=f"≤ {GOAL:.0%} of naive", met=ours_small <= GOAL * naive,
               note=f"gzip {small_gz / kb:.1f} KB against the naive page's {naive_gz / kb:.1f} KB"),
        Figure("first page, large set", common.rows_label(rows["large"]), ours_large / kb, "KB", naive / kb,
               goal="same as small set", met=growth <= 1.01,
               note=f"{growth:.4f}× the small set's page; gzip {large_gz / kb:.1f} KB"),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("First-page weight (HTML with inlined config)", run(quick), quick))
