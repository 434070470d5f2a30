"""A burst of webhook calls on a local dataset (issue 45): the first call refreshes at once, and the rest merge
into one trailing refresh.

Calls merged only while a refresh ran, and a local refresh takes milliseconds: 300 valid calls in 0.7 s made
about 260 reads. Here the store is the app's own (`DatasetStore` on a local folder) and the route its own, with
the default debounce window; only the reads are counted.
"""

from __future__ import annotations

import time

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.sources import dataset_store
from components.sources.dataset import load
from components.web.routes import webhook
from tests.helpers import row, write

SECRET = "burst-secret"
PAYLOAD = {"event": {"scope": "repo.content", "action": "update"}}
WINDOW = getattr(webhook, "DEBOUNCE_SECONDS", 10.0)  # (read so, the test also runs where there is none)


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    monkeypatch.delenv("WEBHOOK_DEBOUNCE_SECONDS", raising=False)
    write(tmp_path / "data" / "a.parquet", [row("org/model")])
    reads: list[float] = []

    def counted(source: str):
        reads.append(time.monotonic())
        return load(source)

    datasets = dataset_store.DatasetStore(str(tmp_path / "data"), loader=counted)
    datasets.begin()  # the local folder is read once here
    datasets.start()
    datasets.reads = reads  # type: ignore[attr-defined]  # what the test counts
    yield datasets
    datasets.stop()


def idle(store) -> bool:
    return not store.refresh_pending() and not store.source_status().refreshing


def test_a_burst_costs_a_refresh_at_once_and_one_trailing_refresh(store):
    client = TestClient(Starlette(routes=webhook.routes(store, secret=SECRET)))
    reads = store.reads
    assert len(reads) == 1  # the first value, at start
    started = time.monotonic()
    answers = [client.post(webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: SECRET}) for _ in range(300)]
    burst = time.monotonic() - started
    assert {a.status_code for a in answers} == {202}
    assert burst < WINDOW, "the burst outlasted the window: nothing was tested"
    # the first call refreshed at once: its read began within the burst, not at the window's end
    while len(reads) < 2 and time.monotonic() - started < 5:
        time.sleep(0.02)
    assert len(reads) >= 2 and reads[1] - started < 5
    # then one trailing refresh for the other 299, at the window's end
    deadline = time.monotonic() + WINDOW + 10
    while time.monotonic() < deadline and not (len(reads) >= 3 and idle(store)):
        time.sleep(0.05)
    assert len(reads) == 3, f"{len(reads) - 1} refreshes for 300 calls in {burst:.2f} s"
    assert reads[2] - started >= WINDOW * 0.9
