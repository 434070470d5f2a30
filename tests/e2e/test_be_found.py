"""Be found, against the launched app: the badge and feed routes `python app.py` registers, and /lookup's
offer to ask for a test of an untested model."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import feedparser
import httpx


def test_the_badge_route_answers_the_shields_schema(sample_app):
    answer = httpx.get(f"{sample_app.url}/badge", params={"model": "Qwen/Qwen3-0.6B"})
    assert answer.status_code == 200 and "max-age=300" in answer.headers["cache-control"]
    assert answer.json() == {
        "schemaVersion": 1, "label": "Trainium", "message": "PASS · neuronx-cc 2.28.7631.0", "color": "green",
        "cacheSeconds": 300,
    }  # fmt: skip
    assert httpx.get(f"{sample_app.url}/badge", params={"model": "a/b/c"}).status_code == 400


def test_the_feed_route_serves_atom_a_reader_parses(sample_app):
    answer = httpx.get(f"{sample_app.url}/feed.atom", headers={"X-Forwarded-Host": "evil.example"})  # not followed
    assert answer.headers["content-type"].startswith("application/atom+xml")
    parsed = feedparser.parse(answer.content)
    assert not parsed.bozo and 0 < len(parsed.entries) <= 50
    assert all(e.link.startswith(f"{sample_app.url}/?model=") for e in parsed.entries)
    regression = next(e for e in parsed.entries if "regressed" in e.title)
    model = parse_qs(urlsplit(regression.link).query)["model"][0]
    own = feedparser.parse(httpx.get(f"{sample_app.url}/feed.atom", params={"model": model}).content)
    assert own.entries and all(parse_qs(urlsplit(e.link).query)["model"] == [model] for e in own.entries)


def test_the_page_links_the_feed(sample_app):
    page = httpx.get(sample_app.url + "/").text
    assert "application/atom+xml" in page and "feed.atom" in page  # the head link and the one under the title


def test_an_untested_models_lookup_offers_to_ask_for_a_test(client):
    answer = client.predict(model_id="unsloth/Llama-3.2-1B-Instruct", api_name="/lookup")
    assert answer["result"] == "not tested"
    asking = answer["request_test"]
    assert asking["url"].startswith(
        "https://huggingface.co/datasets/aws-neuron/torch-neuronx-model-support/discussions/new?"
    )
    assert "unsloth/Llama-3.2-1B-Instruct" in asking["text"] and "LlamaForCausalLM" in asking["text"]
    assert "request_test" not in client.predict(model_id="Qwen/Qwen3-0.6B", api_name="/lookup")
