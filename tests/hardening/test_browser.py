"""Hostile text in real Chromium: shown as text everywhere, and nothing it carries ever runs.

The dataset is the bundled sample plus rows whose every text field is a script, an event handler,
a `javascript:` link or a very long string (see `hostile.py`). A dialog fails the test at once, and
`window.__pwned`, which every payload would set, must stay unset.
"""

from __future__ import annotations

import pandas as pd
import pyarrow.parquet as pq
import pytest
from playwright.sync_api import Page, expect

from tests.hardening.hostile import (
    HOSTILE_CC,
    HOSTILE_LINK_MODEL,
    HOSTILE_MODEL,
    HOSTILE_SCRIPT_MODEL,
    LONG_MODEL,
    NEW_CC,
)  # fmt: skip

TIMEOUT = 20_000
HOSTILE_MODELS = (HOSTILE_MODEL, HOSTILE_SCRIPT_MODEL, HOSTILE_LINK_MODEL, LONG_MODEL)


@pytest.fixture
def guarded(page: Page, hostile_app):
    """A page that fails on any dialog, plus a check that no payload ran."""
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    # the page never uploads and is never refused by the app's bounds (uploads 403, streams 429, cap 503)
    refused: list[str] = []
    page.on(
        "response",
        lambda r: (
            refused.append(f"{r.status} {r.url}")
            if r.status in (400, 403, 429, 503) or "/gradio_api/upload" in r.url
            else None
        ),
    )
    page.set_default_timeout(TIMEOUT)

    def open_(query: str = "") -> Page:
        page.goto(hostile_app.url + "/" + query)
        cell = expect(page.locator("#results [role=gridcell]").first)
        # a model's page has the table one step back, out of sight
        cell.to_be_attached() if "model=" in query else cell.to_be_visible()
        expect(page.locator("#first-paint")).to_have_count(0)  # the live page shown
        return page

    yield open_
    # late handlers have had their turn: every image has loaded or failed (an `onerror` would fire then), and two
    # frames have been drawn since
    page.wait_for_function("() => [...document.images].every((image) => image.complete)", timeout=TIMEOUT)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("() => window.__pwned") is None
    assert dialogs == []
    assert refused == []


def no_injected_elements(page: Page, scope: str) -> None:
    """No element the payloads would create exists inside `scope`."""
    found = page.evaluate(
        r"""(scope) => [...document.querySelectorAll(scope)].flatMap(root =>
            [...root.querySelectorAll('script, style, iframe[srcdoc], [onerror], [onload], [onmouseover], [href^="javascript:" i]')]
              .filter(el => !['SCRIPT', 'STYLE'].includes(el.tagName) || /__pwned|body\{display:none/.test(el.textContent))
              .map(el => el.outerHTML.slice(0, 120)))""",
        scope,
    )
    assert found == []


def search(page: Page, text: str) -> None:
    """Search as a person does: type (here: fill) and press Enter, then wait for the new summary."""
    before = page.locator("#summary").inner_text()
    box = page.locator("#search textarea, #search input").first
    box.fill(text)
    box.press("Enter")
    expect(page.locator("#summary")).not_to_have_text(before)


def test_hostile_model_ids_are_text_in_the_table(guarded):
    page = guarded("?neuronx_cc=2.28.7631.0&transformers=5.0.0")
    search(page, "evil")
    cells = page.locator("#results [role=gridcell]")
    expect(cells.filter(has_text="evil/<img src=x onerror=").first).to_be_visible()
    expect(cells.filter(has_text="evil/<script>window.__pwned").first).to_be_visible()
    expect(cells.filter(has_text="evil/[x](javascript:alert('md'))").first).to_be_visible()
    no_injected_elements(page, "#results")
    links = page.eval_on_selector_all("#results td a", "els => els.map(a => a.getAttribute('href'))")
    assert links and all(href.startswith("./?model=") for href in links)  # each row opens its model here


@pytest.mark.parametrize("model_id", HOSTILE_MODELS, ids=["img", "script", "md-link", "long"])
def test_the_details_of_a_hostile_model_are_text(guarded, model_id):
    page = guarded()
    search(page, model_id[:40])
    page.locator("#results [role=gridcell]", has_text=model_id[:30]).first.click(position={"x": 4, "y": 4})
    head = page.locator("#details-summary h2")
    expect(head).to_contain_text(model_id[:30])
    details = page.locator("#details")  # the model's page: its head, then (under the commands) its body
    expect(details).to_contain_text("window.__pwned='exclusion'")  # the exclusion, as text
    expect(details).to_contain_text("<script>window.__pwned='notes'</script>")
    page.locator("#details-body details.error summary").click()
    # the panel shows the end of a long error (the whole of it is in /lookup): its last line, as text
    expect(details.locator(".error pre")).to_contain_text("NCC_X: <script>window.__pwned='error-last'</script>")
    expect(page.locator("#run-py")).to_contain_text("window.__pwned='run_py'")
    no_injected_elements(page, "#details")


def test_a_hostile_stack_is_text_in_the_pickers_and_the_history(guarded):
    page = guarded()
    search(page, "evil img")
    page.locator("#results [role=gridcell]", has_text="evil/<img").first.click(position={"x": 4, "y": 4})
    expect(page.locator("#history")).to_contain_text(HOSTILE_CC)
    page.locator("#details-summary .back-to-table a").click()  # the pickers are on the table's page
    expect(page.locator("#results [role=gridcell]").first).to_be_visible()
    page.locator("#stack-cc input").click()
    expect(page.locator("[role=option]", has_text=HOSTILE_CC).first).to_be_attached()
    page.keyboard.press("Escape")
    no_injected_elements(page, "body")


def test_the_charts_show_hostile_text_as_text(guarded):
    page = guarded()
    page.get_by_role("link", name="Charts", exact=True).click()  # a page of its own
    wall = page.locator("#chart-wall .js-plotly-plot")
    expect(wall).to_be_visible()
    orgs = page.locator("#chart-orgs .js-plotly-plot")
    expect(orgs).to_be_visible()
    expect(orgs.locator("text", has_text="evil")).not_to_have_count(0)  # the org axis label, as text
    # hover the hostile models' points of the wall-time figure and read their labels
    hostile_points = page.evaluate(
        """() => document.querySelector('#chart-wall .js-plotly-plot').data.flatMap((trace, curve) =>
            (trace.customdata || []).flatMap((row, point) => row[0].startsWith('evil/') ? [[curve, point]] : []))"""
    )
    assert hostile_points
    seen = []
    for curve, point in hostile_points:
        dot = wall.locator(".scatterlayer .trace").nth(curve).locator("path.point").nth(point)
        dot.scroll_into_view_if_needed()
        dot.hover(force=True)
        label = wall.locator(".hoverlayer .hovertext")
        expect(label.first).to_be_attached()
        seen.append(label.first.text_content() or "")
    assert any("evil/<img src=x onerror=" in text for text in seen), seen
    assert page.evaluate("() => document.querySelectorAll('.hoverlayer img, .hoverlayer script').length") == 0


def test_the_compare_tab_shows_hostile_text_as_text(guarded):
    page = guarded()
    page.get_by_role("link", name="Compare stacks", exact=True).click()
    expect(page.locator("#compare-counts")).to_be_visible()
    expect(page.get_by_text("evil/<img src=x onerror=").first).to_be_attached()
    no_injected_elements(page, "body")


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_exports_hold_hostile_text_as_data(guarded, fmt, tmp_path):
    page = guarded("?neuronx_cc=2.28.7631.0&transformers=5.0.0")
    search(page, "evil")
    with page.expect_download() as download:
        page.locator(f"#download-{fmt}").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False) if fmt == "csv" else pq.read_table(path).to_pandas()
    assert {HOSTILE_MODEL, HOSTILE_SCRIPT_MODEL, HOSTILE_LINK_MODEL} <= set(frame["model_id"])
    exclusions = set(frame["exclusion"])
    assert any("<script>window.__pwned='exclusion'</script>" in e for e in exclusions if e)


def test_deep_links_to_hostile_models_and_stacks_show_them_as_text(guarded):
    from urllib.parse import urlencode

    page = guarded("?" + urlencode({"model": HOSTILE_MODEL, "neuronx_cc": HOSTILE_CC, "transformers": "x"}))
    expect(page.locator("#details-summary h2")).to_contain_text(HOSTILE_MODEL)
    expect(page.locator("#details-summary")).to_contain_text(HOSTILE_CC)
    no_injected_elements(page, "body")


def test_all_libraries_is_the_default_and_the_newest_compiler_is_offered_first(guarded):
    page = guarded()
    assert page.locator("#stack-lib input").input_value() == "All libraries"
    page.locator("#stack-cc input").click()
    options = page.locator("#stack-cc [role=option]")
    expect(options.first).to_contain_text("Each library's newest")
    expect(options.nth(1)).to_contain_text(NEW_CC.split("+")[0] + " (newest)")
