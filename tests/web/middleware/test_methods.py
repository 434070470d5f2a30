"""`AllowedMethodsMiddleware`: 405 and `Allow` on the app's own addresses and pages, a page's HEAD run as its GET."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from components.web.middleware import methods


def gradio(request):  # stands for the mounted Gradio app: answers any method on any path
    return PlainTextResponse(f"gradio {request.method}" * (request.method != "HEAD"))


def own(request):
    return PlainTextResponse("own")


ROUTES = [
    Route("/badge", own, methods=["GET"]),
    Route("/hook", own, methods=["POST"]),
    Route("/any", own, methods=["GET", "PUT"]),
]
APP = Starlette(
    routes=[
        *ROUTES,
        Mount("/", routes=[Route("/{path:path}", gradio, methods=["GET", "HEAD", "POST", "PUT", "DELETE"])]),
    ]
)
http = TestClient(methods.AllowedMethodsMiddleware(APP, routes=ROUTES, pages=["/", "/compare"]))


def test_a_method_an_own_address_does_not_take_is_a_405_naming_those_it_does():
    answer = http.put("/badge")
    assert answer.status_code == 405 and answer.headers["allow"] == "GET, HEAD" and "PUT" in answer.json()["error"]
    assert http.get("/hook").headers["allow"] == "POST"
    assert http.put("/any").text == "own"


def test_a_pages_head_is_its_get_without_a_body_and_other_methods_are_405():
    got, head = http.get("/compare"), http.head("/compare")
    assert got.text == "gradio GET" and head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == got.headers["content-length"]
    assert http.post("/").status_code == 405


def test_gradios_own_addresses_are_not_touched():
    assert http.delete("/gradio_api/mcp/").text == "gradio DELETE"
    assert http.put("/gradio_api/info").text == "gradio PUT"
