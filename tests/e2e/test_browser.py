"""The page in real Chromium, as a person uses it: search, click, deep link, copy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.web.html.table import table_columns

COLUMNS = list(table_columns("selected"))

TIMEOUT = 20_000


@pytest.fixture
def opened(page: Page, sample_app):
    def open_(query: str = "") -> Page:
        page.goto(sample_app.url + "/" + query)
        # on a model's page the table is one step back, out of sight
        expect(page.locator("#results [role=gridcell]").first).to_be_attached(timeout=TIMEOUT)
        return page

    return open_


def model_cells(page: Page) -> list[str]:
    cells = page.locator("#results [role=gridcell]")
    texts = cells.all_inner_texts()
    return [t.strip().splitlines()[0] for t in texts[COLUMNS.index("Model") :: len(COLUMNS)]]  # the Model column


def test_the_sample_is_shown_and_labelled(opened):
    page = opened()
    expect(page.locator("#header")).to_contain_text("Sample data", timeout=TIMEOUT)
    expect(page.locator("#header")).to_contain_text("not real results")
    expect(page.locator("#summary")).to_contain_text("models")
    assert len(model_cells(page)) > 10


def test_search_narrows_the_table(opened):
    page = opened()
    before = len(model_cells(page))
    search = page.locator("#search textarea, #search input").first
    search.click()
    search.press_sequentially("qwen3 0.6b")
    search.press("Enter")
    expect(page.locator("#summary")).to_contain_text(re.compile(r"\b1\b models?|models"), timeout=TIMEOUT)
    page.wait_for_function(
        f"() => document.querySelectorAll('#results [role=gridcell]').length <= {3 * len(COLUMNS)}",
        timeout=TIMEOUT,
    )
    cells = model_cells(page)
    assert "Qwen/Qwen3-0.6B" in cells and len(cells) < before


def test_clicking_a_row_opens_its_details_with_the_right_commands(opened):
    page = opened("?q=qwen3+0.6b")
    page.locator("#results [role=gridcell]", has_text="Qwen/Qwen3-0.6B").first.click(position={"x": 4, "y": 4})
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-0.6B", timeout=TIMEOUT)
    expect(page.locator("#run-py")).to_contain_text("Qwen/Qwen3-0.6B")
    sync = page.locator("#cache-sync pre").inner_text()
    assert sync.startswith("hf buckets sync hf://buckets/aws-neuron/torch-neuronx-neff-cache/neuronxcc-")
    assert sync.endswith(" /tmp/neff_cache")
    assert "neuronxcc-2.28.7631.0" in sync  # the row's compiler: no stack named, the newest Transformers stack's


def test_a_deep_link_opens_a_model(opened):
    page = opened("?model=Qwen/Qwen3-0.6B")
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-0.6B", timeout=TIMEOUT)
    expect(page.locator("#install pre")).to_have_text(re.compile(r"pip install .*torch-neuronx=="))
    expect(page.locator("#link textarea, #link input").first).to_have_value(re.compile(r"model=Qwen%2FQwen3-0.6B"))


def test_a_deep_link_to_a_model_not_in_the_data_says_not_tested(opened):
    page = opened("?model=does/not-exist")
    summary = page.locator("#details-summary")
    expect(summary.locator("h2")).to_contain_text("does/not-exist", timeout=TIMEOUT)
    expect(summary).to_contain_text("not tested")
    expect(summary.locator("#lead")).to_contain_text("nor on any other stack")
    expect(page.locator("#link textarea, #link input").first).to_have_value(re.compile(r"model=does%2Fnot-exist"))


def test_a_deep_link_to_an_unknown_stack_shows_the_stack_applied(opened, client):
    newest = client.predict(api_name="/stacks")[0]
    page = opened("?neuronx_cc=2.99.0&transformers=9.9")
    expect(page.locator("#stack-tf input").first).to_have_value(newest["library_version"], timeout=TIMEOUT)
    link = page.locator("#link textarea, #link input").first
    # Read the query, not the whole link: the server's port can hold "9.9" too (a CI run's port 40999 did).
    expect(link).to_have_value(
        re.compile(rf"[?&]transformers={re.escape(newest['library_version'])}(&|$)"), timeout=TIMEOUT
    )
    expect(link).not_to_have_value(re.compile(r"[?&](neuronx_cc=2\.99\.0|transformers=9\.9)(&|$)"))


def test_a_model_link_to_an_unknown_stack_shows_its_own_answer_a_notice_and_the_state_applied(opened):
    page = opened("?model=black-forest-labs/FLUX.1-schnell&neuronx_cc=9.9.9")
    notice = page.locator("#unknown-stack")
    expect(notice).to_contain_text("No tested stack matches neuronx-cc 9.9.9", timeout=TIMEOUT)
    expect(notice).to_contain_text("Known stacks")
    expect(notice).to_contain_text("Shown instead: neuronx-cc 2.28.7631.0 · Diffusers 0.36.0")
    expect(page.locator("#details")).to_contain_text("FAIL")
    expect(page).to_have_url(re.compile(r"[?&]library=diffusers(&|$)"), timeout=TIMEOUT)  # the address bar
    assert "9.9.9" not in page.url


def test_copy_buttons_exist(opened):
    page = opened("?model=Qwen/Qwen3-0.6B")
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-0.6B", timeout=TIMEOUT)
    for element in ("#run-py", "#cache-sync", "#install"):
        expect(
            page.locator(f"{element} button[aria-label*='opy' i], {element} button[title*='opy' i]").first
        ).to_be_attached()


def test_run_py_downloads_as_the_script_itself(opened):
    page = opened("?model=Qwen/Qwen3-0.6B")
    button = page.locator("#run-py button[data-download]")
    expect(button).to_be_visible(timeout=TIMEOUT)
    with page.expect_download() as saved:
        button.click()
    download = saved.value
    script = page.evaluate("async () => (await (await fetch('api/v1/lookup?model=Qwen/Qwen3-0.6B')).json()).run_py")
    assert download.suggested_filename == "run.py"
    assert Path(download.path()).read_text(encoding="utf-8") == script and 'MODEL_ID = "Qwen/Qwen3-0.6B"' in script


def test_the_transformers_choices_follow_the_compiler(opened):
    page = opened()
    page.locator("#stack-cc input").click()
    options = page.locator("[role=option]")
    expect(options.first).to_be_visible(timeout=TIMEOUT)
    assert options.count() >= 4  # the sample has at least four compilers
    oldest = options.last.inner_text().split(" ")[0]
    options.last.click()
    expect(page.locator("#summary")).to_contain_text(f"neuronx-cc {oldest}", timeout=TIMEOUT)
    page.locator("#stack-tf input").click()
    # the version picker's own list: the compiler's may still be closing on a busy machine
    versions = page.locator("#stack-tf [role=option]")
    expect(versions.first).to_be_visible(timeout=TIMEOUT)
    expect(versions).to_have_count(1)  # the oldest compiler has one Transformers version


def test_pasting_a_model_name_searches_without_enter(opened):
    page = opened()
    page.locator("#search textarea, #search input").first.fill("qwen3 0.6b")  # fires change, as a paste does
    page.wait_for_function(
        f"() => document.querySelectorAll('#results [role=gridcell]').length <= {3 * len(COLUMNS)}",
        timeout=TIMEOUT,
    )
    assert "Qwen/Qwen3-0.6B" in model_cells(page)


def test_the_library_picker_opens_the_sample_diffusers_stack(opened):
    page = opened()
    page.locator("#stack-lib input").click()
    expect(page.get_by_role("option", name="Diffusers")).to_be_visible(timeout=TIMEOUT)
    page.get_by_role("option", name="Diffusers").click()
    expect(page.locator("#summary")).to_contain_text("Diffusers 0.36.0", timeout=TIMEOUT)
    expect(page.locator("#stack-tf input").first).to_have_value("0.36.0")
    expect(page.locator("#link textarea, #link input").first).to_have_value(re.compile(r"library=diffusers"))
    page.locator("#results [role=gridcell]").first.click(position={"x": 4, "y": 4})
    expect(page.locator("#install pre")).to_have_text(re.compile(r"diffusers==0\.36\.0"))
    expect(page.locator("#run-py")).to_contain_text("diffusers", timeout=TIMEOUT)


def test_a_phone_sees_model_and_result_without_scrolling_sideways(opened):
    page = opened()
    page.set_viewport_size({"width": 390, "height": 844})
    headers = page.locator("#results [role=columnheader]")
    expect(headers.nth(2)).to_be_hidden(timeout=TIMEOUT)  # cores and the rest are in the row's details
    assert headers.nth(0).is_visible() and headers.nth(1).is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    table = page.locator("#results")
    assert page.evaluate("(el) => el.getBoundingClientRect().right <= window.innerWidth", table.element_handle())
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(headers.nth(2)).to_be_visible()


def in_first_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


# The headings shown, in order, as levels: each one at most one level below the one before, starting at 1.
HEADINGS = "() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => h.getClientRects().length)"
HEADINGS += ".map((h) => Number(h.tagName[1]))"


def headings_in_order(levels: list[int]) -> bool:
    return bool(levels) and levels[0] == 1 and all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False))


# Each copy button of the page and what is drawn at its centre: the button itself (or a node inside it), never a
# label laid over it. Each is scrolled into view first (elementFromPoint reads the viewport only).
COPY_BUTTONS_ON_TOP = """() => [...document.querySelectorAll("#details button.copy-button, #link button")]
  .filter((b) => b.getClientRects().length && /copy/i.test(b.getAttribute("aria-label") || b.title || b.textContent))
  .map((b) => {
    b.scrollIntoView({block: "center"});
    const r = b.getBoundingClientRect(), hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const name = b.closest("[id]").id + ":" + (b.getAttribute("aria-label") || b.title);
    return [name, Boolean(hit && b.contains(hit)), hit ? hit.tagName + "." + hit.className : "nothing"];
  })"""
# How many characters of run.py's font fit in its box beside the line numbers.
RUN_PY_COLUMNS = """() => {
  const pre = document.getElementById("run-py-code"), line = pre.querySelector(".line");
  const gutter = getComputedStyle(line, "::before");
  const beside = parseFloat(gutter.width) + parseFloat(gutter.marginRight);
  const probe = document.createElement("span");
  probe.textContent = "x".repeat(100);
  line.append(probe);
  const char = probe.getBoundingClientRect().width / 100;
  probe.remove();
  const style = getComputedStyle(pre);
  return (pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - beside) / char;
}"""


def test_a_model_link_leads_with_its_answer_and_commands_on_a_wide_screen(page: Page, sample_app):
    """Issue 62: at 1366×768 a model's link shows, without scrolling, the model, its result and summary line and the
    beginnings of the install line, the NEFF cache command and run.py (run.py at least 80 characters wide), each
    with a Copy button that is what is drawn at its centre; a click on a heading copies nothing."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=sample_app.url)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{sample_app.url}/?model=Qwen/Qwen3-8B")
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-8B", timeout=TIMEOUT)
    expect(page.locator("#run-py pre.code")).to_be_visible()
    expect(page.locator("#first-paint")).to_have_count(0)  # the live page is shown
    assert page.evaluate("window.scrollY") == 0
    for shown in ("#details-summary h2 .badge", "#lead", "#details-summary .back-to-table a"):
        assert in_first_screen(page, shown), shown
    for command in ("#install pre", "#cache-sync pre", "#run-py pre.code"):
        box = page.locator(command).bounding_box()
        assert box is not None and 0 <= box["y"] < 768 - 20, (command, box)  # its first line shows
    assert page.evaluate(RUN_PY_COLUMNS) >= 80
    # the table and the filters are one step back
    expect(page.locator("#results")).to_be_hidden()
    expect(page.locator("#search")).to_be_hidden()
    assert headings_in_order(page.evaluate(HEADINGS)), page.evaluate(HEADINGS)
    on_top = page.evaluate(COPY_BUTTONS_ON_TOP)
    assert len(on_top) >= 5 and all(hit for _, hit, _ in on_top), on_top  # install, run, cache, run.py, the link

    page.evaluate("() => navigator.clipboard.writeText('untouched')")
    page.locator("#install h3").click()
    page.locator("#run-command h3").click()
    assert page.evaluate("() => navigator.clipboard.readText()") == "untouched"
    page.locator("#install button[data-copy]").click()
    install = page.locator("#install pre").inner_text()
    assert install.startswith("pip install ")
    page.wait_for_function("(text) => navigator.clipboard.readText().then((t) => t === text)", arg=install)


def test_a_row_opens_its_models_page_and_back_returns_to_the_table(opened):
    """A row clicked with the mouse opens the model's page at its top, the focus on its heading (not left on the
    body); the back link, and the browser's Back, return to the table."""
    page = opened("?q=qwen3")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.mouse.wheel(0, 400)
    page.locator("#results tr[data-model='Qwen/Qwen3-8B'] td").first.click(position={"x": 4, "y": 4})
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-8B", timeout=TIMEOUT)
    expect(page.locator("#results")).to_be_hidden()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'model-heading'")
    assert page.evaluate("window.scrollY") == 0
    assert in_first_screen(page, "#run-py .code-head")
    page.go_back()  # the browser's Back
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
    assert "model=" not in page.url and "q=qwen3" in page.url
    page.locator("#results tr[data-model='Qwen/Qwen3-0.6B'] td").first.click(position={"x": 4, "y": 4})
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-0.6B", timeout=TIMEOUT)
    page.locator("#details-summary .back-to-table a").click()  # the page's own way back
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
    assert "model=" not in page.url and "q=qwen3" in page.url


@pytest.mark.parametrize("model", ["Qwen/Qwen3-0.6B", "ByteDance-Seed/UI-TARS-1.5-7B"])
def test_on_a_phone_a_model_link_opens_on_its_answer_with_a_way_back(page: Page, sample_app, model):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{sample_app.url}/?model={model}")
    expect(page.locator("#details-summary h2")).to_contain_text(model, timeout=TIMEOUT)
    expect(page.locator("#first-paint")).to_have_count(0)  # the live page is shown
    assert in_first_screen(page, "#details-summary h2 .badge"), "the result is not on the first screen"
    assert in_first_screen(page, "#details-summary .back-to-table a")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert headings_in_order(page.evaluate(HEADINGS)), page.evaluate(HEADINGS)
    if model.startswith("ByteDance"):  # untested: what to expect is on the first screen too
        assert in_first_screen(page, "#expectation")
        expect(page.locator("#expectation")).to_contain_text("Likely fails")
        return
    on_top = page.evaluate(COPY_BUTTONS_ON_TOP)
    assert len(on_top) >= 5 and all(hit for _, hit, _ in on_top), on_top
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#details-summary .back-to-table a").click()
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
    assert "model=" not in page.url


def test_a_size_link_shows_only_models_of_that_size_and_the_picker_says_so(opened, client):
    page = opened("?size=1-10")
    expect(page.locator("#size input")).to_have_value("1–10 B", timeout=TIMEOUT)
    expected = [r for r in client.predict(api_name="/search") if r["num_parameters"]]
    expected = {r["model_id"] for r in expected if 1e9 <= r["num_parameters"] < 1e10}
    assert expected  # the sample has 1-10 B models
    page.wait_for_function(
        f"() => document.querySelectorAll('#results [role=gridcell]').length <= {min(len(expected), 100) * len(COLUMNS)}",
        timeout=TIMEOUT,
    )
    cells = page.locator("#results [role=gridcell]").all_inner_texts()
    sizes = [float(t.strip()) for t in cells[COLUMNS.index("Size (B)") :: len(COLUMNS)]]
    assert sizes and all(1 <= s < 10 for s in sizes), sizes
    assert set(model_cells(page)) <= expected
    assert "size=1-10" in page.url


def test_the_footers_api_link_opens_the_panel_that_lists_the_endpoints(opened, page: Page, sample_app):
    page = opened()
    page.get_by_text("Use via API or MCP").click()
    expect(page.get_by_text("check_config").first).to_be_attached(timeout=TIMEOUT)  # the named endpoints, listed
    expect(page.get_by_text("No API Routes found")).to_have_count(0)
    page.goto(sample_app.url + "/charts?view=api")  # Gradio's own address for a page's API panel
    expect(page.get_by_text("check_config").first).to_be_attached(timeout=TIMEOUT)
    page.goto(sample_app.url + "/?view=trending")  # the app's own view= is left alone
    expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
    assert "view=trending" in page.url and "/endpoints" not in page.url


def test_a_search_finds_every_librarys_models_and_another_library_says_where_a_model_ran(opened):
    """One page load: "flux" finds the FLUX row with its library from `/` (All libraries), a pasted Hub address
    finds its model, and with that model open the diffusers stack says where it ran instead of offering a test."""
    page = opened()
    expect(page.locator("#stack-lib input").first).to_have_value("All libraries", timeout=TIMEOUT)
    search = page.locator("#search textarea, #search input").first
    search.fill("flux")
    row = page.locator("#results tr", has_text="black-forest-labs/FLUX.1-schnell")
    expect(row).to_contain_text("Diffusers 0.36.0", timeout=TIMEOUT)
    expect(page.locator("#summary")).to_contain_text("Diffusers 0.36.0")
    search.fill("https://huggingface.co/Qwen/Qwen3-8B/tree/main")
    expect(page.locator("#results tr", has_text="Qwen/Qwen3-8B").first).to_be_visible(timeout=TIMEOUT)
    page.locator("#results [role=gridcell]", has_text="Qwen/Qwen3-8B").first.click(position={"x": 4, "y": 4})
    expect(page.locator("#details-summary h2")).to_contain_text("Qwen/Qwen3-8B", timeout=TIMEOUT)
    # a model's page hides the pickers (the table is one step back): another library comes from a link
    opened("?model=Qwen/Qwen3-8B&library=diffusers")
    ran = page.locator("#ran-with")
    expect(ran).to_contain_text("was run with Transformers", timeout=TIMEOUT)
    expect(page.locator("#ran-with-link")).to_have_attribute("href", re.compile(r"model=Qwen%2FQwen3-8B"))
    details = page.locator("#details").inner_text()
    assert "Want it tested" not in details and "0 of 0" not in details
