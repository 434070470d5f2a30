"""Live model-record look-ups against a broken Hub: the launched app (default --models) with a fake Hub on
127.0.0.1 that hangs, answers 500 or sends garbage. /lookup answers within its wait; the page never waits."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from gradio_client import Client
from playwright.sync_api import Page, expect

from tests.helpers import SAMPLE_ARGS, FakeHub, Server, fake_hub

UNKNOWN = "someone/Llama-Fine-Tune-Nobody-Has"


@pytest.fixture(params=["slow", "500", "garbage"])
def broken_app(request, tmp_path):
    with fake_hub(request.param) as endpoint:
        env = {"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": endpoint, "HF_HOME": str(tmp_path / "hf"), "SUPPORT_MODELS": ""}
        server = Server(*SAMPLE_ARGS, env=env).wait()
        yield request.param, server
        server.stop()


def test_lookup_and_the_page_never_wait_on_a_broken_hub(broken_app, page: Page):
    mode, server = broken_app
    client = Client(server.url, verbose=False)
    answer = client.predict(model_id=UNKNOWN, api_name="/lookup")
    assert answer["result"] == "not tested" and answer["record_unknown"]
    if mode == "slow":  # the fake Hub sends nothing for 40 s: the lookup answered within its own wait meanwhile
        assert answer["record_unknown"] == "being looked up on the Hub"
    # a tested model with a bundled record answers at once, whatever the Hub does: the Hub is not asked for it
    before = len(FakeHub.paths)
    assert client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")["architecture"] == "Qwen3ForCausalLM"
    assert not [path for path in FakeHub.paths[before:] if "Qwen3-0.6B" in path]
    page.goto(f"{server.url}/?model={quote(UNKNOWN, safe='')}")
    expect(page.locator("#evidence")).to_contain_text("What the data says about", timeout=15_000)
    expect(page.locator("#evidence")).to_contain_text("Hub record is unknown")
    assert "<script>garbage" not in json.dumps(answer)  # FakeHub.GARBAGE's markup
