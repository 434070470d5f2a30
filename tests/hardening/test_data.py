"""The launched app on broken and big data: it starts, serves every good row through `/search` and
`/lookup`, and the page header says what was skipped and why.

The loader's own cases are in test_dataset.py; here the same kinds of damage meet the whole app.
"""

from __future__ import annotations

import math
import urllib.request

import pytest
from gradio_client import Client
from playwright.sync_api import Page, expect

from data.make_sample import write_synthetic
from tests.hardening.hostile import NEW_CC, broken_folder, served_ids
from tests.helpers import ROOT, Server

TIMEOUT = 20_000
RANKINGS = ("--rankings", str(ROOT / "data" / "rankings_snapshot.json"))
BIG_ROWS = 200_000


# Session-scoped: pytest groups the browser tests of every module together, so a module-scoped app
# shared by API and browser tests would be started twice.
@pytest.fixture(scope="session")
def broken(tmp_path_factory):
    folder = tmp_path_factory.mktemp("broken") / "data"
    expected = broken_folder(folder)
    server = Server("--dataset", str(folder), *RANKINGS).wait(60)
    yield server, Client(server.url, verbose=False), expected
    server.stop()


def every_row(client: Client) -> dict[tuple[str, str, str], dict]:
    """Every row the app serves, read stack by stack through /search: {(model, cc, version): row}."""
    rows = {}
    for stack in client.predict(api_name="/stacks"):
        for r in client.predict(
            neuronx_cc=stack["neuronx_cc"], library_version=stack["library_version"], api_name="/search"
        ):
            assert (r["neuronx_cc"], r["library_version"]) == (stack["neuronx_cc"], stack["library_version"])
            rows[(r["model_id"], r["neuronx_cc"], r["library_version"])] = r
    return rows


def test_every_good_row_is_served_beside_broken_files(broken):
    _, client, _ = broken
    rows = every_row(client)
    # the all-null row shares compiler and version ("unknown") with odd/no-version on another library,
    # and /search picks a stack by compiler and version only: that row is served by /lookup below
    assert served_ids() - {m for m, _, _ in rows} == {"nulls/nothing-known"}
    stacks = client.predict(api_name="/stacks")
    assert sum(s["models"] for s in stacks) == len(rows) + 1
    assert (stacks[0]["neuronx_cc"], stacks[0]["library_version"]) == (NEW_CC, "5.0.0")
    assert [s["neuronx_cc"] for s in stacks][-3:] == ["not-a-version", "unknown", "unknown"]  # unparsable ones last
    for model_id in served_ids():
        answer = client.predict(model_id=model_id, api_name="/lookup")
        assert answer["model_id"] == model_id and answer["history"], model_id


def test_wrong_types_missing_values_and_duplicates_read_as_documented(broken):
    _, client, _ = broken
    rows = {m: r for (m, cc, _), r in every_row(client).items() if cc == NEW_CC}
    assert (rows["types/wall-as-text"]["wall_s"], rows["types/wall-as-text"]["tp"]) == (321, 2)
    assert rows["types/wall-as-text"]["hbm_peak_gb"] == 7.5
    assert rows["types/wall-as-float"]["wall_s"] == 654 and rows["types/wall-as-float"]["tp"] == 4
    assert rows["types/wall-not-a-number"]["wall_s"] is None
    assert rows["types/wall-nan"]["wall_s"] is None and rows["types/wall-nan"]["tp"] is None
    assert rows["dupes/model"]["result"] == "PASS"
    assert (rows["odd/unknown-result"]["result"], rows["odd/unknown-result"]["kind"]) == ("MAYBE?", "other")
    assert rows["odd/lowercase-pass"]["kind"] == "pass"
    assert rows["drift/extra-and-missing"]["exclusion"] is None
    infinite = rows["odd/infinite-memory"]
    assert infinite["hbm_peak_gb"] is None or math.isinf(infinite["hbm_peak_gb"])  # never a JSON error


def test_a_megabyte_error_and_an_impossible_date_are_served(broken):
    _, client, _ = broken
    answer = client.predict(model_id="odd/megabyte-error", api_name="/lookup")
    assert len(answer["error"]) > 1_000_000 and answer["error"].endswith("RuntimeError: the end")
    assert client.predict(model_id="odd/year-35-million", api_name="/lookup")["tested_at"] is None
    history = client.predict(model_id="odd/bad-version", api_name="/lookup")["history"]
    assert [(h["neuronx_cc"], h["library_version"]) for h in history] == [("not-a-version", "latest!!")]


def test_the_header_says_what_was_skipped_and_why(broken, page: Page):
    server, _, expected = broken
    page.goto(server.url)
    header = page.locator("#header")
    expect(header).to_contain_text("problem(s) while reading the data", timeout=TIMEOUT)
    expect(header).to_contain_text("the good rows are all shown")
    header.locator("details.skipped summary").click()
    items = header.locator("details.skipped li").all_inner_texts()
    for name, reason in expected.items():
        assert any(item.startswith(f"{name}:") and reason in item for item in items), (name, items)
    assert page.evaluate("() => document.querySelectorAll('#header img').length") == 0  # a file name, as text
    assert str(ROOT) not in header.inner_text() and "/tmp" not in header.inner_text()


def test_a_megabyte_error_opens_in_the_details(broken, page: Page):
    server, _, _ = broken
    page.goto(server.url + "/?model=odd/megabyte-error")
    summary = page.locator("#details-body details.error summary")  # below the commands
    expect(summary).to_contain_text("RuntimeError: the end", timeout=TIMEOUT)  # TIMEOUT: the hang guard
    expect(summary).to_contain_text("150002 lines")


# ---- 200,000 rows ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    folder = tmp_path_factory.mktemp("big")
    write_synthetic(folder, BIG_ROWS)
    server = Server("--dataset", str(folder), *RANKINGS).wait(120)  # 120 s: a hang guard; the figure: cold_start.py
    yield server
    server.stop()


def test_200k_rows_start_answer_and_send_only_what_is_shown(big, page: Page):
    server = big
    client = Client(server.url, verbose=False)
    stacks = client.predict(api_name="/stacks")
    assert len(stacks) == 20 and sum(s["models"] for s in stacks) > 0.95 * BIG_ROWS
    rows = client.predict(api_name="/search")
    total = stacks[0]["models"]
    assert len(rows) == total
    some = rows[len(rows) // 2]["model_id"]
    answer = client.predict(model_id=some, api_name="/lookup")
    assert answer["model_id"] == some and len(answer["history"]) >= 15  # each stack leaves 5% out
    with urllib.request.urlopen(server.url + "/", timeout=10) as response:
        assert len(response.read()) < 300_000  # the rows arrive on load, never inlined into the page

    page.goto(server.url)
    expect(page.locator("#summary")).to_contain_text(f"showing the first 100 of {total:,}", timeout=TIMEOUT)
    assert page.locator("#results [role=row]").count() <= 101  # a header and at most one page of rows
    box = page.locator("#search textarea, #search input").first
    box.fill("model-1234")
    box.press("Enter")
    expect(page.locator("#summary")).not_to_contain_text(f"of {total:,}", timeout=TIMEOUT)
    expect(page.locator("#results [role=gridcell]", has_text="model-1234").first).to_be_visible()
