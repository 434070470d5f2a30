"""/failures, the FAIL fields of /lookup and /compare, and the Failures page, against the launched app."""

from __future__ import annotations

import re

import httpx
import pytest
from gradio_client.exceptions import AppError

from tests.helpers import call


def test_failures_groups_every_fail_of_the_newest_stack_by_cause(client):
    stacks = client.predict(api_name="/stacks")
    answer = client.predict(neuronx_cc="", library_version="", api_name="/failures")
    assert answer["stack"]["neuronx_cc"] == stacks[0]["neuronx_cc"]
    causes = answer["causes"]
    assert causes and answer["failed"] == sum(c["count"] for c in causes)
    assert [c["count"] for c in causes] == sorted((c["count"] for c in causes), reverse=True)
    models = [m for c in causes for m in c["models"]]
    assert len(models) == len(set(models)) == answer["failed"]
    for c in causes:
        assert re.fullmatch(r"v1-[0-9a-f]{16}", c["signature"])
        assert isinstance(c["count"], int) and set(c["first_seen"]) == {"neuronx_cc", "library", "library_version"}
    coded = [c for c in causes if (c["code"] or "").startswith(("NCC_", "NRT_"))]
    assert coded and all(c["docs"].startswith("https://awsdocs-neuron.readthedocs-hosted.com/") for c in coded)


def test_failures_of_an_unknown_stack_is_a_clear_error(client, sample_app):
    with pytest.raises(AppError, match="No tested stack matches.*Known stacks"):
        client.predict(neuronx_cc="9.9.9", library_version="", api_name="/failures")
    with httpx.Client(base_url=sample_app.url, timeout=30) as http:
        older = call(http, "failures", neuronx_cc="2.21.18209.0", library_version="")
    assert older["stack"]["neuronx_cc"].startswith("2.21.18209.0")


def test_lookup_of_a_failed_model_carries_its_cause_and_a_report_and_a_passing_one_neither(client):
    causes = client.predict(api_name="/failures")["causes"]
    shared = next(c for c in causes if c["count"] >= 2)
    answer = client.predict(model_id=shared["models"][0], api_name="/lookup")
    assert answer["cause"]["signature"] == shared["signature"]
    assert answer["cause"]["shared_with"] == shared["models"][1:]
    assert answer["report_url"].startswith("https://github.com/aws-neuron/aws-neuron-sdk/issues/new?title=")
    assert len(answer["report_url"].encode()) <= 8192
    passing = client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")
    assert passing["result"] == "PASS" and "cause" not in passing and "report_url" not in passing


def test_compare_regressions_carry_their_cause(client):
    regressions = client.predict(api_name="/compare")["regressions"]
    assert regressions and all(r["cause"]["signature"].startswith("v1-") for r in regressions)


def test_the_failures_page_is_a_page_of_its_own(sample_app):
    page = httpx.get(f"{sample_app.url}/failures", timeout=30)
    assert page.status_code == 200 and "failures-result" in page.text
    first = httpx.get(sample_app.url + "/", timeout=30).text
    assert "failures-result" not in first


def test_in_a_browser_a_cause_opens_its_models_and_a_failed_model_offers_its_report(page, sample_app):
    from playwright.sync_api import expect

    page.goto(f"{sample_app.url}/failures")
    first = page.locator("details.cause").first
    expect(first).to_be_visible(timeout=20_000)
    first.locator("summary").click()
    model = first.locator("a.model-link").first
    expect(model).to_be_visible()
    model_id = model.text_content()
    model.click()  # opens the model on the Models page, on the stack it failed on
    cause = page.locator("#cause")
    expect(cause).to_contain_text("fail", timeout=20_000)  # how many others fail the same way
    expect(page.locator("#details-body .error")).to_be_attached()  # the error's line, said once, above
    expect(page.locator("#details-summary h2")).to_contain_text(model_id)
    report = cause.locator("a.report-link")
    expect(report).to_have_attribute("href", re.compile(r"^https://github\.com/aws-neuron/aws-neuron-sdk/issues/new\?"))
    expect(report).to_have_attribute("target", "_blank")


def test_in_a_browser_the_failures_pages_address_follows_its_stack_picker(page, sample_app):
    from playwright.sync_api import expect

    page.goto(f"{sample_app.url}/failures")
    expect(page).to_have_url(re.compile(r"/failures\?neuronx_cc=2\.28\."), timeout=20_000)
    page.locator("#failures-stack input").click()
    page.get_by_role("option", name=re.compile(r"2\.26\.9117\.0")).first.click()
    expect(page).to_have_url(re.compile(r"/failures\?neuronx_cc=2\.26\.9117\.0.*&library_version="), timeout=20_000)
    expect(page.locator("#failures-result a.view-link")).to_have_attribute("href", re.compile(r"2\.26\.9117\.0"))
    page.reload()  # the address opens the same stack
    expect(page.locator("#failures-stack input")).to_have_value(re.compile(r"2\.26\.9117\.0"), timeout=20_000)
