"""`components/web/gradio/patches/unread.py`: results no one reads are dropped; results read in time are not."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import uuid
from types import SimpleNamespace

import httpx
import pytest

import app
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.rankings_store import RankingsStore
from components.web.gradio import mount
from components.web.gradio.patches import unread
from tests.helpers import ROOT, call, free_port


def queue(running: set[str], pending: dict[str, set[str]], rows: int = 0) -> SimpleNamespace:
    """Gradio's queue as the sweep reads it; each session's result a search answer of `rows` rows."""
    messages = {}
    for session in pending:
        messages[session] = asyncio.Queue()
        messages[session].put_nowait(SimpleNamespace(output={"data": [[{"model_id": "org/m"}] * rows]}))
    return SimpleNamespace(
        event_ids_to_events={event_id: object() for event_id in running},
        pending_event_ids_session=pending,
        pending_messages_per_session=messages,
    )


def test_a_session_whose_results_wait_unread_is_dropped_after_the_delay():
    q = queue(running={"e-run"}, pending={"abandoned": {"e1"}, "busy": {"e2", "e-run"}, "browser": set()})
    waiting: dict[str, unread.Waiting] = {}
    assert unread.forget_unread(q, waiting, now=100.0, unread_seconds=60) == (0, 0)
    assert list(waiting) == ["abandoned"] and waiting["abandoned"].since == 100.0
    assert unread.forget_unread(q, waiting, now=159.0, unread_seconds=60) == (0, 0)
    assert unread.forget_unread(q, waiting, now=160.0, unread_seconds=60) == (1, 0)
    assert set(q.pending_event_ids_session) == {"busy", "browser"} and "abandoned" not in q.pending_messages_per_session
    assert waiting == {}


def test_a_session_read_or_busy_again_is_forgotten_by_the_sweep():
    q = queue(running=set(), pending={"a": {"e1"}, "b": {"e2"}})
    waiting: dict[str, unread.Waiting] = {}
    unread.forget_unread(q, waiting, now=0.0, unread_seconds=60)
    assert set(waiting) == {"a", "b"}
    q.pending_event_ids_session.pop("a")  # its result was read
    q.event_ids_to_events["e3"] = object()
    q.pending_event_ids_session["b"].add("e3")  # a new call of the same session is running
    assert unread.forget_unread(q, waiting, now=100.0, unread_seconds=60) == (0, 0)
    assert waiting == {} and set(q.pending_event_ids_session) == {"b"}


def test_past_the_budget_the_oldest_unread_results_go_first():
    q = queue(running=set(), pending={f"s{i}": {f"e{i}"} for i in range(10)}, rows=1000)
    size = unread.result_bytes(q.pending_messages_per_session["s0"])
    assert size == len(json.dumps({"data": [[{"model_id": "org/m"}] * 1000]}, separators=(",", ":")))
    waiting: dict[str, unread.Waiting] = {}
    assert unread.forget_unread(q, waiting, now=0.0, budget=4 * size) == (0, 6)
    assert set(q.pending_event_ids_session) == set(q.pending_messages_per_session) == {"s6", "s7", "s8", "s9"}
    q.pending_event_ids_session |= {"late": {"e-late"}}  # a new result: the oldest left goes
    q.pending_messages_per_session["late"] = q.pending_messages_per_session["s9"]
    assert unread.forget_unread(q, waiting, now=1.0, budget=4 * size) == (0, 1)
    assert set(waiting) == {"s7", "s8", "s9", "late"}
    assert unread.forget_unread(q, waiting, now=60.5, budget=4 * size) == (3, 0)  # then time, as before
    assert set(waiting) == {"late"}


# A call Gradio's queue takes: plain calls are answered beside it (`web/gradio/direct_calls.py`, whose kept
# results have their own bounds: tests/web/gradio/test_direct_calls.py); `queue/join`, the route of a page's
# events and gradio_client, goes through it, here one session per call.
def queued(fn_index: int) -> dict:
    return {"data": ["", "selected", "", "", ""], "fn_index": fn_index, "session_hash": uuid.uuid4().hex}


def search_index(client: httpx.Client) -> int:
    return next(d["id"] for d in client.get("/config").json()["dependencies"] if d.get("api_name") == "search")


@pytest.fixture
def quick_app(monkeypatch):
    monkeypatch.setattr(settings, "UNREAD_SWEEP_EVERY", dataclasses.replace(settings.UNREAD_SWEEP_EVERY, value=0.2))
    monkeypatch.setattr(
        settings, "UNREAD_AGE", dataclasses.replace(settings.UNREAD_AGE, value=5)
    )  # long enough for 30 calls to be unread at once on a busy CI
    datasets = DatasetStore(str(ROOT / "data" / "sample"))
    datasets.begin()
    rankings = RankingsStore(ROOT / "data" / "rankings_snapshot.json", live=False)
    rankings.begin()
    port = free_port()
    sources = Sources(datasets, rankings)
    running = mount.start(app.build(sources), sources, port=port)
    demo = running.demo
    yield demo, f"http://127.0.0.1:{port}"
    running.stop()


def test_the_launched_app_drops_results_left_unread_and_serves_those_read(quick_app, capfd, monkeypatch):
    demo, url = quick_app
    pending = demo._queue.pending_event_ids_session
    with httpx.Client(base_url=url, timeout=30) as client:
        ids = [
            client.post("/gradio_api/queue/join", json=queued(search_index(client))).json()["event_id"]
            for _ in range(30)
        ]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and sum(1 for s in pending.values() if s) < 30:
            time.sleep(0.05)
        assert sum(1 for s in pending.values() if s) >= 30  # finished, unread
        assert call(client, "search", query="qwen3 0.6b", view="selected", task="", neuronx_cc="", library_version="")
        monkeypatch.setattr(
            settings, "UNREAD_AGE", dataclasses.replace(settings.UNREAD_AGE, value=0)
        )  # their time is up, without waiting for it: the next sweep
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(pending.values()):
            time.sleep(0.1)
        assert not any(pending.values())
        monkeypatch.setattr(
            settings, "UNREAD_AGE", dataclasses.replace(settings.UNREAD_AGE, value=5)
        )  # a result read at once is kept until it is read
        late = client.get(f"/gradio_api/call/search/{ids[0]}").text
        assert late == f"event: error\ndata: {json.dumps(unread.NO_RESULT)}\n\n"  # told, without a traceback
        rows = call(client, "search", query="qwen3 0.6b", view="selected", task="", neuronx_cc="", library_version="")
        assert rows[0]["model_id"] == "Qwen/Qwen3-0.6B"
        stream = client.get("/gradio_api/queue/data", params={"session_hash": "no-such-session"}).text
        assert json.loads(stream.removeprefix("data: "))["session_not_found"] is True
    assert "Traceback" not in capfd.readouterr().err


def test_the_launched_app_keeps_unread_results_within_the_budget_oldest_dropped_first(quick_app, monkeypatch, caplog):
    demo, url = quick_app
    monkeypatch.setattr(
        settings, "UNREAD_AGE", dataclasses.replace(settings.UNREAD_AGE, value=600.0)
    )  # only the budget drops results here
    pending = demo._queue.pending_event_ids_session
    with httpx.Client(base_url=url, timeout=30) as client:
        first = client.post("/gradio_api/queue/join", json=queued(search_index(client))).json()["event_id"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and first in demo._queue.event_ids_to_events:
            time.sleep(0.05)
        one = unread.result_bytes(demo._queue.pending_messages_per_session[next(iter(pending))])
        assert one > 1000  # every row of the newest stack
        monkeypatch.setattr(settings, "UNREAD_BYTES", dataclasses.replace(settings.UNREAD_BYTES, value=5 * one))
        ids = [
            client.post("/gradio_api/queue/join", json=queued(search_index(client))).json()["event_id"]
            for _ in range(40)
        ]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (ids[-1] in demo._queue.event_ids_to_events or len(pending) > 5):
            time.sleep(0.1)
        assert len(pending) <= 5  # 41 unread results, at most five kept
        late = client.get(f"/gradio_api/call/search/{first}").text
        assert late == f"event: error\ndata: {json.dumps(unread.NO_RESULT)}\n\n" and "expired" in late
        newest = client.get(f"/gradio_api/call/search/{ids[-1]}").text
        assert "event: complete" in newest and "Qwen/Qwen3-0.6B" in newest  # the newest are still there
    lines = [r.getMessage() for r in caplog.records if "unread results over" in r.getMessage()]
    assert len(lines) == 1, lines  # one line, however many were dropped
