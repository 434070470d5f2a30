"""GET /api/v1/wanted and /wanted.atom over HTTP, counting what GET /api/v1/lookup and the named /lookup
are asked (a Starlette TestClient on the routes alone, data made here)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import gradio as gr
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from components.queries.api import Api
from components.sources.wanted_counts import Wanted
from components.web import clients
from components.web.gradio.endpoints import named_endpoint
from components.web.routes import api_v1
from components.web.routes import wanted as wanted_routes
from tests.helpers import served

ATOM = "{http://www.w3.org/2005/Atom}"
UNTESTED = "meta-llama/Llama-3.1-8B-Instruct"  # no row on the newest stack of `world`


@pytest.fixture
def counts():
    return Wanted()


@pytest.fixture
def sources(world):
    snapshot, rankings = world
    return served(snapshot, rankings)


@pytest.fixture
def http(sources, counts):
    """The routes behind uvicorn's proxy-headers middleware as on a Space, called from the Space's proxy: the asker
    is the rightmost X-Forwarded-For hop no trusted proxy wrote."""
    routes = api_v1.routes(sources, wanted=counts) + wanted_routes.routes(sources, counts)
    on_space = clients.forwarded_allow_ips({"SYSTEM": "spaces"})
    return TestClient(ProxyHeadersMiddleware(Starlette(routes=routes), trusted_hosts=on_space), client=("10.0.0.2", 1))


def lookup(http, model: str, address: str, **params):
    return http.get(
        "/api/v1/lookup", params={"model": model, **params}, headers={"X-Forwarded-For": f"{address}, 10.0.0.1"}
    )


def test_wanted_ranks_untested_lookups_and_one_address_counts_once(http):
    for _ in range(100):
        assert lookup(http, "someone/asked-by-one", "203.0.113.7").status_code == 200
    for address in ("203.0.113.1", "203.0.113.2", "203.0.113.3"):
        lookup(http, UNTESTED, address)
        lookup(http, "Qwen/Qwen3-0.6B", address)  # tested on the newest stack: not wanted
    answer = http.get("/api/v1/wanted")
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "*"
    ranked = [(m["model_id"], m["lookups"]) for m in answer.json()["models"]]
    assert ranked == [(UNTESTED, 3)]  # in the data: the Hub knows it
    # no Hub look-ups here: an id the data lacks is listed as not checked, and not counted
    assert [(m["model_id"], m["lookups"]) for m in answer.json()["not_checked"]] == [("someone/asked-by-one", 1)]
    assert http.get("/api/v1/wanted?limit=5").status_code == 400  # it takes no parameters


def test_an_unknown_stack_is_a_404_and_counts_nothing(http, counts):
    answer = lookup(http, UNTESTED, "203.0.113.9", neuronx_cc="9.9.9")
    assert answer.status_code == 404 and "Known stacks" in answer.json()["error"]
    assert counts.counted() == []


def test_the_named_lookup_counts_its_asker_and_keeps_its_not_tested_answer(sources, counts):
    api = Api(sources, counts)
    scope = {"type": "http", "headers": [], "client": ("198.51.100.4", 1)}  # as uvicorn settled it
    request = gr.Request(request=Request(scope))
    lookup = named_endpoint(api.lookup)  # as Gradio serves it: it hands the request by the argument's annotation
    for _ in range(3):
        lookup(UNTESTED, "", "", request)
    assert [(c.model_id, c.lookups) for c in counts.counted()] == [(UNTESTED, 1)]
    assert lookup(UNTESTED, "9.9.9", "", request)["result"] == "not tested"  # the named /lookup: no error
    lookup("someone/else", "", "", None)  # no request (a direct call): nothing to count by
    assert len(counts.counted()) == 1


def test_the_atom_feed_lists_the_ranking(http):
    for address in ("203.0.113.1", "203.0.113.2"):
        lookup(http, UNTESTED, address)
    lookup(http, "evil/<img src=x>", "203.0.113.1")
    answer = http.get("/wanted.atom")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/atom+xml")
    root = ET.fromstring(answer.content)
    entries = root.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text.split(":")[0] for e in entries] == [f"#1 {UNTESTED}"]
    link = entries[0].find(f"{ATOM}link").get("href")
    assert link == "http://testserver/?model=meta-llama%2FLlama-3.1-8B-Instruct"
    assert root.find(f"{ATOM}id").text.endswith(":wanted")
