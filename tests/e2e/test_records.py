"""The app started with `--models FILE`, through its API and in Chromium: tasks from records,
/architectures, the instance, and the evidence for an untested fine-tune."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError
from playwright.sync_api import Page, expect

from tests.helpers import ROOT, SAMPLE_ARGS, Server

TIMEOUT = 20_000
FINE_TUNE = "unsloth/Llama-3.2-1B-Instruct"  # ranked, untested; its record names a tested base model


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    """The bundled records plus a two-hop fine-tune and a model whose record lacks every field but its id."""
    data = json.loads((ROOT / "data" / "models_snapshot.json").read_text())
    data["models"] += [
        {"id": "fan/Llama-3.2-1B-Instruct-ft-ft", "pipeline_tag": "text-generation",
         "config": {"architectures": ["LlamaForCausalLM"]}, "cardData": {"base_model": [FINE_TUNE, "fan/unknown"]},
         "safetensors": {"total": 1_240_000_000}},
        {"id": "bare/record"},
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("records") / "models.json"
    path.write_text(json.dumps(data))
    return path


@pytest.fixture(scope="module")
def records_app(records_file):
    server = Server(*SAMPLE_ARGS, "--models", str(records_file)).wait()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def records_client(records_app):
    return Client(records_app.url, verbose=False)


def test_the_task_filter_lists_only_models_of_that_task(records_client):
    vision = records_client.predict(task="image-text-to-text", api_name="/search")
    assert vision and {r["task"] for r in vision} == {"image-text-to-text"}
    ids = {r["model_id"] for r in vision}
    assert not {"HuggingFaceH4/zephyr-7b-beta", "EleutherAI/gpt-neo-125m", "HuggingFaceTB/SmolLM2-135M"} & ids
    assert "Qwen/Qwen2.5-VL-7B-Instruct" in ids
    every = records_client.predict(api_name="/search")
    assert len(every) > len(vision) and all(r["architecture"] for r in every)


def test_a_tested_row_carries_task_architecture_and_instance(records_client):
    small = records_client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")
    assert (small["task"], small["architecture"], small["instance"]) == (
        "text-generation", "Qwen3ForCausalLM", "trn2.3xlarge",
    )  # fmt: skip
    assert small["cache_sync_command"] and "evidence" not in small


def test_lookup_of_an_untested_fine_tune_gives_the_evidence(records_client):
    answer = records_client.predict(model_id=FINE_TUNE, api_name="/lookup")
    assert answer["result"] == "not tested"
    assert answer["evidence"]["base_model"] == {
        "model_id": "meta-llama/Llama-3.2-1B-Instruct", "result": "PASS", "kind": "pass", "tp": 1, "hops": 1,
    }  # fmt: skip
    arch = answer["evidence"]["architecture"]
    assert arch["name"] == "LlamaForCausalLM" and 0 < arch["passed"] <= arch["tested"] and arch["closest"]
    assert answer["suggested_from"] == "meta-llama/Llama-3.2-1B-Instruct"
    assert f'MODEL_ID = "{FINE_TUNE}"' in answer["suggested_run_py"] and "UNTESTED" in answer["suggested_run_py"]
    assert "cache_sync_command" not in answer
    two_hops = records_client.predict(model_id="fan/Llama-3.2-1B-Instruct-ft-ft", api_name="/lookup")
    assert two_hops["evidence"]["base_model"]["hops"] == 2


def test_lookup_of_a_bare_record_is_not_tested_with_nothing_known(records_client):
    answer = records_client.predict(model_id="bare/record", api_name="/lookup")
    assert answer["result"] == "not tested" and answer["evidence"]["base_model"] is None
    assert answer["task"] is None and answer["architecture"] is None and "record_unknown" not in answer


@pytest.mark.parametrize("model_id", ["not a hub id!", "", "a/b/c", "<script>alert(1)</script>"])
def test_lookup_of_text_that_cannot_be_a_hub_id_is_a_clear_error(records_client, model_id):
    with pytest.raises(AppError, match="cannot be a Hub model id; give one such as Qwen/Qwen3-0.6B"):
        records_client.predict(model_id=model_id, api_name="/lookup")


def test_architectures_counts_per_architecture(records_client):
    rows = records_client.predict(api_name="/architectures")
    by_name = {r["architecture"]: r for r in rows}
    llama = by_name["LlamaForCausalLM"]
    assert llama["tested"] == len([m for m in llama["models"] if m["result"] != "EXCLUDED"])
    assert llama["passed"] == sum(m["result"] == "PASS" for m in llama["models"])
    assert rows == sorted(rows, key=lambda r: (-r["tested"], -r["passed"], r["architecture"]))
    vision = records_client.predict(task="image-text-to-text", api_name="/architectures")
    assert "LlamaForCausalLM" not in {r["architecture"] for r in vision}
    older = records_client.predict(neuronx_cc="2.21.18209.0", api_name="/architectures")
    assert older and older != rows


def test_architectures_on_an_unknown_stack_is_a_clear_error(records_client):
    with pytest.raises(Exception, match="(?i)known stacks"):
        records_client.predict(neuronx_cc="9.9.9", api_name="/architectures")


def test_a_deep_link_to_an_untested_fine_tune_shows_the_evidence(records_app, page: Page):
    page.goto(f"{records_app.url}/?model={quote(FINE_TUNE, safe='')}")
    details = page.locator("#details-summary")
    expect(details).to_contain_text("not tested", timeout=TIMEOUT)
    evidence = page.locator("#evidence")
    expect(evidence).to_contain_text("What the data says about", timeout=TIMEOUT)
    expect(evidence).to_contain_text("meta-llama/Llama-3.2-1B-Instruct")
    expect(evidence).to_contain_text("LlamaForCausalLM")
    expect(evidence).to_contain_text("UNTESTED")
    text = evidence.inner_text()
    assert text.index("What the data says about") < text.index("Base model") < text.index("Architecture")
    expect(page.locator("#run-py")).to_contain_text(f'MODEL_ID = "{FINE_TUNE}"')
    expect(page.locator("#cache-sync")).to_be_hidden()  # no NEFF cache for a script nobody compiled


def test_searching_an_untested_id_offers_to_look_it_up(records_app, page: Page):
    page.goto(f"{records_app.url}/?q={quote('someone/My-Llama-Fine-Tune', safe='')}")
    offer = page.locator("#lookup-offer")
    expect(offer).to_be_visible(timeout=TIMEOUT)
    offer.click()
    expect(page.locator("#evidence")).to_contain_text("What the data says about", timeout=TIMEOUT)
    expect(page.locator("#evidence")).to_contain_text("no record in models.json")


def test_the_architectures_tab_shows_the_headline_and_its_definition(records_app, page: Page):
    page.goto(records_app.url)
    page.get_by_role("link", name="Architectures", exact=True).click()
    headline = page.locator("#arch-headline")
    expect(headline).to_contain_text("of the top trending text-generation architectures run", timeout=TIMEOUT)
    expect(headline).to_contain_text("top 100 trending text-generation models")
    expect(page.locator("#arch-table")).to_contain_text("LlamaForCausalLM")
