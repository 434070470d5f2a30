"""`components/web/patches/unread.py`: results no one reads are dropped; results read in time are not."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import httpx
import pytest

import app
from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.rankings_store import RankingsStore
from components.web import server
from components.web.patches import unread
from tests.helpers import ROOT, call, free_port


def queue(running: set[str], pending: dict[str, set[str]]) -> SimpleNamespace:
    return SimpleNamespace(
        event_ids_to_events={event_id: object() for event_id in running},
        pending_event_ids_session=pending,
        pending_messages_per_session={session: ["messages"] for session in pending},
    )


def test_a_session_whose_results_wait_unread_is_dropped_after_the_delay():
    q = queue(running={"e-run"}, pending={"abandoned": {"e1"}, "busy": {"e2", "e-run"}, "browser": set()})
    waiting: dict[str, float] = {}
    assert unread.forget_unread(q, waiting, now=100.0, unread_seconds=60) == 0
    assert waiting == {"abandoned": 100.0}
    assert unread.forget_unread(q, waiting, now=159.0, unread_seconds=60) == 0
    assert unread.forget_unread(q, waiting, now=160.0, unread_seconds=60) == 1
    assert set(q.pending_event_ids_session) == {"busy", "browser"} and "abandoned" not in q.pending_messages_per_session
    assert waiting == {}


def test_a_session_read_or_busy_again_is_forgotten_by_the_sweep():
    q = queue(running=set(), pending={"a": {"e1"}, "b": {"e2"}})
    waiting: dict[str, float] = {}
    unread.forget_unread(q, waiting, now=0.0, unread_seconds=60)
    assert set(waiting) == {"a", "b"}
    q.pending_event_ids_session.pop("a")  # its result was read
    q.event_ids_to_events["e3"] = object()
    q.pending_event_ids_session["b"].add("e3")  # a new call of the same session is running
    assert unread.forget_unread(q, waiting, now=100.0, unread_seconds=60) == 0
    assert waiting == {} and set(q.pending_event_ids_session) == {"b"}


@pytest.fixture
def quick_app(monkeypatch):
    monkeypatch.setattr(unread, "SWEEP_EVERY", 0.2)
    monkeypatch.setattr(unread, "UNREAD_SECONDS", 1.5)
    datasets = DatasetStore(str(ROOT / "data" / "sample"))
    datasets.begin()
    rankings = RankingsStore(ROOT / "data" / "rankings_snapshot.json", live=False)
    rankings.begin()
    port = free_port()
    sources = Sources(datasets, rankings)
    running = server.start(app.build(sources), sources, port=port)
    demo = running.demo
    yield demo, f"http://127.0.0.1:{port}"
    running.stop()


def test_the_launched_app_drops_results_left_unread_and_serves_those_read(quick_app, capfd):
    demo, url = quick_app
    pending = demo._queue.pending_event_ids_session
    with httpx.Client(base_url=url, timeout=30) as client:
        ids = [
            client.post("/gradio_api/call/search", json={"data": ["", "selected", "", "", ""]}).json()["event_id"]
            for _ in range(30)
        ]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and sum(1 for s in pending.values() if s) < 30:
            time.sleep(0.05)
        assert sum(1 for s in pending.values() if s) >= 30  # finished, unread
        time.sleep(0.5)
        assert call(client, "search", query="qwen3 0.6b", view="selected", task="", neuronx_cc="", library_version="")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(pending.values()):
            time.sleep(0.1)
        assert not any(pending.values())
        late = client.get(f"/gradio_api/call/search/{ids[0]}").text
        assert late == f"event: error\ndata: {json.dumps(unread.NO_RESULT)}\n\n"  # told, without a traceback
        rows = call(client, "search", query="qwen3 0.6b", view="selected", task="", neuronx_cc="", library_version="")
        assert rows[0]["model_id"] == "Qwen/Qwen3-0.6B"
        stream = client.get("/gradio_api/queue/data", params={"session_hash": "no-such-session"}).text
        assert json.loads(stream.removeprefix("data: "))["session_not_found"] is True
    assert "Traceback" not in capfd.readouterr().err
