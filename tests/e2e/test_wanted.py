"""Wanted on the launched app: an untested model asked for through the named /lookup (gradio_client) and
opened on the Models page (Chromium) shows in GET /api/v1/wanted and on the Wanted page. The app runs offline, so
an id the data lacks cannot be checked on the Hub: it is listed as not checked, not counted."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

TIMEOUT = 20_000


def wanted(url: str, kept: str = "not_checked") -> dict[str, int]:
    answer = httpx.get(f"{url}/api/v1/wanted", timeout=30)
    assert answer.status_code == 200
    return {m["model_id"]: m["lookups"] for m in answer.json()[kept]}


def test_named_lookups_and_opened_links_of_untested_models_are_counted_once_per_address(
    browser: Browser, sample_app, client
):
    for _ in range(3):
        assert client.predict(model_id="someone/named-lookup-e2e", api_name="/lookup")["result"] == "not tested"
    assert wanted(sample_app.url).get("someone/named-lookup-e2e") == 1
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(sample_app.url + "/?model=someone/opened-link-e2e")
        expect(page.locator("#details-summary")).to_contain_text("someone/opened-link-e2e", timeout=TIMEOUT)
        assert wanted(sample_app.url).get("someone/opened-link-e2e") == 1
        page.goto(sample_app.url + "/wanted")
        table = page.locator("#wanted-unchecked-table")
        expect(table).to_contain_text("someone/opened-link-e2e", timeout=TIMEOUT)
        assert "someone/opened-link-e2e" not in wanted(sample_app.url, "models")
        expect(page.locator("#wanted-summary")).to_contain_text("kept in memory only")
    finally:
        context.close()
