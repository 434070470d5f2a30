"""The named endpoints against a launched app, through gradio_client as the README shows."""

from __future__ import annotations

import json


def test_stacks_newest_first(client):
    stacks = client.predict(api_name="/stacks")
    assert len(stacks) >= 5
    assert set(stacks[0]) >= {"neuronx_cc", "library", "library_version", "models", "passed"}
    assert all(s["passed"] <= s["models"] for s in stacks)
    from components.sources.versions import version_key

    keys = [version_key(s["neuronx_cc"]) for s in stacks]
    assert keys == sorted(keys, reverse=True)


def test_search_finds_qwen3_with_words_in_any_order(client):
    rows = client.predict(query="0.6b qwen3", api_name="/search")
    ids = [r["model_id"] for r in rows]
    assert "Qwen/Qwen3-0.6B" in ids and len(ids) <= 3
    assert all("qwen3" in i.lower() and "0.6b" in i.lower() for i in ids)
    assert set(rows[0]) >= {"model_id", "result", "tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb", "exclusion"}


def test_search_ranked_views_come_in_rank_order_with_untested_models(client):
    rows = client.predict(
        query="", view="trending", task="text-generation", neuronx_cc="", library_version="", api_name="/search"
    )
    assert len(rows) >= 50
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert any(r["result"] == "not tested" for r in rows)
    assert any(r["result"] == "PASS" for r in rows)


def test_lookup_gives_commands_and_history(client):
    stacks = client.predict(api_name="/stacks")
    answer = client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")
    assert answer["neuronx_cc"] == stacks[0]["neuronx_cc"]
    assert answer["cache_sync_command"] == (
        "hf buckets sync hf://buckets/aws-neuron/torch-neuronx-neff-cache/"
        f"neuronxcc-{answer['neuronx_cc']} /tmp/neff_cache"
    )
    assert "Qwen/Qwen3-0.6B" in answer["run_py"]
    assert answer["install_command"].startswith("pip install")
    assert len(answer["history"]) >= 2
    assert "T" in answer["tested_at"]
    json.dumps(answer)


def test_lookup_of_an_unknown_model_is_not_an_error(client):
    answer = client.predict(model_id="nobody/nothing", api_name="/lookup")
    assert {k: answer[k] for k in ("model_id", "result", "kind")} == {
        "model_id": "nobody/nothing", "result": "not tested", "kind": "not tested",
    }  # fmt: skip
    assert "HF_HUB_OFFLINE" in answer["record_unknown"]  # offline, the answer says what is unknown
    assert answer["evidence"] == {"base_model": None, "architecture": None}


def test_unknown_versions_answer_for_the_newest_stack(client):
    newest = client.predict(api_name="/stacks")[0]
    rows = client.predict(query="qwen3", neuronx_cc="0.0.bogus", library_version="x", api_name="/search")
    assert rows and all(r["neuronx_cc"] == newest["neuronx_cc"] for r in rows)
