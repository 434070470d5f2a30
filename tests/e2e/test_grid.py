"""The support grid from outside: the named /grid through gradio_client equals GET /api/v1/grid, the Grid page is in
the nav and painted in its first HTML as the API answers it, and in Chromium at 1366 and 390 px its first column
stays while the stacks scroll, and a cell opens its models in the Models view."""

from __future__ import annotations

import html

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.html.test_grid import painted

TIMEOUT = 30_000


def test_the_named_endpoint_and_the_route_answer_the_same(client, sample_app):
    named = client.predict("", "", api_name="/grid")
    assert named == httpx.get(sample_app.url + "/api/v1/grid", timeout=30).json()
    rows = {r["architecture"]: r for r in named["rows"]}
    assert len(named["stacks"]) == 6 and len(rows) == 65
    assert rows["Gemma2ForCausalLM"]["regressed_since"] == named["stacks"][4]
    by_task = client.predict("transformers", "image-text-to-text", api_name="/grid")
    assert by_task["task"] == "image-text-to-text" and "Qwen3ForCausalLM" not in {
        r["architecture"] for r in by_task["rows"]
    }


def test_the_first_html_paints_the_grid_the_api_answers(sample_app):
    first = httpx.get(sample_app.url + "/grid?sort=name", timeout=30).text
    block = first[first.index('<div id="first-paint">') :]
    shown = painted(block)
    answer = httpx.get(sample_app.url + "/api/v1/grid", timeout=30).json()
    assert list(shown) == sorted((r["architecture"] for r in answer["rows"]), key=str.casefold)
    for r in answer["rows"]:
        assert [c[:4] for c in shown[r["architecture"]]["cells"]] == [
            (c["status"], c["passed"], c["failed"], c["regressed"]) for c in r["cells"]
        ]
    assert '["architectures","Architectures",true],["grid","Grid",true]' in first.replace(", ", ",")  # in the nav


@pytest.mark.parametrize("width", [1366, 390])
def test_the_first_column_stays_while_the_stacks_scroll_and_a_cell_opens_its_models(page: Page, sample_app, width):
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(sample_app.url + "/grid")
    table = page.locator("#grid-box #grid-table")
    expect(table).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#first-paint")).to_have_count(0, timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page itself never scrolls sideways
    name = page.locator("#g-PhiForCausalLM th code")
    scroller = page.locator("#grid-box .g-scroll")
    before = name.bounding_box()
    scroller.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_function("document.querySelector('#grid-box .g-scroll').scrollLeft > 0 || "
                           "document.querySelector('#grid-box .g-scroll').scrollWidth <= "
                           "document.querySelector('#grid-box .g-scroll').clientWidth")  # fmt: skip
    # the name stays in sight (sticky: it moves by the table's border spacing at most) while the stacks scroll
    assert name.bounding_box()["x"] == pytest.approx(before["x"], abs=5)
    if width < 600:
        assert scroller.evaluate("(e) => e.scrollLeft") > 100
    newest = page.locator("#g-PhiForCausalLM td a").last
    expect(newest).to_contain_text("fail")
    href = html.unescape(newest.get_attribute("href"))
    assert "architecture=PhiForCausalLM" in href and "transformers=5.0.0" in href
    newest.click()
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#results")).to_contain_text("microsoft/phi-2")
    assert page.locator("#results tr[data-model]").count() == 1
    expect(page.locator("#architecture-note")).to_contain_text("PhiForCausalLM")


def test_the_live_grid_takes_the_painted_ones_place_without_a_jump(page: Page, sample_app):
    from tests.e2e.test_first_response import CLS

    page.set_viewport_size({"width": 1280, "height": 900})
    page.add_init_script(CLS)
    page.goto(sample_app.url + "/grid?sort=regressed")
    expect(page.locator("#grid-box #grid-table")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#first-paint")).to_have_count(0, timeout=TIMEOUT)
    for element_id in ("grid-table", "grid-form", "grid-summary", "header"):
        assert page.locator(f"[id='{element_id}']").count() == 1, element_id
    assert page.evaluate("window.__cls") <= 0.1


def test_without_javascript_the_grid_is_read_and_its_form_changes_it(browser, sample_app):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(sample_app.url + "/grid")
        expect(page.locator("#first-paint #g-Qwen3ForCausalLM")).to_contain_text("works since")
        page.locator("#grid-form input[name=q]").fill("gemma2")
        page.locator("#grid-form select[name=sort]").select_option("name")
        page.locator("#grid-form button").click()
        expect(page.locator("#grid-summary")).to_contain_text("1 architecture")
        assert "q=gemma2" in page.url and "sort=name" in page.url
        page.locator("#g-Gemma2ForCausalLM td a").last.click()
        expect(page.locator("#first-paint tbody tr")).to_have_count(3)  # its three models on the newest stack
    finally:
        context.close()
