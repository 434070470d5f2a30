"""6. In real Chromium: from typing a query to the table showing its result, ours against the naive page.

    python benchmarks/browser.py [--quick]

Both pages serve the small synthetic set. For each query the search box is selected and the
query typed over it at full speed; the clock runs from the first keystroke until every row the
table shows is the model typed. Each page is loaded fresh and must show its table first.
"""

from __future__ import annotations

import sys
import time

import common
from common import Figure

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

# every shown row's model cell names the model typed (and at least one row is shown)
SHOWN = """([columns, column, needle]) => {
  const cells = Array.from(document.querySelectorAll('#results [role=gridcell]'));
  if (!cells.length || cells.length % columns) return false;
  for (let i = column; i < cells.length; i += columns) {
    if (!cells[i].innerText.toLowerCase().includes(needle)) return false;
  }
  return true;
}"""


def queries(dataset_dir, n: int) -> list[str]:
    """`n` model names from the newest stack of the set, spread across it: `model-123-7b`."""
    sys.path.insert(0, str(common.ROOT))
    from components.sources.dataset import load

    snapshot = load(dataset_dir)
    ids = sorted(snapshot.rows["model_id"].iloc[snapshot.stack_positions(snapshot.newest)])
    synthetic = [m for m in ids if m.startswith("org-")]
    step = max(1, len(synthetic) // n)
    return [m.split("/", 1)[1].lower() for m in synthetic[::step][:n]]


def time_queries(page, url: str, columns: int, column: int, typed: list[str]) -> list[float]:
    page.goto(url)
    page.wait_for_selector("#results [role=gridcell]", timeout=60_000)
    search = page.locator("#search textarea, #search input").first
    times = []
    for q in typed:
        search.click()
        page.keyboard.press("Control+A")
        started = time.perf_counter()
        page.keyboard.type(q)
        page.wait_for_function(SHOWN, arg=[columns, column, q], polling="raf", timeout=60_000)
        times.append((time.perf_counter() - started) * 1000)
    return times


def run(quick: bool = False) -> list[Figure]:
    from playwright.sync_api import sync_playwright

    rows = common.rows_for(quick)["small"]
    data = common.dataset(rows)
    typed = queries(data, 3 if quick else 20)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            with common.naive(data) as naive:
                theirs = time_queries(page, naive.url, 7, 0, typed)
            with common.ours(data) as app:
                from components.web.html.table import table_columns

                headers = list(table_columns("selected"))
                mine = time_queries(page, app.url, len(headers), headers.index("Model"), typed)
        finally:
            browser.close()
    label = common.rows_label(rows)
    return [
        Figure("typing to result, median", label, common.median(mine), "ms", common.median(theirs),
               note=f"{len(typed)} model names typed at full speed, e.g. '{typed[0]}'"),
        Figure("typing to result, p95", label, common.percentile(mine, 95), "ms", common.percentile(theirs, 95)),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("In Chromium: typing a query → the table shows it", run(quick), quick))
