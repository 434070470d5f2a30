"""The Hub misbehaving: unreachable, slow past the timeout, answering 500s or garbage.

Start-up stays within a few seconds, the last good data stays served, and the page header says what
it shows and from when. In-process tests drive DatasetStore and RankingsStore through their injectable
loader and fetch; the launched-app tests point huggingface_hub at a fake Hub on 127.0.0.1 (HF_ENDPOINT),
with HF_HUB_OFFLINE unset, so the real `hf://` and `list_models` code paths meet each fault.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import httpx2
import pytest
from huggingface_hub.errors import HfHubHTTPError
from playwright.sync_api import Page, expect

from components.runtime import settings
from components.sources import dataset_store
from components.sources.app_sources import Sources
from components.sources.dataset import load
from components.sources.errors import DatasetError
from components.sources.rankings import empty_rankings
from components.sources.rankings_store import RankingsStore, fetch_live
from components.web.gradio.pages.models import ModelsPage
from tests.helpers import (
    FakeApi,
    Served,
    Server,
    call,
    fake_hub,
    free_port,
    page_opened,
    read_files,
    returns_without_waiting,
    row,
    write,
)

FAKE_TOKEN = "hf_FAKEtoken1234567890abcdefghij"
HUB_LABEL = "aws-neuron/torch-neuronx-model-support"


@pytest.fixture
def hub_folder(tmp_path):
    folder = tmp_path / "hub"
    write(folder / "h.parquet", [row("hub/model-a"), row("hub/model-b")])
    return folder


def hub_snapshot(folder):
    return load(folder, kind="hub", label=HUB_LABEL)


def http_500() -> HfHubHTTPError:
    request = httpx2.Request("GET", "https://huggingface.co/api/datasets/x")
    return HfHubHTTPError("500 Server Error: Internal Server Error", response=httpx2.Response(500, request=request))


FAULTS = {
    "unreachable": lambda: DatasetError(
        f"cannot list {HUB_LABEL} on the Hub (ConnectError: [Errno 111] Connection refused)"
    ),
    "http-500": http_500,
    "transport": lambda: httpx2.ReadTimeout("The read operation timed out"),
    "malformed-key": lambda: KeyError("siblings"),
    "malformed-type": lambda: TypeError("'NoneType' object is not iterable"),
    "json": lambda: json.JSONDecodeError("Expecting value", "<html>", 0),
    "anything": lambda: RuntimeError("the unexpected"),
}


def header(datasets, rankings=None) -> str:
    """The page header as the page load renders it."""
    if rankings is None:
        rankings = Served(empty_rankings("none"), "rankings")
    return page_opened(ModelsPage(Sources(datasets, rankings)))["header"]


# ---- the dataset: start-up ------------------------------------------------------------------------


@pytest.mark.parametrize("fault", FAULTS)
def test_any_fault_at_start_serves_the_sample_at_once_and_the_hub_is_tried_again(sample_dir, hub_folder, fault):
    calls = []

    def loader(source):
        calls.append(source)
        if len(calls) == 1:
            raise FAULTS[fault]()
        return hub_snapshot(hub_folder)

    # a start-up wait of ten minutes: start() returns inside the hang guard only if the fault ended it
    datasets = dataset_store.DatasetStore(loader=loader, startup_wait=600, refresh_seconds=0.05)
    first = returns_without_waiting(datasets.start)
    assert first.provenance.is_sample and "could not be read" in first.provenance.fallback_reason
    deadline = time.monotonic() + 5
    while datasets.current().provenance.is_sample and time.monotonic() < deadline:
        time.sleep(0.02)
    datasets.stop()
    assert datasets.current().provenance.kind == "hub"  # the refresh thread survived the fault


def test_a_hub_whose_every_file_fails_falls_back_to_the_sample(sample_dir):
    def opener(name):
        raise http_500()

    def loader(source):
        return read_files(["a.parquet", "b.parquet"], opener, source=HUB_LABEL, kind="hub")

    datasets = dataset_store.DatasetStore(loader=loader, startup_wait=5)
    snapshot = datasets.start()
    datasets.stop()
    assert snapshot.provenance.is_sample and len(snapshot) == 1
    assert "no readable rows" in snapshot.provenance.fallback_reason
    assert "HfHubHTTPError" in snapshot.provenance.fallback_reason
    assert "Sample data" in header(datasets)


def test_a_hub_slower_than_the_wait_serves_the_sample_and_says_so(sample_dir, hub_folder):
    release = threading.Event()

    def slow(source):
        release.wait(10)
        return hub_snapshot(hub_folder)

    datasets = dataset_store.DatasetStore(loader=slow, startup_wait=0.3)
    datasets.start()  # the Hub can only answer after `release`: start() gave up at its wait
    assert "did not answer within 0.3 s" in header(datasets) and not release.is_set()
    release.set()
    datasets.stop()


def wait_for(condition, seconds: float = 5.0) -> bool:
    """True once `condition()` holds (polled), False if it still does not after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


# ---- the dataset: the last good data is kept ----------------------------------------------------------


@pytest.mark.parametrize("fault", [*FAULTS, "empty", "slow"])
def test_after_good_hub_data_every_fault_keeps_it_and_the_header_says_when_it_was_read(sample_dir, hub_folder, fault):
    release = threading.Event()
    outcomes = ["good", fault]

    def loader(source):
        outcome = outcomes.pop(0)
        if outcome == "good":
            return hub_snapshot(hub_folder)
        if outcome == "empty":
            return read_files([], open, source=HUB_LABEL, kind="hub")
        if outcome == "slow":
            release.wait(10)
            raise TimeoutError("the Hub did not answer")
        raise FAULTS[outcome]()

    datasets = dataset_store.DatasetStore(loader=loader, startup_wait=5, refresh_seconds=3600)
    good = datasets.start()
    assert good.provenance.kind == "hub"
    if fault == "slow":  # readers never wait on a refresh in progress
        refresh = threading.Thread(target=datasets.refresh)
        refresh.start()
        assert wait_for(lambda: datasets.source_status().refreshing)
        assert datasets.current() is good and header(datasets)
        assert datasets.source_status().refreshing  # answered while the refresh still waits for the Hub
        release.set()
        refresh.join(5)
    else:
        assert datasets.refresh() is False
    datasets.stop()
    assert datasets.current() is good
    page_header = header(datasets)
    assert f"Live dataset {HUB_LABEL}: 2 rows" in page_header
    assert f"read from the Hub {good.provenance.loaded_at:%Y-%m-%d %H:%M} UTC" in page_header
    assert "The latest refresh failed (" in page_header and "Sample data" not in page_header


# ---- rankings --------------------------------------------------------------------------------------


def test_live_rankings_outlive_a_failing_hub_and_the_header_says_when_they_were_fetched(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    snapshot_file = tmp_path / "rankings.json"
    snapshot_file.write_text((dataset_store.SAMPLE_DIR.parent / "rankings_snapshot.json").read_text())
    outcomes = [lambda: fetch_live(FakeApi()), http_500, lambda: {"garbage": True}]

    def fetch():
        result = outcomes.pop(0)()
        if isinstance(result, Exception):
            raise result
        return result

    rankings = RankingsStore(snapshot_file, live=True, fetch=fetch, read_timeout=2)
    rankings.begin(refresh=False)
    assert rankings.refresh() is True
    live = rankings.current()
    datasets = dataset_store.DatasetStore(str(dataset_store.SAMPLE_DIR))
    datasets.start()
    for _ in range(2):
        assert rankings.refresh() is False and rankings.current() is live
        assert f"Rankings: Live Hub rankings, fetched {live.fetched_at:%Y-%m-%d %H:%M} UTC" in header(
            datasets, rankings
        )
        assert rankings.source_status().last_error and rankings.source_status().kind == "live"


# ---- the launched app against a fake Hub -------------------------------------------------------------


def hanging_hub():
    """A socket on 127.0.0.1 that accepts every connection and never answers: (endpoint, close)."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=128)
    held = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()

    def close() -> None:
        listener.close()
        for connection in held:
            connection.close()

    return f"http://127.0.0.1:{listener.getsockname()[1]}", close


@pytest.fixture
def hub_endpoint(request):
    """The HF_ENDPOINT of a fake Hub in `request.param` mode ("refused" is a port nobody listens on,
    "hang" accepts connections and never answers)."""
    mode = request.param
    if mode == "refused":
        yield f"http://127.0.0.1:{free_port()}"
        return
    if mode == "hang":
        endpoint, close = hanging_hub()
        yield endpoint
        close()
        return
    with fake_hub(mode) as endpoint:
        yield endpoint


REASONS = {
    "refused": "ConnectError",
    "500": "500",
    "slow": f"did not answer within {settings.STARTUP_WAIT.value:g} s",
    "hang": f"did not answer within {settings.STARTUP_WAIT.value:g} s",
    "garbage": "could not be read",
}


@pytest.mark.parametrize("hub_endpoint", list(REASONS), indirect=True)
def test_the_app_with_no_flags_and_a_broken_hub_serves_the_sample_within_seconds(
    hub_endpoint, request, page: Page, tmp_path
):
    mode = request.node.callspec.params["hub_endpoint"]
    # HF_HOME: huggingface_hub caches some answers on disk (a day's agent registry), and a fake Hub's
    # garbage must not end up in the real cache
    env = {"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": hub_endpoint, "HF_TOKEN": FAKE_TOKEN, "HF_HOME": str(tmp_path / "hf"),
           "SUPPORT_DATASET": "", "SUPPORT_RANKINGS": ""}  # fmt: skip
    server = Server(env=env)
    try:
        server.wait(60)  # a hang guard; within seconds is what the header's reason says: the wait ran out, or the fault
        page.goto(server.url)
        head = page.locator("#header")
        expect(head).to_contain_text("Sample data", timeout=20_000)
        expect(head).to_contain_text("not real results")
        expect(head).to_contain_text(REASONS[mode])
        expect(head).to_contain_text("Rankings: Bundled snapshot as of")
        expect(page.locator("#results [role=gridcell]").first).to_be_visible()
        html = page.content()
        assert FAKE_TOKEN not in html and "hf_FAKE" not in html
    finally:
        server.stop()


def test_a_hub_that_never_answers_adds_nothing_to_start_up_and_lookups_answer(tmp_path):
    """A fake Hub that accepts connections and never answers: the app serves the sample once the Hub's start-up
    wait has run out, and lookups answer. The start-up figures are benchmarks/cold_start.py's."""
    endpoint, close = hanging_hub()
    env = {"HF_HUB_OFFLINE": "0", "HF_ENDPOINT": endpoint, "HF_HOME": str(tmp_path / "hf"), "SUPPORT_DATASET": "",
           "SUPPORT_RANKINGS": ""}  # fmt: skip
    hanging = Server(env=env)
    try:
        hanging.wait(60)  # a hang guard: the Hub never answers, so an app that waited on it would never serve
        with httpx.Client(base_url=hanging.url, timeout=30) as client:
            # the start-up gave up on the Hub, which never answered: the sample is served (the reason, in the
            # header, is test_the_app_with_no_flags_and_a_broken_hub_serves_the_sample_within_seconds's)
            assert client.get("/readyz").json() == {"ready": True, "dataset": "sample"}
            answer = call(client, "lookup", model_id="Qwen/Qwen3-0.6B", neuronx_cc="", library_version="")
            assert answer["model_id"] == "Qwen/Qwen3-0.6B" and answer["result"] == "PASS"
            assert call(client, "stacks")
    finally:
        hanging.stop()
        close()


def test_the_header_says_how_old_the_data_is_and_when_the_live_dataset_is_a_day_old(sample_dir, hub_folder):
    import dataclasses
    from datetime import UTC, datetime, timedelta

    fresh = hub_snapshot(hub_folder)
    datasets = dataset_store.DatasetStore(loader=lambda source: fresh, startup_wait=5)
    datasets.start()
    datasets.stop()
    page_header = header(datasets)
    assert "UTC (less than a minute ago)." in page_header and "has not refreshed" not in page_header
    fresh.provenance = dataclasses.replace(fresh.provenance, loaded_at=datetime.now(UTC) - timedelta(hours=25))
    page_header = header(datasets)
    assert "UTC (25 h ago)." in page_header
    assert "The live dataset has not refreshed for 25 h" in page_header


def test_a_local_dataset_says_when_it_was_read_and_is_never_called_stale(tmp_path):
    import dataclasses
    from datetime import UTC, datetime, timedelta

    write(tmp_path / "x.parquet", [row("local/model")])
    datasets = dataset_store.DatasetStore(str(tmp_path))
    snapshot = datasets.start()
    snapshot.provenance = dataclasses.replace(snapshot.provenance, loaded_at=datetime.now(UTC) - timedelta(days=3))
    page_header = header(datasets)
    assert "read 3 days ago." in page_header and "has not refreshed" not in page_header
