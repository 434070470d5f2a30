"""On the launched app with the bundled sample: every model, of each library, answers with its own run on every
surface that names no stack (GET /api/v1/lookup, the named /lookup, MCP, the badge, a link's first HTML), and the
named endpoints refuse what GET /api/v1 refuses, in the same words."""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from components.domain.stacks import library_name
from components.sources.dataset import load
from tests.e2e.test_mcp import call_tools
from tests.helpers import ROOT

FLUX = "black-forest-labs/FLUX.1-schnell"
MINILM = "sentence-transformers/all-MiniLM-L6-v2"
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def own_runs() -> dict[str, tuple[str, str]]:
    """{model: (library, result)} of every sample model: the newest stack of the library it last ran with."""
    snapshot = load(ROOT / "data" / "sample")
    runs = {}
    for model_id in snapshot.model_ids:
        library = next(s.library for s in snapshot.stacks if snapshot.row_for(model_id, s) is not None)
        stack = next(s for s in snapshot.stacks if s.library == library)
        position = snapshot.row_for(model_id, stack)
        runs[model_id] = (library, str(snapshot.rows["result"].iat[position]) if position is not None else "not tested")
    return runs


def test_every_sample_model_answers_with_its_own_run_over_http_and_the_named_lookup(sample_app, client):
    runs = own_runs()
    assert runs[FLUX] == ("diffusers", "FAIL") and runs[MINILM] == ("sentence-transformers", "PASS")
    assert {library for library, _ in runs.values()} == {"transformers", "diffusers", "sentence-transformers"}
    with httpx.Client(base_url=sample_app.url, timeout=60) as http:
        for model_id, (library, result) in runs.items():
            answer = http.get("/api/v1/lookup", params={"model": model_id}).json()
            assert (answer["library"], answer["result"]) == (library, result), model_id
            if result in ("PASS", "FAIL"):
                badge = http.get("/badge", params={"model": model_id}).json()
                assert badge["message"].startswith(result), (model_id, badge)
        for model_id in (FLUX, MINILM):  # a link's first HTML: its title names the model's own result
            page = http.get("/", params={"model": model_id}).text
            title = html.unescape(TITLE.search(page).group(1))
            assert title.startswith(f"{model_id}: {runs[model_id][1]} on Trainium"), title
            assert f"{library_name(runs[model_id][0])} " in html.unescape(
                page[page.index('property="og:description"') :][:400]
            )
    for model_id in (FLUX, MINILM, "Qwen/Qwen3-0.6B", "nobody/never-ran"):
        named = client.predict(model_id=model_id, neuronx_cc="", library_version="", api_name="/lookup")
        library, result = runs.get(model_id, ("transformers", "not tested"))
        assert (named["library"], named["result"]) == (library, result), model_id


def test_mcp_lookup_answers_on_the_models_own_stack(sample_app):
    flux, minilm, address = call_tools(
        sample_app.url,
        [
            ("lookup", {"model_id": FLUX, "neuronx_cc": "", "library_version": ""}),
            ("lookup", {"model_id": MINILM, "neuronx_cc": "", "library_version": ""}),
            # a model's Hub address is its id over MCP too
            (
                "lookup",
                {"model_id": f"https://huggingface.co/{FLUX}/tree/main", "neuronx_cc": "", "library_version": ""},
            ),
        ],
    )
    assert json.loads(flux.content[0].text)["result"] == "FAIL"
    assert json.loads(minilm.content[0].text)["kind"] == "pass"
    assert json.loads(address.content[0].text) == json.loads(flux.content[0].text)


@pytest.mark.parametrize(
    ("route", "params", "named"),
    [
        ("search", {"view": "bogus"}, {"query": "", "view": "bogus", "api_name": "/search"}),
        ("search", {"task": "bogus"}, {"query": "", "task": "bogus", "api_name": "/search"}),
        ("lookup", {"model": "not a model id!!"}, {"model_id": "not a model id!!", "api_name": "/lookup"}),
        ("architectures", {"task": "bogus"}, {"task": "bogus", "api_name": "/architectures"}),
    ],
)
def test_the_named_endpoints_refuse_what_the_http_api_refuses_in_the_same_words(
    sample_app, client: Client, route, params, named
):
    answer = httpx.get(f"{sample_app.url}/api/v1/{route}", params=params, timeout=60)
    assert answer.status_code == 400
    with pytest.raises(AppError) as refused:  # the endpoint's gr.Error, as gradio_client reads it
        client.predict(**named)
    assert answer.json()["error"] in str(refused.value)


def test_the_named_lookup_of_an_empty_id_is_an_error_not_an_answer_for_nothing(client: Client):
    with pytest.raises(AppError, match="cannot be a Hub model id"):
        client.predict(model_id="", api_name="/lookup")
