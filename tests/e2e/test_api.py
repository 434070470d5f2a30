"""The named endpoints against a launched app, through gradio_client as docs/using-from-code.md shows."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from gradio_client.exceptions import AppError


def test_stacks_newest_first(client):
    stacks = client.predict(api_name="/stacks")
    assert len(stacks) >= 5
    assert set(stacks[0]) >= {"neuronx_cc", "library", "library_version", "models", "passed"}
    assert all(s["passed"] <= s["models"] for s in stacks)
    from components.domain.versions import version_key

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
    assert answer["expectation"]["verdict"] == "unknown"


def test_lookup_of_an_untested_fine_tune_says_what_to_expect_and_a_tested_model_does_not(client):
    answer = client.predict(model_id="ByteDance-Seed/UI-TARS-1.5-7B", api_name="/lookup")
    assert answer["result"] == "not tested"  # an expectation is never a result
    found = answer["expectation"]
    assert (found["verdict"], found["basis"]) == ("likely fails", "base model")
    assert "Qwen/Qwen2.5-VL-7B-Instruct fails on this stack" in found["reason"]
    assert "expectation" not in client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")


def test_unknown_stacks_are_a_clear_no_never_another_stacks_answer(client):
    newest = client.predict(api_name="/stacks")[0]
    for call in (
        lambda: client.predict(query="qwen3", neuronx_cc="0.0.bogus", library_version="x", api_name="/search"),
        lambda: client.predict(newest["neuronx_cc"], "9.9", "", "", api_name="/compare"),
    ):
        with pytest.raises(
            AppError, match=f"No tested stack matches.*Known stacks: .*{re.escape(newest['neuronx_cc'])}"
        ):
            call()
    answer = client.predict(model_id="Qwen/Qwen3-0.6B", neuronx_cc="2.99.0", library_version="9.9", api_name="/lookup")
    assert answer["result"] == "not tested" and "neuronx-cc 2.99.0 with library version 9.9" in answer["unknown_stack"]
    rows = client.predict(query="qwen3", neuronx_cc=newest["neuronx_cc"].split("+")[0], api_name="/search")
    assert rows and all(r["neuronx_cc"] == newest["neuronx_cc"] for r in rows)  # the public part is enough


def test_unknown_stacks_reach_plain_http_callers_as_an_error(sample_app):
    """Over plain HTTP (show_error=False) the message still reaches the caller in the event stream."""
    body = json.dumps({"data": ["qwen3", "selected", "", "2.99.0", "9.9"]}).encode()
    request = urllib.request.Request(
        f"{sample_app.url}/gradio_api/call/search", body, {"Content-Type": "application/json"}
    )
    event_id = json.load(urllib.request.urlopen(request, timeout=30))["event_id"]
    with urllib.request.urlopen(f"{sample_app.url}/gradio_api/call/search/{event_id}", timeout=30) as stream:
        text = stream.read().decode()
    assert "event: error" in text and "No tested stack matches neuronx-cc 2.99.0" in text


def test_the_sample_library_stacks_answer_by_version_or_library_pin(client):
    stacks = client.predict(api_name="/stacks")
    assert stacks[0]["library"] == "transformers"  # newest first, Transformers first on a compiler
    assert {"diffusers", "sentence-transformers"} <= {s["library"] for s in stacks}
    rows = client.predict(query="sd-turbo", library_version="diffusers==0.36.0", api_name="/search")
    assert [(r["model_id"], r["library"]) for r in rows] == [("stabilityai/sd-turbo", "diffusers")]
    plain = client.predict(query="sd-turbo", neuronx_cc="2.28.7631.0", library_version="0.36.0", api_name="/search")
    assert plain == rows  # a plain version finds the library whose version it is
    answer = client.predict(
        model_id="BAAI/bge-small-en-v1.5", library_version="sentence-transformers==5.1.2", api_name="/lookup"
    )
    assert answer["library"] == "sentence-transformers" and answer["result"] in ("PASS", "FAIL")


WHOLE = ("tp", "wall_s", "rank", "downloads", "likes", "models", "passed", "tested", "num_parameters")


def _whole_numbers_are_ints(value, path="answer"):
    """Every whole-number field anywhere in an answer is an int or null, never 536.0."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in WHOLE and not isinstance(inner, list):
                assert inner is None or type(inner) is int, (path, key, inner)
            _whole_numbers_are_ints(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            _whole_numbers_are_ints(inner, f"{path}[{i}]")


@pytest.mark.parametrize("view", ["selected", "trending", "downloads", "recent"])
def test_search_answers_whole_numbers_as_ints_and_one_ranking(client, view):
    rows = client.predict(query="", view=view, task="", neuronx_cc="", library_version="", api_name="/search")
    _whole_numbers_are_ints(rows)
    if view in ("trending", "downloads"):
        assert {r["task"] for r in rows} == {"text-generation"}
        ranks = [r["rank"] for r in rows]
        assert ranks == sorted(set(ranks))
    if view == "recent":  # the newest run first, across libraries, each row with its time
        times = [r["tested_at"] for r in rows]
        assert times == sorted(times, reverse=True) and len({r["library"] for r in rows}) == 3


def test_every_other_endpoint_answers_whole_numbers_as_ints(client):
    stacks = client.predict(api_name="/stacks")
    _whole_numbers_are_ints(stacks)
    _whole_numbers_are_ints(client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup"))
    _whole_numbers_are_ints(client.predict(api_name="/architectures"))
    old = stacks[-1]
    compare = client.predict(
        neuronx_cc_a=old["neuronx_cc"], library_version_a=old["library_version"], api_name="/compare"
    )
    _whole_numbers_are_ints(compare)


def test_search_rows_and_lookup_carry_the_parameter_count_and_lookup_its_query(client):
    rows = client.predict(query="qwen3 0.6b", api_name="/search")
    qwen = next(r for r in rows if r["model_id"] == "Qwen/Qwen3-0.6B")
    assert type(qwen["num_parameters"]) is int and 0.4e9 < qwen["num_parameters"] < 1e9
    answer = client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")
    assert answer["num_parameters"] == qwen["num_parameters"]
    assert "hf://datasets/aws-neuron/torch-neuronx-model-support/data" in answer["query_snippet"]
    assert "'Qwen/Qwen3-0.6B'" in answer["query_snippet"]
    assert client.predict(model_id="nobody/nothing", api_name="/lookup")["num_parameters"] is None


LLAMA3_8B = (
    '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, '
    '"num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, '
    '"tie_word_embeddings": false}'
)


def test_check_config_answers_a_config_and_refuses_broken_text_clearly(client):
    answer = client.predict(config_json=LLAMA3_8B, api_name="/check_config")
    assert answer["architecture"] == "LlamaForCausalLM" and abs(answer["num_parameters"] / 8.03e9 - 1) < 0.15
    assert answer["expectation"]["verdict"] in ("likely runs", "likely fails", "unknown")
    assert answer["similar"] and all(m["num_parameters"] for m in answer["similar"])
    assert "/path/to/your/model" in answer["suggested_run_py"]
    with pytest.raises(AppError, match="config_json: not valid JSON"):
        client.predict(config_json="{broken", api_name="/check_config")
    with pytest.raises(AppError, match="No tested stack matches"):
        client.predict(config_json=LLAMA3_8B, neuronx_cc="0.0.bogus", library_version="", api_name="/check_config")


# Each named endpoint with values a plain HTTP caller sends, and calls it refuses (the last three).
PLAIN_CALLS = [
    ("stacks", []),
    ("search", ["qwen3", "selected", "", "", ""]),
    ("search", ["", "trending", "text-generation", "", ""]),
    ("lookup", ["Qwen/Qwen3-0.6B", "", ""]),
    ("lookup", ["Qwen/Qwen3-0.6B", "2.9.1.0", ""]),
    ("compare", ["", "", "", ""]),
    ("architectures", ["", "", ""]),
    ("failures", ["", ""]),
    ("check_config", ['{"model_type": "llama", "architectures": ["LlamaForCausalLM"]}', "", ""]),
    ("wanted", []),
    ("search", ["qwen3", "no such view", "", "", ""]),
    ("lookup", ["not a model id !", "", ""]),
    ("search", [3, "selected", "", "", ""]),
]


@pytest.mark.parametrize(("name", "data"), PLAIN_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(PLAIN_CALLS)])
def test_a_plain_http_call_answers_what_gradios_queue_answers(sample_app, name, data):
    """`POST /gradio_api/call/NAME` is answered beside the queue (`web/gradio/direct_calls.py`), refusals
    included; the same call through Gradio's queue (`queue/join`, gradio_client's route) gives the same answer,
    which Gradio's result route would stream as `event: complete` with its data or `event: error` with its output."""
    import uuid

    import httpx

    with httpx.Client(base_url=sample_app.url, timeout=30) as http:
        posted = http.post(f"/gradio_api/call/{name}", json={"data": data})
        assert posted.status_code == 200, posted.text
        direct = http.get(f"/gradio_api/call/{name}/{posted.json()['event_id']}").text
        index = next(d["id"] for d in http.get("/config").json()["dependencies"] if d.get("api_name") == name)
        session = uuid.uuid4().hex
        joined = http.post("/gradio_api/queue/join", json={"data": data, "fn_index": index, "session_hash": session})
        assert joined.status_code == 200, joined.text
        with http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session}) as stream:
            for line in stream.iter_lines():
                message = json.loads(line.removeprefix("data: ")) if line.startswith("data: ") else {}
                if message.get("msg") == "process_completed":
                    break
    if message["success"]:
        queued = f"event: complete\ndata: {json.dumps(message['output']['data'])}\n\n"
    else:
        queued = f"event: error\ndata: {json.dumps(message['output'])}\n\n"
    assert direct == queued
    assert direct.startswith(("event: complete\n", "event: error\n")), direct[:200]


def test_search_naming_no_stack_covers_every_library_and_a_hub_address_is_an_id(client):
    flux = client.predict(query="flux", api_name="/search")
    assert [(r["model_id"], r["library"], r["library_version"]) for r in flux] == [
        ("black-forest-labs/FLUX.1-schnell", "diffusers", "0.36.0")
    ]
    minilm = client.predict(query="minilm", api_name="/search")
    assert {r["library"] for r in minilm} == {"sentence-transformers"}
    named = client.predict(query="flux", neuronx_cc="", library_version="5.0.0", api_name="/search")
    assert named == []  # a stack named: that stack's answer, as before
    answer = client.predict(model_id="https://huggingface.co/Qwen/Qwen3-8B/tree/main?x=1#y", api_name="/lookup")
    assert answer["model_id"] == "Qwen/Qwen3-8B" and answer["result"] == "PASS"
    with pytest.raises(Exception, match="address of a Space"):
        client.predict(model_id="https://huggingface.co/spaces/org/app", api_name="/lookup")
