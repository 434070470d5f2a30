"""`components/web/middleware/limits.py` (the body limit) and `components/queries/argument_types.py` (argument types), in process."""

from __future__ import annotations

import inspect
import logging

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.queries import argument_types
from components.queries.errors import ArgumentRefused
from components.runtime import settings
from components.web.middleware import limits, server_errors

seen: list[int] = []


async def echo(request: Request) -> JSONResponse:
    body = await request.body()
    seen.append(len(body))
    return JSONResponse({"length": len(body)})


@pytest.fixture
def limited_http():
    seen.clear()
    app = Starlette(
        routes=[Route("/echo", echo, methods=["GET", "POST"]), Route("/small", echo, methods=["POST"])],
        middleware=[Middleware(limits.BodySizeLimitMiddleware, default=1000, per_path={"/small": 100})],
    )
    return TestClient(app)


def chunks(total: int, size: int = 64):
    for start in range(0, total, size):
        yield b"x" * min(size, total - start)


def test_a_body_over_its_declared_length_limit_is_refused_unread(limited_http):
    answer = limited_http.post("/echo", content=b"x" * 1001)
    assert answer.status_code == 413 and answer.json() == {"error": "request body over 1000 bytes"}
    assert answer.headers["connection"] == "close" and seen == []
    assert limited_http.post("/echo", content=b"x" * 1000).json() == {"length": 1000}


def test_a_chunked_body_is_cut_off_once_it_passes_the_limit_and_handed_on_whole_below_it(limited_http):
    assert limited_http.post("/echo", content=chunks(5000)).status_code == 413 and seen == []
    assert limited_http.post("/echo", content=chunks(999)).json() == {"length": 999}


def test_a_path_has_its_own_limit(limited_http):
    assert limited_http.post("/small", content=b"x" * 101).status_code == 413
    assert limited_http.post("/small/", content=chunks(101)).status_code == 413  # the same path with its slash
    assert limited_http.post("/small", content=b"x" * 100).json() == {"length": 100}
    assert limited_http.post("/echo", content=b"x" * 101).json() == {"length": 101}


def test_requests_without_a_body_pass(limited_http):
    assert limited_http.get("/echo").json() == {"length": 0}


def test_the_limit_of_a_path_holds_under_a_root_path():
    middleware = limits.BodySizeLimitMiddleware(app=None, default=1000, per_path={"/small": 100})
    assert middleware.limit_for({"path": "/space/small", "root_path": "/space"}) == 100
    assert middleware.limit_for({"path": "/small/"}) == 100
    assert middleware.limit_for({"path": "/gradio_api/call/search"}) == 1000


def test_the_app_limits_are_1_mb_and_the_webhooks_64_kb():
    assert settings.REQUEST_BODY.value == 1024 * 1024 and limits.describe(settings.REQUEST_BODY.value) == "1 MB"
    assert settings.WEBHOOK_BODY.value == 64 * 1024 and limits.describe(settings.WEBHOOK_BODY.value) == "64 KB"


async def fails(request: Request) -> JSONResponse:
    raise KeyError("line\nWARNING forged.logger: FORGED")


def test_an_exception_escaping_a_route_is_a_500_and_one_log_line(caplog):
    app = Starlette(routes=[Route("/fails", fails)], middleware=[Middleware(server_errors.JsonServerErrorMiddleware)])
    caplog.set_level(logging.DEBUG, logger="components.web.middleware.server_errors")
    answer = TestClient(app, raise_server_exceptions=False).get("/fails")
    assert answer.status_code == 500 and answer.json() == {"error": "internal error"}
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in errors] == ["GET '/fails' failed: KeyError('line\\nWARNING forged.logger: FORGED')"]
    assert [r.levelno for r in caplog.records if r.exc_info] == [logging.DEBUG]


# ---- argument types ------------------------------------------------------------------------------------


@argument_types.check_arguments
class Endpoints:
    def find(self, query: str = "", limit: int = 10) -> list[str]:
        """Find things.

        Args:
            query: what to find.
            limit: how many.
        """
        return [query] * limit

    def one(self, model_id: str) -> str:
        return model_id

    def _private(self, text: str) -> str:
        return text


@pytest.mark.parametrize(
    ("value", "kind"),
    [(1, "a number"), (2.5, "a number"), (True, "a boolean"), ([], "a list"), ({}, "an object"), (None, "null")],
)
def test_a_string_argument_of_another_type_is_refused_naming_it(value, kind):
    with pytest.raises(ArgumentRefused) as raised:
        Endpoints().find(value)
    assert str(raised.value) == f'find: the argument query must be a string ("" for the default), not {kind}'
    with pytest.raises(ArgumentRefused, match=f"one: the argument model_id must be a string, not {kind}"):
        Endpoints().one(model_id=value)


def test_strings_and_other_annotations_pass_and_private_methods_are_left_alone():
    assert Endpoints().find("a", 2) == ["a", "a"] and Endpoints().find(query="b", limit=1) == ["b"]
    assert Endpoints().one("x") == "x"
    assert Endpoints()._private(5) == 5


def test_what_gradio_reads_stays_the_endpoints_own():
    method = Endpoints().find
    assert list(inspect.signature(method).parameters) == ["query", "limit"]
    assert method.__doc__.startswith("Find things.") and method.__name__ == "find"
    assert Endpoints.find.__annotations__ == {"query": "str", "limit": "int", "return": "list[str]"}
