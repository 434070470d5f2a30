"""`POST /webhooks/dataset`: secrets, bursts, bad bodies, and a launched app that serves a new file at once."""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import httpx
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.runtime import settings
from components.sources import dataset_store, refresh
from components.web.routes import webhook
from tests.helpers import Server, call, row, write

SECRET = "s3cret-for-tests"
# The bursts' window: it ends when a test says so (`Window.end`), however long the calls take
WINDOW = 6.0
PAYLOAD = {"event": {"action": "update", "scope": "repo.content"}, "repo": {"type": "dataset", "name": "a/b"}}


class Reads(refresh.RefreshingStore[int]):
    """A source that counts the refreshes asked of it and its reads; each read waits on `gate` so a burst
    arrives while one runs. The route asks for a refresh before it answers, so once a call is answered,
    `requested` says whether it asked: no waiting to see that nothing happened."""

    source_name = "dataset"

    def __init__(self):
        super().__init__(periodic=False, read_timeout=20)
        self.gate = threading.Event()
        self.requested = 0
        self.reads = 0
        self.running = 0
        self.most = 0
        self._swap(0)

    def request_refresh(self) -> bool:
        self.requested += 1
        return super().request_refresh()

    def idle(self) -> bool:
        """Every refresh asked for has been read, and the refresh thread waits with none queued (it sets
        no next attempt when nothing is pending and the source is not periodic)."""
        status = self.source_status()
        return not self.refresh_pending() and not status.refreshing and status.next_attempt_at is None

    def read(self) -> int:
        self.reads += 1
        self.running += 1
        self.most = max(self.most, self.running)
        self.gate.wait(10)
        self.running -= 1
        return self.reads


@pytest.fixture
def source(monkeypatch):
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    reads = Reads()
    yield reads
    reads.gate.set()
    reads.stop()


def client_for(source, secret=SECRET, window=settings.WEBHOOK_DEBOUNCE.value) -> TestClient:
    return TestClient(Starlette(routes=webhook.routes(source, secret=secret, window=window)))


def post(client, headers=None, **kwargs):
    return client.post(webhook.PATH, headers=headers if headers is not None else {webhook.HEADER: SECRET}, **kwargs)


def wait_for(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_the_right_secret_starts_a_refresh(source):
    answer = post(client_for(source), json=PAYLOAD)
    assert answer.status_code == 202 and answer.json() == {"refresh": "queued"}
    assert wait_for(lambda: source.reads == 1)


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ({webhook.HEADER: "wrong"}, 403), ({webhook.HEADER: SECRET + "x"}, 403), ({webhook.HEADER: ""}, 403)],
)
def test_a_missing_or_wrong_secret_is_refused_and_reads_nothing(source, headers, status):
    assert post(client_for(source), headers=headers, json=PAYLOAD).status_code == status
    assert source.requested == 0 and source.reads == 0


@pytest.mark.parametrize("secret", ["", None])
def test_without_webhook_secret_the_route_is_off(source, monkeypatch, secret):
    monkeypatch.delenv("WEBHOOK_SECRET", raising=False)
    assert post(client_for(source, secret=secret), json=PAYLOAD).status_code == 404
    assert source.requested == 0 and source.reads == 0


class Window:
    """The throttle's clock and timer, moved on by the test: the calls of a burst all land inside the window,
    however long a busy machine takes to make them, and the trailing refresh comes when `end` says the window
    is over, with no wait for it."""

    def __init__(self):
        self.clock = Clock()
        self.held: list[Window.Timer] = []

    def timer(self, interval: float, function) -> Window.Timer:
        return Window.Timer(self, interval, function)

    class Timer:
        """`threading.Timer` as `webhook.Throttle` uses it, held until `Window.end`."""

        def __init__(self, window: Window, interval: float, function):
            self.window, self.interval, self.function, self.daemon = window, interval, function, False

        def start(self) -> None:
            self.window.held.append(self)

    def end(self) -> None:
        """The window is over: the clock moves past it and each held timer fires."""
        self.clock.ahead += max(timer.interval for timer in self.held)
        fired, self.held = self.held, []
        for timer in fired:
            timer.function()


@pytest.fixture
def window(monkeypatch):
    moved = Window()
    monkeypatch.setattr(webhook, "Throttle", functools.partial(webhook.Throttle, clock=moved.clock))
    monkeypatch.setattr(webhook, "threading", SimpleNamespace(Lock=threading.Lock, Timer=moved.timer))
    return moved


def test_a_flood_of_calls_runs_one_refresh_at_a_time_with_one_more_queued(source, window):
    client = client_for(source, window=WINDOW)
    assert post(client, json=PAYLOAD).status_code == 202
    assert wait_for(lambda: source.reads == 1)
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda _: post(client, json=PAYLOAD).status_code, range(200)))
    assert statuses == [202] * 200
    assert len(window.held) == 1, "the calls after the first merge into one trailing refresh"
    source.gate.set()
    window.end()
    assert wait_for(lambda: source.reads == 2 and source.idle(), WINDOW + 5)
    assert source.requested == 2 and source.reads == 2 and source.most == 1 and source.current() == 2


def test_calls_after_a_quick_refresh_merge_into_one_trailing_refresh(source, window):
    """A local refresh takes milliseconds: calls that arrive after it ended, within the window, still merge."""
    source.gate.set()  # every read returns at once
    client = client_for(source, window=WINDOW)
    assert post(client, json=PAYLOAD).status_code == 202
    assert source.requested == 1  # the first call asks at once, before it is answered
    assert wait_for(lambda: source.reads == 1 and source.idle())
    statuses = [post(client, json=PAYLOAD).status_code for _ in range(100)]
    assert len(window.held) == 1, "the calls merge into one trailing refresh"
    assert statuses == [202] * 100 and source.requested == 1  # merged, none asked yet
    window.end()
    assert wait_for(lambda: source.reads == 2 and source.idle(), WINDOW + 5)
    assert source.requested == 2 and source.reads == 2


class Clock:
    """`time.monotonic` moved on by hand: a quiet spell or a second between webhooks without waiting for it."""

    def __init__(self):
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


def test_a_call_after_a_quiet_spell_refreshes_at_once(source):
    source.gate.set()
    clock = Clock()
    throttle = webhook.Throttle(source, settings.WEBHOOK_DEBOUNCE.value, clock)
    assert throttle.call() == "now" and source.requested == 1
    assert wait_for(lambda: source.reads == 1 and source.idle())
    clock.ahead += settings.WEBHOOK_DEBOUNCE.value  # a quiet spell as long as the spacing
    assert throttle.call() == "now" and source.requested == 2  # asked before the call returned: no wait
    assert wait_for(lambda: source.reads == 2 and source.idle())


def test_a_change_whose_webhook_follows_the_last_refresh_is_served_within_the_spacing(tmp_path, monkeypatch):
    """Issue 61: with a 10 s window a change whose webhook came 1 s after the previous refresh waited 9 s more."""
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    write(tmp_path / "a.parquet", [row("org/first")])
    store = dataset_store.DatasetStore(str(tmp_path), check_seconds=0)  # no looks: only the webhook reads
    store.start()
    try:
        clock = Clock()
        throttle = webhook.Throttle(store, settings.WEBHOOK_DEBOUNCE.value, clock)
        write(tmp_path / "b.parquet", [row("org/second")])
        assert throttle.call() == "now"
        assert wait_for(lambda: store.current().canonical_model_id("org/second"))
        write(tmp_path / "c.parquet", [row("org/third")])
        clock.ahead += 1.0  # the next webhook comes 1 s after the previous refresh
        assert throttle.call() == "trailing"
        assert wait_for(lambda: store.current().canonical_model_id("org/third"), settings.WEBHOOK_DEBOUNCE.value + 1.5)
    finally:
        store.stop()


@pytest.mark.parametrize(
    ("body", "status", "logged"),
    [
        (b"<html>not json", 400, "not JSON"),
        (b"\xff\xfe\x00", 400, "not JSON"),
        (b"[" * (settings.WEBHOOK_BODY.value + 1), 413, "over 64 KB"),
    ],
)
def test_a_bad_body_is_refused_with_a_log_line_and_the_data_stays(source, caplog, body, status, logged):
    caplog.set_level(logging.INFO, logger="components.web.routes.webhook")
    answer = post(
        client_for(source), headers={webhook.HEADER: SECRET, "content-type": "application/json"}, content=body
    )
    assert answer.status_code == status
    assert any(logged in r.getMessage() for r in caplog.records)
    assert source.requested == 0 and source.reads == 0 and source.current() == 0


@pytest.mark.parametrize(
    ("body", "logged"),
    [
        (b"[" * 30_000 + b"]" * 30_000, "nested too deeply"),
        (b'{"event": ' * 5_000 + b"1" + b"}" * 5_000, "nested too deeply"),
        (b"[1, 2]", "no event scope and action"),
        (b'{"event": "update"}', "no event scope and action"),
        (b'{"event": {"scope": ["repo"], "action": "update"}}', "no event scope and action"),
        (b'{"repo": {"name": "a/b"}}', "no event scope and action"),
    ],
)
def test_json_the_webhook_cannot_use_is_a_400(source, caplog, body, logged):
    caplog.set_level(logging.INFO, logger="components.web.routes.webhook")
    answer = post(client_for(source), headers={webhook.HEADER: SECRET}, content=body)
    assert answer.status_code == 400 and answer.json()["error"].startswith("the body is")
    assert [r.getMessage() for r in caplog.records if logged in r.getMessage()]
    assert source.requested == 0 and source.reads == 0


def test_payload_values_are_logged_escaped_on_one_line(source, caplog):
    caplog.set_level(logging.INFO, logger="components.web.routes.webhook")
    forged = "repo\nWARNING forged.logger: FORGED LINE\r\u2028\x1b[31m" + "x" * 500
    payload = {"event": {"scope": forged, "action": "update"}}
    assert post(client_for(source), content=json.dumps(payload).encode()).status_code == 202
    (line,) = [r.getMessage() for r in caplog.records if "refresh requested" in r.getMessage()]
    assert "FORGED LINE" in line and not any(c in line for c in "\n\r\u2028\x1b"), line
    assert "'update'" in line and len(line) < 300


def refusal_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]


def test_a_flood_of_wrong_secrets_adds_a_few_log_lines(source, caplog):
    caplog.set_level(logging.INFO, logger="components.web.routes.webhook")
    client = client_for(source)
    statuses = {post(client, headers={webhook.HEADER: f"guess-{i}"}, json=PAYLOAD).status_code for i in range(200)}
    assert statuses == {403} and len(refusal_lines(caplog)) <= settings.REFUSALS_SHOWN.value + 1


def test_a_huge_body_sent_in_chunks_without_a_length_is_cut_off(source):
    def chunks():
        for _ in range(100):
            yield b"x" * 4096

    answer = post(client_for(source), content=chunks())
    assert answer.status_code == 413 and source.requested == 0 and source.reads == 0


def test_offline_the_webhook_says_refreshes_are_off(source, monkeypatch):
    hub = Reads()
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", True)
    assert post(client_for(hub), json=PAYLOAD).status_code == 503


# ---- the launched app ----------------------------------------------------------------------------------


def test_a_new_file_in_a_local_dataset_is_served_seconds_after_the_webhook(tmp_path):
    folder = tmp_path / "data"
    write(folder / "a.parquet", [row("org/old-model")])
    server = Server("--dataset", str(folder), env={"WEBHOOK_SECRET": SECRET}).wait()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            before = call(client, "lookup", model_id="org/new-model", neuronx_cc="", library_version="")
            assert before["result"] == "not tested"
            write(folder / "b.parquet", [row("org/new-model", result="FAIL")])
            assert client.post(webhook.PATH, json=PAYLOAD).status_code == 401
            assert client.post(webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: "nope"}).status_code == 403
            started = time.monotonic()
            answer = client.post(webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: SECRET})
            assert answer.status_code == 202
            while time.monotonic() - started < 10:
                after = call(client, "lookup", model_id="org/new-model", neuronx_cc="", library_version="")
                if after["result"] != "not tested":
                    break
                time.sleep(0.1)
            assert after["result"] == "FAIL", after
            assert (
                call(client, "lookup", model_id="org/old-model", neuronx_cc="", library_version="")["result"] == "PASS"
            )
    finally:
        server.stop()


def test_the_launched_app_without_a_secret_has_no_webhook(sample_app):
    answer = httpx.post(sample_app.url + webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: ""}, timeout=30)
    assert answer.status_code == 404
