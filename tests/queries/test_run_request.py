"""Asking for a test: an untested model's lookup carries where to ask and the text to ask with."""

import typing
from urllib.parse import parse_qs, urlsplit

from components.queries import details
from components.queries.answers import RequestTest
from components.queries.run_request import DISCUSSIONS, request_test
from components.runtime import settings
from components.sources.records import parse_records
from tests.helpers import NEW_CC
from tests.queries.test_answers import violations


def records():
    return parse_records(
        [
            {
                "id": "org/untested-1B",
                "pipeline_tag": "text-generation",
                "safetensors": {"total": 1_235_814_400},
                "config": {"architectures": ["LlamaForCausalLM"]},
                "cardData": {"base_model": "Qwen/Qwen3-0.6B"},
            },
        ],  # fmt: skip
        "test",
    )


def test_an_untested_model_offers_a_filled_in_discussion(world):
    snapshot, _ = world
    answer = details.lookup(snapshot, "org/untested-1B", NEW_CC, "4.57.1", records())
    asking = answer["request_test"]
    parts = urlsplit(asking["url"])
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == f"{DISCUSSIONS}/new"
    query = parse_qs(parts.query)
    assert query["title"] == ["Test request: org/untested-1B"] == [asking["title"]]
    assert query["description"] == [asking["text"]]
    text = asking["text"]
    for expected in ("org/untested-1B", "text-generation", "LlamaForCausalLM", "1.24 B", "2.28.7631.0+82129205",
                     "Base model Qwen/Qwen3-0.6B: PASS on 1 core."):  # fmt: skip
        assert expected in text
    assert "%20" in asking["url"] and "+" not in parts.query  # spaces as %20: every reader decodes them


def test_a_tested_model_and_a_non_id_get_no_request(world):
    snapshot, _ = world
    assert "request_test" not in details.lookup(snapshot, "Qwen/Qwen3-0.6B")
    assert "request_test" not in details.lookup(snapshot, "not a model id!")
    assert details.lookup(snapshot, "org/unknown-record")["request_test"]["text"].count("unknown") >= 3


def test_a_very_long_request_keeps_the_title_only_in_the_address():
    answer = {"model_id": "org/m", "suggested_from": "x" * settings.RUN_REQUEST_URL.value, "evidence": {}}
    asking = request_test(answer, None)
    assert (
        len(asking["url"]) < settings.RUN_REQUEST_URL.value
        and "description" not in asking["url"]
        and "x" * 100 in asking["text"]
    )


def test_a_request_is_its_declared_type(world):
    snapshot, _ = world
    asking = details.lookup(snapshot, "org/untested-1B", NEW_CC, "4.57.1", records())["request_test"]
    assert typing.get_type_hints(request_test)["return"] == RequestTest | None
    assert violations(asking, RequestTest) == []
