"""7. In real Chromium: from navigation to the first result rows on screen, ours against the floor page.

    python benchmarks/first_rows.py [--quick]

The floor (`baselines/floor.py`) is a Gradio page with nothing but a 100-row table filled by a load
event: what any page built like ours pays. Each visit is a fresh browser context (a first visit, no
cache); visits alternate between the two pages so a busy machine slows both alike. A script installed
before the page's own records `performance.now()` when the first table cell with text appears (the
Dataframe is virtualised: cells are found by their ARIA role). Resource timings say what was fetched
before that, and when the load event left the browser (its `queue/join` request).
"""

from __future__ import annotations

import sys

import common
from browser import CHROMIUM, CHROMIUM_ARGS
from common import Figure

GOAL = 1.2  # first rows ≤ 1.2× the floor page

WATCH = """(() => {
  const seen = () => {
    for (const cell of document.querySelectorAll('#results [role=gridcell]')) {
      if (cell.innerText.trim()) return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (window.__firstRows === undefined && seen()) { window.__firstRows = performance.now(); observer.disconnect(); }
  });
  observer.observe(document, {childList: true, subtree: true, characterData: true});
})();"""

TIMINGS = """() => {
  const entries = performance.getEntriesByType('resource');
  const kind = (e) => /\\.m?js(\\?|$)/.test(e.name) ? 'js'
    : (/\\.(woff2?|ttf|otf)(\\?|$)/.test(e.name) || /fonts\\.(googleapis|gstatic)/.test(e.name)) ? 'font'
    : /\\.css(\\?|$)/.test(e.name) ? 'css' : 'other';
  const before = entries.filter((e) => e.startTime <= window.__firstRows);
  const sum = (list, k) => list.filter((e) => kind(e) === k).reduce((a, e) => a + (e.decodedBodySize || 0), 0);
  const count = (list, k) => list.filter((e) => kind(e) === k).length;
  const join = entries.find((e) => e.name.includes('/queue/join'));
  const nav = performance.getEntriesByType('navigation')[0];
  return {
    first_rows: window.__firstRows,
    html_done: nav ? nav.responseEnd : null,
    load_sent: join ? join.startTime : null,
    load_answered: join ? join.responseEnd : null,
    js: count(before, 'js'), js_kb: sum(before, 'js') / 1024,
    fonts: count(before, 'font'), font_kb: sum(before, 'font') / 1024,
    css: count(before, 'css'), failed_fonts: entries.filter((e) => kind(e) === 'font' && !e.decodedBodySize).length,
  };
}"""


def visit(browser, url: str) -> dict:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.add_init_script(WATCH)
        page.goto(url)
        page.wait_for_function("() => window.__firstRows !== undefined", polling=50, timeout=60_000)
        return page.evaluate(TIMINGS)
    finally:
        context.close()


def run(quick: bool = False) -> list[Figure]:
    from playwright.sync_api import sync_playwright

    rows = common.rows_for(quick)["small"]
    visits = 3 if quick else 9
    mine: list[dict] = []
    floor: list[dict] = []
    with sync_playwright() as p, common.floor() as base, common.ours(common.dataset(rows)) as app:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            visit(browser, base.url), visit(browser, app.url)  # warm both servers
            for _ in range(visits):
                floor.append(visit(browser, base.url))
                mine.append(visit(browser, app.url))
        finally:
            browser.close()

    def mid(samples: list[dict], key: str) -> float:
        return common.median([s[key] for s in samples if s[key] is not None])

    label = common.rows_label(rows)
    ours_first, floor_first = mid(mine, "first_rows"), mid(floor, "first_rows")
    return [
        Figure("first rows on screen, median", label, ours_first, "ms", floor_first, goal=f"≤ {GOAL}× floor",
               met=ours_first <= GOAL * floor_first,
               note=f"{visits} fresh visits each, alternating; p95 {common.percentile([s['first_rows'] for s in mine], 95):,.0f} ms "
                    f"(floor {common.percentile([s['first_rows'] for s in floor], 95):,.0f} ms)"),
        Figure("load event sent, median", label, mid(mine, "load_sent"), "ms", mid(floor, "load_sent"),
               note=f"answered at {mid(mine, 'load_answered'):,.0f} ms (floor {mid(floor, 'load_answered'):,.0f} ms); "
                    f"HTML received at {mid(mine, 'html_done'):,.0f} ms (floor {mid(floor, 'html_done'):,.0f} ms)"),
        Figure("JS chunks before first rows", label, mid(mine, "js"), "count", mid(floor, "js"),
               note=f"{mid(mine, 'js_kb'):,.0f} KB decoded (floor {mid(floor, 'js_kb'):,.0f} KB)"),
        Figure("web fonts before first rows", label, mid(mine, "fonts"), "count", mid(floor, "fonts"),
               note=f"{mid(mine, 'font_kb'):,.0f} KB decoded (floor {mid(floor, 'font_kb'):,.0f} KB); "
                    f"font requests that failed or came back empty: {mid(mine, 'failed_fonts'):g} (floor {mid(floor, 'failed_fonts'):g})"),
    ]  # fmt: skip


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(common.report("In Chromium: navigation → first result rows on screen", run(quick), quick))
