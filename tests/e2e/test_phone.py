"""Compare and Charts on a phone (390×844) and on a laptop (1366×768), in real Chromium, read from the boxes the
browser laid out: no cell's contents over another's, each stack picker's whole value in sight, Plotly's toolbar
clear of every legend. And `/endpoints`: its own title, and a link to it from every page's top."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

TIMEOUT = 60_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PICKERS = {"/compare": ("compare-a", "compare-b"), "/charts": ("charts-stack",)}
PLOTS = ("chart-trend", "chart-wall", "chart-memory", "chart-orgs", "chart-causes")

# Each row's cells: the box of what each cell holds (its text and elements, not the cell), and the cell's own box.
CELLS = """() => [...document.querySelectorAll('#compare-result table.compare-table tbody tr')].map((tr) =>
  [...tr.children].map((td) => {
    const range = document.createRange(); range.selectNodeContents(td);
    const box = (r) => [r.left, r.top, r.right, r.bottom];
    return {text: td.textContent.trim(), content: box(range.getBoundingClientRect()), cell: box(td.getBoundingClientRect())};
  }))"""
# A picker: the width its text may take (from the text's start to the arrow, or the input's own right edge), and
# the width each choice's label takes in the input's font.
PICKER = """(id) => {
  const input = document.querySelector(`#${id} input`), arrow = document.querySelector(`#${id} .icon-wrap`);
  const style = getComputedStyle(input), box = input.getBoundingClientRect();
  const left = box.left + parseFloat(style.paddingLeft);
  const right = Math.min(box.right - parseFloat(style.paddingRight), arrow ? arrow.getBoundingClientRect().left : Infinity);
  const context = document.createElement('canvas').getContext('2d'); context.font = style.font;
  return {room: right - left, value: input.value,
          choices: Object.fromEntries(window.__choices.map((c) => [c, context.measureText(c).width]))};
}"""
BOXES = """(id) => { const root = document.getElementById(id);
  const box = (el) => { if (!el || !el.getClientRects().length) return null; const r = el.getBoundingClientRect();
    return r.width && r.height ? [r.left, r.top, r.right, r.bottom] : null; };
  const bar = root.querySelector('.modebar');
  return {modebar: bar && getComputedStyle(bar).opacity !== '0' ? box(bar) : null,
          legend: [...root.querySelectorAll('g.legend g.traces')].map(box).filter(Boolean)}; }"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def inside(a: list[float], b: list[float]) -> bool:
    return a[0] >= b[0] - 0.5 and a[1] >= b[1] - 0.5 and a[2] <= b[2] + 0.5 and a[3] <= b[3] + 0.5


@pytest.mark.parametrize("look", ["phone", "laptop"])
def test_no_cell_of_the_comparison_holds_its_contents_over_another(browser: Browser, sample_app, look):
    context = browser.new_context(**(PHONE if look == "phone" else LAPTOP))
    try:
        page = context.new_page()
        page.goto(sample_app.url + "/compare")
        expect(page.locator("#compare-result table.compare-table").first).to_be_visible(timeout=TIMEOUT)
        rows = page.evaluate(CELLS)
    finally:
        context.close()
    assert len(rows) >= 3  # the sample's default stacks: two regressions, a fix, twenty changed
    for row in rows:
        texts = [cell["text"] for cell in row]
        assert any(t in ("PASS", "FAIL") for t in texts), texts
        for i, cell in enumerate(row):
            assert inside(cell["content"], cell["cell"]), (look, texts, cell)
            for other in row[i + 1 :]:
                assert not overlaps(cell["content"], other["content"]), (look, cell["text"], other["text"])


@pytest.mark.parametrize("path", PICKERS)
def test_each_stack_picker_shows_its_whole_value_on_a_phone(browser: Browser, sample_app, path):
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(sample_app.url + path)
        pickers = {}
        for picker in PICKERS[path]:
            expect(page.locator(f"#{picker} input")).to_have_value(re.compile(r"\d+\.\d+"), timeout=TIMEOUT)
            page.locator(f"#{picker} input").click()
            options = page.locator("[role=option]")
            expect(options.first).to_be_visible()
            choices = [re.sub(r"^\W*", "", text).strip() for text in options.all_text_contents()]  # "✓ " marks one
            page.evaluate("(c) => { window.__choices = c; }", choices)
            page.keyboard.press("Escape")
            pickers[picker] = page.evaluate(PICKER, picker)
    finally:
        context.close()
    for picker, seen in pickers.items():
        assert len(seen["choices"]) >= 8, seen  # every stack of the sample
        assert seen["value"] in seen["choices"], seen
        too_wide = {c: round(w) for c, w in seen["choices"].items() if w > seen["room"]}
        assert not too_wide, f"{picker}: {round(seen['room'])} px for {too_wide}"
    if path == "/compare":
        assert pickers["compare-a"]["value"] != pickers["compare-b"]["value"]


@pytest.mark.parametrize("look", ["phone", "laptop"])
def test_plotlys_toolbar_never_covers_a_legend_item(browser: Browser, sample_app, look):
    context = browser.new_context(**(PHONE if look == "phone" else LAPTOP))
    seen = {}
    try:
        page = context.new_page()
        page.goto(sample_app.url + "/charts")
        for plot in PLOTS:
            page.wait_for_selector(f"#{plot} .js-plotly-plot g.legend g.traces", state="attached", timeout=TIMEOUT)
        for plot in PLOTS:
            figure = page.locator(f"#{plot} .js-plotly-plot")
            figure.scroll_into_view_if_needed()
            if look == "phone":  # a tap is what shows the toolbar on a phone
                figure.locator("rect.nsewdrag").first.tap(force=True)
            else:
                figure.hover()
                expect(figure.locator(".modebar")).to_be_visible()
            seen[plot] = page.evaluate(BOXES, plot)
    finally:
        context.close()
    for plot, boxes in seen.items():
        assert boxes["legend"], plot
        if look == "phone":
            assert boxes["modebar"] is None, (plot, boxes)  # a phone gets no toolbar
            continue
        assert boxes["modebar"], plot
        assert not any(overlaps(boxes["modebar"], item) for item in boxes["legend"]), (plot, boxes)


def test_the_endpoints_page_has_its_own_title_and_every_page_links_to_it(page, sample_app):
    page.goto(sample_app.url + "/compare")
    link = page.locator("#api-link")
    expect(link).to_be_visible(timeout=TIMEOUT)
    link.click()
    expect(page).to_have_url(re.compile(r"/endpoints$"))
    expect(page.locator("#endpoints-list")).to_contain_text("The named endpoints", timeout=TIMEOUT)
    expect(page).to_have_title("API endpoints · torch-neuronx model support")
