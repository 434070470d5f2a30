"""`DirectCallMiddleware`: a named endpoint over plain HTTP answered beside Gradio's queue, once, refusals and failures
included; only a body Gradio refuses itself is left to what is behind it (here a stand-in that says it was
reached). The same calls against the real app, against Gradio's queue: tests/e2e/test_api.py."""

from __future__ import annotations

import dataclasses
import json
import threading
import time

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from components.queries import argument_types
from components.runtime import settings
from components.web.gradio import direct_calls


@argument_types.check_arguments
class Endpoints:
    def __init__(self):
        self.asked: list[str | None] = []
        self.entered, self.release = threading.Event(), threading.Event()
        self.started = 0
        self.release.set()

    def search(self, query: str, view: str = "selected") -> list[dict]:
        self.started += 1
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


def app(
    endpoints: Endpoints, kept: direct_calls.UnreadResults | None = None, at_once: int = 4, waiting: int = 100
) -> TestClient:
    named = {name: getattr(endpoints, name) for name in ("search", "lookup", "broken")}
    routes = [Route("/gradio_api/call/{rest:path}", behind, methods=["GET", "POST"])]
    middleware = [
        Middleware(direct_calls.DirectCallMiddleware, endpoints=named, at_once=at_once, kept=kept, waiting=waiting)
    ]
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
    ("name", "body", "error"),
    [
        ("search", {"data": ["qwen", "selected"], "session_hash": "s"}, None),  # a session changes nothing
        ("search", {"data": ["qwen", "selected", "extra"]}, "search: 2 arguments wanted, 3 given"),
        ("search", {"data": [1, "selected"]}, "search: the argument query must be a string, not a number"),
        ("search", {"data": ["\ud800", "selected"]}, argument_types.not_encodable("search", "query")),
        ("broken", {"data": ["x"]}, None),  # fails: Gradio's `{"error": null}`
    ],
)  # fmt: skip
def test_a_refusal_or_a_failure_is_answered_here_as_gradios_error_event(name, body, error):
    client = app(Endpoints())
    posted = client.post(f"/gradio_api/call/{name}", content=json.dumps(body)).json()  # ASCII: a lone surrogate escaped
    assert "reached" not in posted  # run once, here: never handed to the queue to run again
    stream = client.get(f"/gradio_api/call/{name}/{posted['event_id']}").text
    if name == "broken":
        assert stream == 'event: error\ndata: {"error": null}\n\n'
    elif error is None:
        assert stream.startswith("event: complete\n")
    else:
        payload = {"error": error, "duration": 10, "visible": True, "title": "Error"}  # what Gradio sends for gr.Error
        assert stream == f"event: error\ndata: {json.dumps(payload)}\n\n"


def test_the_v2_form_takes_the_arguments_by_name():
    client = app(Endpoints())
    event_id = client.post("/gradio_api/call/v2/search", json={"query": "q"}).json()["event_id"]
    assert client.get(f"/gradio_api/call/search/{event_id}").text == (
        'event: complete\ndata: [[{"model_id": "q", "view": "selected"}]]\n\n'
    )
    event_id = client.post("/gradio_api/call/v2/search", json={"query": "q", "bogus": 1}).json()["event_id"]
    assert "search: no argument named 'bogus'" in client.get(f"/gradio_api/call/search/{event_id}").text


@pytest.mark.parametrize("name", ["unknown", "z" * 5000])
def test_a_name_that_is_no_named_endpoint_is_a_short_404(name):
    answer = app(Endpoints()).post(f"/gradio_api/call/{name}", json={"data": []})
    assert answer.status_code == 404
    assert answer.json()["error"].endswith("the named endpoints are /search, /lookup, /broken")
    assert len(answer.json()["error"]) < 200


@pytest.mark.parametrize("body", [b"\xff{", b"[1, 2]", b'{"data": "qwen"}'])
def test_a_body_gradio_refuses_itself_reaches_it(body):
    answer = app(Endpoints()).post("/gradio_api/call/search", content=body).json()
    assert answer["reached"] == "gradio"


def test_past_the_calls_at_once_the_next_waits_its_turn_here():
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
        second = threading.Thread(
            target=lambda: answers.append(client.post("/gradio_api/call/search", json={"data": ["c", "d"]}).json())
        )
        second.start()
    finally:
        endpoints.release.set()
        first.join(10)
        second.join(10)
    assert len(answers) == 2 and all("event_id" in a for a in answers)


def test_large_calls_never_take_every_slot(monkeypatch):
    monkeypatch.setattr(settings, "LARGE_CALLS", dataclasses.replace(settings.LARGE_CALLS, value=1))
    endpoints = Endpoints()
    endpoints.release.clear()
    large = {"data": ["x" * (settings.LARGE_CALL_BODY.value + 1), "selected"]}
    with app(endpoints, at_once=2) as client:  # one event loop for every call, as a server has
        held = [threading.Thread(target=lambda: client.post("/gradio_api/call/search", json=large)) for _ in range(2)]
        held[0].start()
        try:
            assert endpoints.entered.wait(5)  # the first large call runs and holds its slot
            held[1].start()  # the second waits for the large calls' one slot, not for a worker thread
            small: list[dict] = []
            asking = threading.Thread(
                target=lambda: small.append(client.post("/gradio_api/call/lookup", json={"data": ["org/m"]}).json())
            )
            asking.start()
            asking.join(4)  # the held search lets its slot go after 5 s: a lookup waiting for it is not back yet
            assert small and "event_id" in small[0] and endpoints.started == 1  # answered beside both large calls
        finally:
            endpoints.release.set()
            for thread in held:
                thread.join(10)
    assert endpoints.started == 2


def test_past_the_calls_waiting_the_next_hears_the_queue_is_full():
    endpoints = Endpoints()
    endpoints.release.clear()
    client = app(endpoints, at_once=1, waiting=1)
    first = threading.Thread(target=lambda: client.post("/gradio_api/call/search", json={"data": ["a", "b"]}))
    first.start()
    try:
        assert endpoints.entered.wait(5)
        full = client.post("/gradio_api/call/search", json={"data": ["c", "d"]})
    finally:
        endpoints.release.set()
        first.join(10)
    assert full.status_code == 503 and full.json()["detail"].startswith("Queue is full.")


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_kept_results_expire_unread():
    clock = Clock()
    kept = direct_calls.UnreadResults(seconds=60, budget=1000, clock=clock)
    old = kept.add(b"x" * 10)
    clock.now = 30
    newer = kept.add(b"y" * 10)
    clock.now = 61
    assert old is not None and kept.take(old) is None  # expired
    assert newer is not None and kept.take(newer) == b"y" * 10
    assert kept.weight == 0


def test_past_the_budget_the_oldest_kept_results_go_first():
    kept = direct_calls.UnreadResults(seconds=60, budget=100, clock=Clock())
    first = kept.add(b"x" * 60)
    second = kept.add(b"y" * 60)  # over the budget: the oldest goes
    assert kept.take(first) is None and kept.take(second) == b"y" * 60 and kept.dropped == 1
    huge = kept.add(b"z" * 500)  # over the whole budget: an error event saying so, not the answer
    assert (kept.take(huge) or b"").startswith(b'event: error\ndata: {"error": "the answer is')


def test_kept_results_expire_with_no_call_after_them():
    """The sweep drops an expired result by itself (the first version waited for the next call to look)."""
    kept = direct_calls.UnreadResults(seconds=0.2, budget=1000)
    with app(Endpoints(), kept=kept) as client:  # the event loop runs on between calls, as a server's does
        client.post("/gradio_api/call/search", json={"data": ["a", "b"]})
        assert kept.weight > 0
        deadline = time.monotonic() + 10
        while kept.results and time.monotonic() < deadline:
            time.sleep(0.05)
    assert not kept.results and kept.weight == 0
