"""What routes and middleware share (`asgi.py`): the path without `root_path`, the JSON answer, the refusal log."""

from __future__ import annotations

import json
import logging
import time

import pytest
from starlette.requests import ClientDisconnect

from components.web import asgi
from tests.helpers import run_async


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def wait_for(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def refusal_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]


@pytest.mark.parametrize(
    ("path", "root", "relative"),
    [("/proxy/api/v1/stacks", "/proxy", "/api/v1/stacks"), ("/proxy", "/proxy", "/"), ("/a", "", "/a"),
     ("/elsewhere", "/proxy", "/elsewhere"), ("", "", "/")],
)  # fmt: skip
def test_the_path_is_read_without_the_root_path(path, root, relative):
    assert asgi.relative_path({"path": path, "root_path": root}) == relative


def test_the_answer_is_json_and_closes_unless_told():
    sent = []

    async def send(message):
        sent.append(message)

    run_async(asgi.answer(send, 413, "request body over 1 MB"))
    run_async(asgi.answer(send, 500, "internal error", close=False))
    assert [m.get("status") for m in sent] == [413, None, 500, None]
    assert json.loads(sent[1]["body"]) == {"error": "request body over 1 MB"}
    assert (b"connection", b"close") in sent[0]["headers"] and (b"connection", b"close") not in sent[2]["headers"]
    assert dict(sent[0]["headers"])[b"content-length"] == str(len(sent[1]["body"])).encode()


def test_refused_calls_are_logged_a_few_a_minute_then_counted(caplog):
    caplog.set_level(logging.INFO, logger="components.web.asgi")
    clock = Clock()
    refusals = asgi.RefusalLog(shown=3, window=60.0, clock=clock)
    for i in range(200):
        refusals.refused("with a wrong X-Webhook-Secret" if i % 4 else "without the X-Webhook-Secret header")
    assert len(refusal_lines(caplog)) == 3
    refusals.flush()
    lines = refusal_lines(caplog)
    assert len(lines) == 4 and lines[-1].startswith("webhook: 197 more refused calls in the last minute")
    assert "148 with a wrong X-Webhook-Secret" in lines[-1] and "49 without the X-Webhook-Secret header" in lines[-1]
    refusals.flush()
    clock.now += 61
    refusals.refused("with a wrong X-Webhook-Secret")
    assert len(refusal_lines(caplog)) == 5  # a new minute: logged again, nothing left to count


def test_the_count_is_logged_when_the_minute_ends_without_another_call(caplog):
    caplog.set_level(logging.INFO, logger="components.web.asgi")
    refusals = asgi.RefusalLog(shown=1, window=0.3)
    for _ in range(5):
        refusals.refused("with a wrong X-Webhook-Secret")
    assert wait_for(lambda: any("4 more refused calls" in line for line in refusal_lines(caplog)), 3)


def test_a_body_is_read_whole_from_its_chunks_none_past_its_limit_and_a_disconnect_when_the_client_left():
    def receiving(*messages):
        queue = list(messages)

        async def receive():
            return queue.pop(0)

        return receive

    chunks = receiving(
        {"type": "http.request", "body": b"ab", "more_body": True},
        {"type": "http.request", "body": b"cd", "more_body": False},
    )
    assert run_async(asgi.read_body(chunks)) == b"abcd"
    left = receiving({"type": "http.request", "body": b"ab", "more_body": True}, {"type": "http.disconnect"})
    with pytest.raises(ClientDisconnect):
        run_async(asgi.read_body(left))
    over = receiving(
        {"type": "http.request", "body": b"abc", "more_body": True},
        {"type": "http.request", "body": b"de", "more_body": False},
    )
    assert run_async(asgi.read_body(over, limit=4)) is None
