"""The first response in real Chromium: rows readable with JavaScript off, the live page taking their place
(one table, unique ids, nothing jumping), and the same under a Space's environment."""

from __future__ import annotations

import io
import re

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Browser, expect

TIMEOUT = 20_000
MODEL = "Qwen/Qwen3-8B"
# sums every layout shift not caused by input, from the first paint on (Core Web Vitals' CLS, one window)
CLS = """(() => { window.__cls = 0; new PerformanceObserver((list) => { for (const e of list.getEntries())
  if (!e.hadRecentInput) window.__cls += e.value; }).observe({type: 'layout-shift', buffered: true}); })();"""
# at the first frame after the painted block leaves: is what the page shows first (the live table's first filled
# cell; on a model's page its heading and run.py) shown, and at what opacity (every ancestor's opacity multiplied)?
# Gradio's transitions and its pending look would leave it hidden or faint for a few frames (a blank flash where
# the rows were).
FIRST_SHOWN = {
    "": '[[...document.querySelectorAll("#results [role=gridcell]")].find((c) => c.textContent.trim())]',
    "model": '[document.querySelector("#details-summary h2"), document.querySelector("#run-py pre.code")]',
}
AT_SWAP = """(() => {
  window.__atSwap = null;
  new MutationObserver((records, observer) => {
    const gone = records.some((r) => [...r.removedNodes].some((n) => n.id === "first-paint"));
    if (!gone) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const shown = FIRST_SHOWN;
      const opacities = shown.map((el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; });
      window.__atSwap = {cell: shown.every(Boolean), opacity: Math.min(...opacities),
        shown: shown.every((el) => el && el.checkVisibility({opacityProperty: true, visibilityProperty: true}))};
    });
  }).observe(document, {childList: true, subtree: true});
})();"""


def test_without_javascript_the_rows_are_readable(browser: Browser, sample_app):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(sample_app.url + "/")
        table = page.locator("#first-paint table")
        expect(table).to_be_visible()
        assert table.locator("tbody tr").count() >= 5
        expect(page.get_by_role("link", name=MODEL, exact=True)).to_be_visible()
        page.get_by_role("link", name=MODEL, exact=True).click()  # each row opens its answer, still without JS
        expect(page.locator("#first-paint h2")).to_contain_text(MODEL)
        expect(page.locator("#first-paint")).to_contain_text("PASS")
        assert page.title().startswith(f"{MODEL}: PASS")
    finally:
        context.close()


def test_without_javascript_a_person_searches_opens_a_model_and_finds_all_three_to_copy(browser: Browser, sample_app):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(sample_app.url + "/")
        form = page.get_by_role("search")
        form.locator("input[name=q]").fill("qwen3")
        form.get_by_role("button", name="Search").click()
        page.wait_for_url("**/?q=qwen3*")
        expect(page.locator("#first-paint input[name=q]")).to_have_value("qwen3")
        page.get_by_role("link", name="Qwen/Qwen3-0.6B", exact=True).click()
        expect(page.locator("#first-paint h2")).to_contain_text("Qwen/Qwen3-0.6B")
        install = page.locator("#fp-install").inner_text()
        assert install.startswith("pip install ") and "torch-neuronx==" in install
        cache = page.locator("#fp-cache-sync").inner_text()
        assert cache.startswith("hf buckets sync hf://buckets/aws-neuron/torch-neuronx-neff-cache/neuronxcc-")
        notes = page.locator("#first-paint").inner_text()
        for note in ("huggingface_hub>=1.5", "--dry-run", "TORCH_NEURONX_NEFF_CACHE_DIR"):
            assert note in notes, note
        run_py = page.locator("#fp-run-py").inner_text()
        assert 'MODEL_ID = "Qwen/Qwen3-0.6B"' in run_py and "import torch" in run_py
        # the form keeps the stack the link asked for: another search stays on it
        assert page.locator("#first-paint select[name=view]").input_value().lower() == "selected"
    finally:
        context.close()


# What a model's first screen holds, live and painted (the painted ids are the live ones with `fp-`): the heading, the
# result line, and each command's heading and text.
FIRST_SCREEN = {
    "heading": ("#model-heading", "#fp-model-heading"),
    "result line": (".details-head .lead", "#first-paint .details-head .lead"),
    **{
        f"{name} heading": (f"#{name} h3", f"#first-paint h3:has(+ #fp-{name})")
        for name in ("install", "cache-sync", "run-command")
    },
    **{f"{name}": (f"#{name} pre", f"#fp-{name}") for name in ("install", "cache-sync", "run-command")},
    "run.py": ("#run-py .code-label", "#first-paint h3:has(+ #fp-run-py)"),
}


def _first_screen(browser: Browser, url: str, size: tuple[int, int], scripts: bool) -> dict[str, dict[str, float]]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, java_script_enabled=scripts)
    try:
        page = context.new_page()
        page.goto(url)
        if scripts:  # the live page, once the painted block has left
            expect(page.locator("#install pre")).to_be_visible(timeout=TIMEOUT)
            expect(page.locator("#first-paint")).to_have_count(0)
        boxes = {}
        for name, (live, painted) in FIRST_SCREEN.items():
            box = page.locator(live if scripts else painted).first.bounding_box()
            assert box is not None, (name, scripts)
            boxes[name] = box
        return boxes
    finally:
        context.close()


@pytest.mark.parametrize(
    ("model", "size"),
    [(MODEL, (1366, 768)), (MODEL, (390, 844)), ("black-forest-labs/FLUX.1-schnell", (1366, 768))],
)
def test_a_model_links_painted_page_is_its_live_first_screen(browser: Browser, sample_app, model, size):
    """Issue 62: before any script runs, a model's link shows what its live page shows first, where it shows it:
    the heading, the result line and the three commands each within 10 px of the live page's place (they were
    ~120 px higher, without the nav bar and the notice); at 1366x768 all of them and run.py's heading on the first
    screen."""
    url = f"{sample_app.url}/?model={model}"
    live = _first_screen(browser, url, size, scripts=True)
    painted = _first_screen(browser, url, size, scripts=False)
    for name in FIRST_SCREEN:
        assert abs(live[name]["y"] - painted[name]["y"]) <= 10, (name, live[name], painted[name])
        assert abs(live[name]["x"] - painted[name]["x"]) <= 10, (name, live[name], painted[name])
    if size[0] >= 1366:
        for boxes in (live, painted):
            assert all(b["y"] + b["height"] <= size[1] for n, b in boxes.items() if n != "run.py"), boxes
            assert boxes["run.py"]["y"] + boxes["run.py"]["height"] <= size[1], boxes["run.py"]


@pytest.mark.parametrize("query", ["", f"?model={MODEL}"])
def test_the_live_page_takes_the_painted_rows_place(browser: Browser, sample_app, query):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.add_init_script(CLS)
        page.goto(sample_app.url + "/" + query)
        # what the page leads with: the table, or a model's page (the table one step back)
        first = "#run-py pre.code" if query else "#results [role=gridcell]"
        expect(page.locator(first).first).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#first-paint")).to_have_count(0)
        for element_id in ("results", "summary", "header", "details-summary", "link"):
            assert page.locator(f"[id='{element_id}']").count() == 1, element_id
        assert page.evaluate("window.__cls") <= 0.1
        if query:
            expect(page.locator("#details-summary")).to_contain_text(MODEL, timeout=TIMEOUT)
            assert page.title().startswith(f"{MODEL}: PASS")
    finally:
        context.close()


def test_a_tested_models_link_is_live_without_asking_the_queue_and_behaves_as_a_loaded_page(
    browser: Browser, sample_app
):
    """Issue 48: the link's first HTML carries the live page's answer, so the tab asks the server nothing to fill
    it; the address bar and the link box still show the full link, and the next model opened is a new history
    entry (Back returns to the first), as after a load event."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/gradio_api/" in r.url else None)
    try:
        page.goto(sample_app.url + f"/?model={MODEL}")
        expect(page.locator("#details-summary")).to_contain_text(MODEL, timeout=TIMEOUT)
        expect(page.locator("#first-paint")).to_have_count(0)
        expect(page.locator("#install pre")).to_have_text(re.compile(r"^pip install "))
        # the link names no stack: the state applied names none either (every library; the model on its own)
        expect(page.locator("#link input, #link textarea").first).to_have_value(
            re.compile(r"^http://.*/\?model=Qwen%2FQwen3-8B$")
        )
        assert page.evaluate("location.search") == "?model=Qwen%2FQwen3-8B"
        page.wait_for_load_state("networkidle")  # nothing more in flight for 500 ms
        assert asked == []  # no load event, no queue, no heartbeat
        # the model's page: the table one step back; the next model opened from it is a new history entry
        page.locator("#details-summary .back-to-table a").click()
        expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
        asked.clear()
        other = page.locator("#results [role=gridcell] a").filter(has_not_text=MODEL).first
        name = other.text_content()
        other.click()
        expect(page.locator("#details-summary")).to_contain_text(name, timeout=TIMEOUT)
        expect(page).to_have_title(f"{name} · torch-neuronx model support", timeout=TIMEOUT)
        assert any("/gradio_api/queue/join" in url for url in asked)  # a person's click runs its event
        page.go_back()
        expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
        assert "model=" not in page.url
    finally:
        page.close()


@pytest.mark.parametrize("query", ["", f"?model={MODEL}"])
def test_the_live_rows_show_in_the_frame_the_painted_rows_leave(browser: Browser, sample_app, query):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.add_init_script(AT_SWAP.replace("FIRST_SHOWN", FIRST_SHOWN["model" if query else ""]))
        page.goto(sample_app.url + "/" + query)
        page.wait_for_function("window.__atSwap !== null", timeout=TIMEOUT)
        assert page.evaluate("window.__atSwap") == {"cell": True, "shown": True, "opacity": 1}
    finally:
        page.close()


def test_under_a_spaces_environment_the_first_html_and_card_are_served(browser: Browser, ssr_space_app):
    html = httpx.get(ssr_space_app.url + f"/?model={MODEL}", timeout=30).text
    assert f"<title>{MODEL}: PASS on Trainium" in html and html.count('property="og:title"') == 1
    og_url = re.search(r'<meta property="og:url" content="([^"]*)"', html)
    assert og_url and og_url.group(1) == "https://aws-neuron-torch-neuronx-support.hf.space/?model=Qwen%2FQwen3-8B", (
        og_url and og_url.group(1)
    )
    card = httpx.get(ssr_space_app.url + f"/card.png?model={MODEL}", timeout=30)
    assert card.status_code == 200 and Image.open(io.BytesIO(card.content)).size == (1200, 630)
    page = browser.new_page()
    try:
        page.goto(ssr_space_app.url + "/")
        expect(page.locator("#results [role=gridcell]").first).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("#first-paint")).to_have_count(0)
    finally:
        page.close()
