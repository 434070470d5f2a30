"""Accessibility in Chromium: axe-core (WCAG 2.1 A/AA) on every page, light and dark, and the keyboard path.

axe-core is vendored (tests/vendor/axe.min.js, v4.10.3, MPL-2.0): CI needs no npm, and every run checks
against the same rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

AXE = (Path(__file__).resolve().parent.parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TIMEOUT = 20_000
# (name, path, what shows that the page has drawn its data)
PAGES = [
    ("models", "/", "#results [role=gridcell]"),
    ("model open", "/?model=Qwen/Qwen3-0.6B", "#run-py pre.code"),
    ("untested model open", "/?model=ByteDance-Seed/UI-TARS-1.5-7B", "#expectation"),
    ("trending", "/?view=trending", "#results [role=gridcell]"),
    ("compare", "/compare", "#compare-counts"),
    ("charts", "/charts", "#chart-wall .js-plotly-plot"),
    ("architectures", "/architectures", "#arch-table"),
    ("grid", "/grid?sort=regressed", "#grid-box #grid-table"),
    ("failures", "/failures?cause=v1-", "#failures-summary"),
    ("model failed", "/?model=llava-hf/llava-1.5-7b-hf&neuronx_cc=2.28.7631.0&transformers=5.0.0", "#cause"),
    ("about", "/about", "#header .provenance"),
    ("wanted", "/wanted", "#header .provenance"),
    ("endpoints", "/endpoints", "#endpoints-list"),
]
# the levels of the headings shown, in order
HEADINGS = "() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => h.getClientRects().length)"
HEADINGS += ".map((h) => Number(h.tagName[1]))"
RUN_AXE = """async () => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}});
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) x${v.nodes.length}: ${v.nodes[0].target.join(" ")}`);
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("name", "path", "drawn"), PAGES, ids=[p[0] for p in PAGES])
def test_no_serious_or_critical_axe_violations(page: Page, sample_app, theme, name, path, drawn):
    page.emulate_media(color_scheme=theme)
    page.goto(f"{sample_app.url}{path}{'&' if '?' in path else '?'}__theme={theme}")
    expect(page.locator(drawn).first).to_be_attached(timeout=TIMEOUT)
    expect(page.locator("#first-paint")).to_have_count(0)  # the live page shown, the painted block gone
    # the last values settled: no event of the page still running (a table drawn again would be checked half-done)
    page.wait_for_function("() => !document.querySelector('.pending, .generating')", timeout=TIMEOUT)
    page.add_script_tag(content=AXE)
    assert page.evaluate(RUN_AXE) == []
    # headings in order (axe's heading-order is a best practice, outside the tags above): one <h1>, then no
    # level skipped
    levels = page.evaluate(HEADINGS)
    assert levels[0] == 1 and levels.count(1) == 1, levels
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels


def test_the_keyboard_reaches_the_table_opens_a_row_and_every_copy_button(page: Page, sample_app):
    page.goto(sample_app.url + "/?q=qwen3")
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
    # the page has settled (no event still running) before a cell is focused: a table drawn again after
    # the focus would drop it on a busy machine
    page.wait_for_function("() => !document.querySelector('.pending, .generating')", timeout=TIMEOUT)
    page.locator("#search textarea, #search input").first.focus()
    for _ in range(40):  # Tab until a cell of the table has focus
        page.keyboard.press("Tab")
        if page.evaluate("() => Boolean(document.activeElement.closest('#results [role=gridcell]'))"):
            break
    else:
        pytest.fail("Tab never reached the results table")
    model = page.evaluate("() => document.activeElement.closest('tr').dataset.model")
    page.keyboard.press("Enter")
    expect(page.locator("#details-summary h2")).to_contain_text(model, timeout=TIMEOUT)
    expect(page.locator("#run-py pre.code")).to_be_attached(timeout=TIMEOUT)

    reached = set()
    for _ in range(80):  # Tab on through the details: every copy button and the run.py viewer take focus
        page.keyboard.press("Tab")
        reached.add(
            page.evaluate(
                """() => { const e = document.activeElement;
                  const box = e.closest('#install, #cache-sync, #run-py, #run-command, #link');
                  if (!box) return '';
                  if (e.matches('pre.code')) return box.id + ':scroller';
                  const label = (e.getAttribute('aria-label') || e.title || '').toLowerCase();
                  return label.includes('copy') ? box.id + ':copy' : ''; }"""
            )
        )
    expected = {"install:copy", "cache-sync:copy", "run-py:copy", "run-command:copy", "link:copy", "run-py:scroller"}
    assert expected <= reached, sorted(reached)


def test_focus_is_visible_on_the_run_py_viewer(page: Page, sample_app):
    page.goto(sample_app.url + "/?model=Qwen/Qwen3-0.6B")
    scroller = page.locator("#run-py pre.code")
    expect(scroller).to_be_attached(timeout=TIMEOUT)
    scroller.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")  # focus by keyboard: :focus-visible applies
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert page.evaluate("() => document.activeElement.matches('#run-py pre.code')") and outline != "none"
