"""The unread-results patch stands down where Gradio's queue no longer holds what it reads.
(What it does while in force: tests/hardening/test_unread.py.)"""

from __future__ import annotations

from types import SimpleNamespace

from gradio import queueing
from starlette.testclient import TestClient

from components.web.gradio.patches import unread

READS = ("/gradio_api/call/search/no-such-event", "/gradio_api/queue/data?session_hash=gone")


def client_of_an_empty_queue() -> tuple[TestClient, list[str]]:
    """`UnknownResultMiddleware` in front of a stand-in for Gradio (it answers 418) whose queue holds nothing."""
    queue = SimpleNamespace(event_ids_to_events={}, pending_event_ids_session={}, pending_messages_per_session={})
    gradio_app = SimpleNamespace(get_blocks=lambda: SimpleNamespace(_queue=queue))
    seen = []

    async def gradio(scope, receive, send):
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 418, "headers": []})
        await send({"type": "http.response.body", "body": b"gradio"})

    middleware = unread.UnknownResultMiddleware(gradio)

    async def app(scope, receive, send):  # as Starlette does: the app in the scope
        await middleware({**scope, "app": gradio_app}, receive, send)

    return TestClient(app), seen


def test_it_fits_this_gradio():
    unread.PATCH.check()


def test_in_force_it_answers_reads_of_what_the_queue_does_not_hold(monkeypatch):
    monkeypatch.setattr(unread, "DECIDED", {"on": True})
    client, seen = client_of_an_empty_queue()
    assert [client.get(path).status_code for path in READS] == [200, 200] and seen == []


def test_a_queue_without_its_locks_leaves_every_read_to_gradio(monkeypatch, caplog):
    init = queueing.Queue.__init__

    def __init__(self, *args, **kwargs):  # a Gradio whose queue keeps its sessions some other way
        init(self, *args, **kwargs)

    __init__.__qualname__ = "Queue.__init__"
    monkeypatch.setattr(queueing.Queue, "__init__", __init__)
    monkeypatch.setattr(unread, "DECIDED", {})
    client, seen = client_of_an_empty_queue()
    assert [client.get(path).status_code for path in READS] == [418, 418]
    assert seen == ["/gradio_api/call/search/no-such-event", "/gradio_api/queue/data"]
    assert unread.in_force() is False
    missing = ", ".join(sorted(unread.QUEUE_ATTRIBUTES + unread.QUEUE_LOCKS))
    lines = [r.getMessage() for r in caplog.records if r.name.endswith("guard")]
    assert lines == [f"patch unread stands down: Queue.__init__ no longer sets {missing}"]
