"""Too few values: `MissingArgumentsMiddleware` marks what is missing on the plain HTTP route, and `checked`
(`queries/argument_types.py`) names it. (The argument types of the endpoints: tests/hardening/test_limits.py.)"""

from __future__ import annotations

import json

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.queries import api, argument_types
from components.queries.errors import ArgumentRefused
from components.web import server
from components.web.middleware import missing_arguments


@argument_types.check_arguments
class Endpoints:
    def search(self, query: str, view: str = "selected", task: str = "") -> str:
        return query


async def echo(request: Request) -> JSONResponse:
    return JSONResponse({"body": json.loads(await request.body()), "length": request.headers["content-length"]})


@pytest.fixture
def short_calls_http():
    names = {"search": argument_types.parameters(Endpoints.search)}
    app = Starlette(
        routes=[Route("/gradio_api/call/{name}", echo, methods=["POST"]), Route("/other", echo, methods=["POST"])],
        middleware=[Middleware(missing_arguments.MissingArgumentsMiddleware, endpoints=names)],
    )
    return TestClient(app)


def test_a_short_call_reaches_the_endpoint_with_each_missing_value_marked(short_calls_http):
    answer = short_calls_http.post("/gradio_api/call/search", json={"data": ["qwen"], "session_hash": "s"}).json()
    assert answer["body"]["data"] == ["qwen", {argument_types.MISSING: "view"}, {argument_types.MISSING: "task"}]
    assert answer["body"]["session_hash"] == "s" and int(answer["length"]) == len(json.dumps(answer["body"]))


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/gradio_api/call/search", {"data": ["qwen", "selected", ""]}),  # enough values
        ("/gradio_api/call/unknown", {"data": []}),  # not a named endpoint: Gradio answers it
        ("/other", {"data": []}),
        ("/gradio_api/call/search", {"data": "not a list"}),
        ("/gradio_api/call/search", [1, 2]),
    ],
)
def test_other_calls_pass_unchanged(short_calls_http, path, body):
    assert short_calls_http.post(path, json=body).json()["body"] == body


def test_a_body_that_is_not_json_passes_unchanged():
    seen = []

    async def raw(request: Request) -> JSONResponse:
        seen.append(await request.body())
        return JSONResponse({})

    app = Starlette(routes=[Route("/gradio_api/call/search", raw, methods=["POST"])],
                    middleware=[Middleware(missing_arguments.MissingArgumentsMiddleware, endpoints={"search": ["query"]})])  # fmt: skip
    TestClient(app).post("/gradio_api/call/search", content=b"\xff not json")
    assert seen == [b"\xff not json"]


def test_the_endpoint_names_what_is_missing():
    with pytest.raises(ArgumentRefused) as error:
        Endpoints().search("qwen", {argument_types.MISSING: "view"}, {argument_types.MISSING: "task"})
    assert str(error.value) == "search: 3 arguments wanted, 1 given; missing: view, task"
    assert Endpoints().search("qwen") == "qwen"  # defaults given by a caller that names its arguments


def test_every_named_endpoint_is_covered():
    for name in api.NAMED:
        method = getattr(api.Api, name)
        assert hasattr(method, "__wrapped__"), name  # checked by `check_arguments`
    assert server.named_parameters()["search"] == ["query", "view", "task", "neuronx_cc", "library_version"]
    assert server.named_parameters()["stacks"] == []
    assert server.named_parameters()["lookup"] == ["model_id", "neuronx_cc", "library_version"]  # not who asks
