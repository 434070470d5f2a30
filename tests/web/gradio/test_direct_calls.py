"""`DirectCalls`: a named endpoint over plain HTTP answered beside Gradio's queue, and everything it cannot
answer left to what is behind it (here a stand-in that says it was reached). The same calls against the real
app, answered both ways: tests/e2e/test_api.py."""

from __future__ import annotations

import json
import threading

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.queries import argument_types
from components.web.gradio import direct_calls


@argument_types.check_arguments
class Endpoints:
    def __init__(self):
        self.asked: list[str | None] = []
        self.entered, self.release = threading.Event(), threading.Event()
        self.release.set()

    def search(self, query: str, view: str = "selected") -> list[dict]:
        self.entered.set()
        self.release.wait(5)
        return [{"model_id": query, "view": view}]

    def lookup(self, model_id: str, asker: str | None = None) -> dict:
        self.asked.append(asker)
        return {"model_id": model_id}

    def broken(self, query: str) -> dict:
        raise RuntimeError("a bug")


async def behind(request: Request) -> JSONResponse:
    """What Gradio would answer: here, that the request reached it, with the body it was given."""
    return JSONResponse(
        {"reached": "gradio", "path": request.url.path, "body": (await request.body()).decode(errors="replace")}
    )


def app(endpoints: Endpoints, kept: direct_calls.Kept | None = None, at_once: int = 4) -> TestClient:
    named = {name: getattr(endpoints, name) for name in ("search", "lookup", "broken")}
    routes = [Route("/gradio_api/call/{rest:path}", behind, methods=["GET", "POST"])]
    middleware = [Middleware(direct_calls.DirectCalls, endpoints=named, at_once=at_once, kept=kept)]
    return TestClient(Starlette(routes=routes, middleware=middleware))


def test_a_call_is_answered_without_reaching_gradio_and_read_once():
    client = app(Endpoints())
    posted = client.post("/gradio_api/call/search", json={"data": ["qwen", "trending"]})
    assert posted.status_code == 200 and posted.headers["content-type"] == "application/json"
    event_id = posted.json()["event_id"]
    assert set(posted.json()) == {"event_id"} and len(event_id) == 32
    read = client.get(f"/gradio_api/call/search/{event_id}")
    assert read.headers["content-type"].startswith("text/event-stream")
    assert read.text == 'event: complete\ndata: [[{"model_id": "qwen", "view": "trending"}]]\n\n'
    assert json.loads(read.text.split("data: ", 1)[1]) == [[{"model_id": "qwen", "view": "trending"}]]
    again = client.get(f"/gradio_api/call/search/{event_id}")  # read: Gradio's own answer for an unknown id
    assert again.json()["reached"] == "gradio"


def test_the_v2_read_and_a_trailing_slash_are_answered_too():
    client = app(Endpoints())
    event_id = client.post("/gradio_api/call/search/", json={"data": ["a", "selected"]}).json()["event_id"]
    assert client.get(f"/gradio_api/call/v2/search/{event_id}").text.startswith("event: complete\n")


def test_the_asking_address_reaches_an_endpoint_that_takes_it():
    endpoints = Endpoints()
    client = app(endpoints)
    client.post("/gradio_api/call/lookup", json={"data": ["org/m"]})
    assert endpoints.asked == ["testclient"]


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("search", {"data": ["qwen", "selected"], "session_hash": "s"}),  # more than data: Gradio's
        ("search", {"data": ["qwen"]}),  # too few values (ShortCalls fills them, in front of this)
        ("search", {"data": ["qwen", "selected", "extra"]}),
        ("search", {"data": "qwen"}),
        ("search", [1, 2]),
        ("search", {"data": [1, "selected"]}),  # refused (not a string): Gradio answers the error
        ("broken", {"data": ["x"]}),  # fails: Gradio answers the error
        ("unknown", {"data": []}),  # not a named endpoint
    ],
)
def test_what_it_cannot_answer_reaches_gradio_with_its_body(name, body):
    sent = json.dumps(body)
    answer = app(Endpoints()).post(f"/gradio_api/call/{name}", content=sent).json()
    assert answer == {"reached": "gradio", "path": f"/gradio_api/call/{name}", "body": sent}


def test_a_body_that_is_not_json_reaches_gradio():
    answer = app(Endpoints()).post("/gradio_api/call/search", content=b"\xff{").json()
    assert answer["reached"] == "gradio"


def test_past_the_calls_at_once_the_next_waits_in_gradios_queue():
    endpoints = Endpoints()
    endpoints.release.clear()
    client = app(endpoints, at_once=1)
    answers: list[dict] = []
    first = threading.Thread(
        target=lambda: answers.append(client.post("/gradio_api/call/search", json={"data": ["a", "b"]}).json())
    )
    first.start()
    try:
        assert endpoints.entered.wait(5)  # the first call holds the one slot
        second = client.post("/gradio_api/call/search", json={"data": ["c", "d"]}).json()
    finally:
        endpoints.release.set()
        first.join(10)
    assert second["reached"] == "gradio"
    assert "event_id" in answers[0]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_kept_results_expire_unread():
    clock = Clock()
    kept = direct_calls.Kept(seconds=60, budget=1000, clock=clock)
    old = kept.add(b"x" * 10)
    clock.now = 30
    newer = kept.add(b"y" * 10)
    clock.now = 61
    assert old is not None and kept.take(old) is None  # expired
    assert newer is not None and kept.take(newer) == b"y" * 10
    assert kept.weight == 0


def test_kept_results_stay_within_their_budget_and_the_rest_go_to_gradio():
    kept = direct_calls.Kept(seconds=60, budget=100, clock=Clock())
    first = kept.add(b"x" * 60)
    assert first is not None and kept.add(b"y" * 60) is None  # over the budget: not kept
    assert kept.take(first) == b"x" * 60 and kept.add(b"y" * 60) is not None  # read: room again
    client = app(Endpoints(), kept=direct_calls.Kept(seconds=60, budget=10, clock=Clock()))
    assert client.post("/gradio_api/call/search", json={"data": ["a", "b"]}).json()["reached"] == "gradio"
