"""`/api/v1/openapi.json`: a valid OpenAPI 3.1 document whose schemas every answer of every endpoint meets."""

from __future__ import annotations

import re
import typing

import jsonschema
import pytest
import typing_extensions
from openapi_spec_validator import validate

from components.queries import answers
from components.queries.api import Api
from components.web.routes import api_v1, openapi
from tests.helpers import ROOT, served
from tests.queries.test_answers import answers_of


@pytest.fixture(scope="module")
def sample_api():
    """The named endpoints on the bundled sample, rankings and model records."""
    from components.sources.app_sources import Sources
    from components.sources.dataset_store import DatasetStore
    from components.sources.rankings_store import resolve_rankings
    from components.sources.records_store import resolve_records

    rankings = resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json"))
    records = resolve_records(str(ROOT / "data" / "models_snapshot.json"))
    sources = Sources(DatasetStore(str(ROOT / "data" / "sample")), rankings, records)
    sources.start()
    yield Api(sources)
    sources.stop()


@pytest.fixture(scope="module")
def document():
    return openapi.document(Api(served(None)))


def answer_validator(document, name: str) -> jsonschema.Draft202012Validator:
    """A validator of `name`'s 200 answer, its refs resolved in the document."""
    path = f"{api_v1.PREFIX}/{name}"
    operation = next(iter(document["paths"][path].values()))
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    return jsonschema.Draft202012Validator({**schema, "components": document["components"]})


def test_the_document_is_valid_openapi_3_1(document):
    validate(document)
    assert document["openapi"] == "3.1.0"
    assert set(document["paths"]) == {e.path for e in api_v1.ENDPOINTS}


def test_every_answer_of_every_endpoint_meets_its_schema(document, sample_api):
    checked: typing.Counter[str] = typing.Counter()
    # an answer is held to its route's schema under the name of the Api method that gives it
    validators = {m: answer_validator(document, e.name) for e in api_v1.ENDPOINTS for m in (e.name, e.answers_with)}
    problems = []
    for name, kwargs, answer, _ in answers_of(sample_api):
        checked[name] += 1
        problems += [f"/{name}({kwargs}): {e.message[:200]}" for e in list(validators[name].iter_errors(answer))[:2]]
    assert not problems, "\n".join(problems[:20])
    assert set(checked) >= {e.answers_with for e in api_v1.ENDPOINTS}


def test_the_schemas_hold_the_answer_types_and_can_tell_a_wrong_answer(document):
    schemas = document["components"]["schemas"]
    shapes = {name for name in answers.__all__ if typing_extensions.is_typeddict(getattr(answers, name))}
    assert shapes - {"Suggestion", "RankFields", "RecentFields", "ModelOnStack", "ColumnFields"} <= set(
        schemas
    )  # bases only
    assert schemas["HistoryEntry"]["required"] == list(answers.HistoryEntry.__annotations__)
    instance = schemas["RowAnswer"]["properties"]["instance"]  # a field the table's column registry declares
    assert instance["description"].startswith("the smallest trn2 instance") and {"type": "null"} in instance["anyOf"]
    assert "required" not in schemas["LookupAnswer"]  # every key depends on the case
    assert schemas["LookupAnswer"]["description"].startswith("Everything about one model on one stack")
    lookup = answer_validator(document, "lookup")
    assert lookup.is_valid({"model_id": "a/b", "result": "not tested"})
    assert not lookup.is_valid({"model_id": "a/b", "tp": "two"})
    assert not answer_validator(document, "stacks").is_valid([{"neuronx_cc": "2.28"}])


def test_the_parameters_come_from_the_route_table_with_the_docstrings_words(document):
    search = document["paths"]["/api/v1/search"]["get"]
    assert [p["name"] for p in search["parameters"]] == ["q", "view", "task", "neuronx_cc", "library_version", "size"]
    view = search["parameters"][1]
    assert view["schema"] == {
        "type": "string",
        "default": "selected",
        "enum": ["", "selected", "trending", "downloads", "recent"],
    }
    assert all(p["description"] and p["in"] == "query" for p in search["parameters"])
    assert '"recent" (the tested models, the newest run first' in view["description"]
    model = document["paths"]["/api/v1/lookup"]["get"]["parameters"][0]
    assert model["name"] == "model" and model["required"] is True and "Hub id" in model["description"]
    assert model["schema"]["minLength"] == 1 and model["schema"]["maxLength"] == 96  # the forms the API checks
    form = re.compile(model["schema"]["pattern"])
    assert form.match("Qwen/Qwen3-0.6B") and form.match("gpt2") and not form.match("a/b/c") and not form.match("x--y")
    assert search["summary"].startswith("Find models") and "304" in search["responses"]
    assert search["responses"]["404"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}


def test_kind_is_declared_as_the_enum_in_every_answer_that_carries_a_result(document):
    kinds = ["pass", "fail", "excluded", "not tested", "other"]
    schemas = document["components"]["schemas"]
    with_result = [(name, field) for name, schema in schemas.items() for field in schema.get("properties", {})
                   if field.startswith("result")]  # fmt: skip
    assert {name for name, _ in with_result} >= {"RowAnswer", "LookupAnswer", "HistoryEntry", "ArchitectureModel"}
    for name, field in with_result:
        kind = schemas[name]["properties"]["kind" + field.removeprefix("result")]
        assert kind["enum"] == kinds and "means" in kind["description"], (name, kind)
        assert "enum" not in schemas[name]["properties"][field]  # result stays the dataset's own text
    row = answer_validator(document, "search")
    assert row.is_valid([{"model_id": "a/b", "result": "MAYBE", "kind": "other"}])
    assert not row.is_valid([{"model_id": "a/b", "result": "PASS", "kind": "PASS"}])


def test_field_descriptions_from_the_answer_types_reach_the_schemas(monkeypatch):
    def describe(shape):
        return {"model_id": "the Hub id"} if shape is answers.ArchitectureModel else {}

    monkeypatch.setattr(answers, "describe", describe, raising=False)
    schemas = openapi.document(Api(served(None)))["components"]["schemas"]
    assert schemas["ArchitectureModel"]["properties"]["model_id"]["description"] == "the Hub id"
    assert "description" not in schemas["RowAnswer"]["properties"]["model_id"]


def test_a_body_endpoint_is_a_post_with_a_request_body():
    class WithConfig(Api):
        def check_config(self, config_json: str, neuronx_cc: str = "") -> dict[str, str]:
            """Read a config.json.

            Args:
                config_json: the text of a config.json.
                neuronx_cc: compiler version.
            """
            return {}

    endpoints = (*api_v1.ENDPOINTS, api_v1.Endpoint("check_config", body="config_json"))
    document = openapi.document(WithConfig(served(None)), endpoints)
    validate(document)
    post = document["paths"]["/api/v1/check_config"]["post"]
    assert post["requestBody"]["description"] == "the text of a config.json."
    assert [p["name"] for p in post["parameters"]] == ["neuronx_cc"] and "304" not in post["responses"]


def test_the_copies_keep_names_and_required_keys():
    copy = openapi.portable(list[answers.FailuresAnswer])
    item = typing.get_args(copy)[0]
    assert item.__name__ == "FailuresAnswer" and item.__required_keys__ == answers.FailuresAnswer.__required_keys__
    assert openapi.portable(answers.StackRefAnswer) is not answers.StackRefAnswer
    assert openapi.portable(str | None) == (str | None)


def test_lookup_lists_its_404_and_wanted_its_ranking(document):
    lookup = document["paths"]["/api/v1/lookup"]["get"]
    assert "known stacks" in lookup["responses"]["404"]["description"]
    assert "a stack not in the data is an error" in lookup["summary"] + lookup["responses"]["200"]["description"]
    assert [p["name"] for p in lookup["parameters"]] == ["model", "neuronx_cc", "library_version"]  # no `request`
    wanted = document["paths"]["/api/v1/wanted"]["get"]
    assert wanted["parameters"] == []
    assert wanted["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/WantedAnswer"
    }
    models = document["components"]["schemas"]["WantedModel"]["properties"]
    assert {"model_id", "lookups", "downloads", "expectation"} <= set(models)
