"""A burst of webhook calls on a local dataset (issues 45 and 61): bounded, and fresh.

Calls merged only while a refresh ran, and a local refresh takes milliseconds: 300 valid calls in 0.7 s made
about 260 reads (issue 45). A 10 s debounce window then bounded them, but held a change whose webhook came within
10 s of the previous one for the rest of the window: 20 changes under load were served after 10.1 s at p95
(issue 61). Now the reads a burst asks for are spaced: a burst lasting D seconds costs at most
ceil(D / spacing) + 1 reads, the spacing is at most 2 s, and no call waits longer than one spacing.
Here the store is the app's own (`DatasetStore` on a local folder) and the route its own; only the reads are
counted.
"""

from __future__ import annotations

import math
import time

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.runtime import environment, settings
from components.sources import dataset_store
from components.sources.dataset import load
from components.web.routes import webhook
from tests.helpers import row, write

SECRET = "burst-secret"
PAYLOAD = {"event": {"scope": "repo.content", "action": "update"}}


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", False)
    monkeypatch.delenv("WEBHOOK_DEBOUNCE_SECONDS", raising=False)
    write(tmp_path / "data" / "a.parquet", [row("org/model")])
    reads: list[float] = []

    def counted(source: str):
        reads.append(time.monotonic())
        return load(source)

    datasets = dataset_store.DatasetStore(str(tmp_path / "data"), loader=counted, check_seconds=0)
    datasets.start()  # the local folder is read once here
    datasets.reads = reads  # type: ignore[attr-defined]  # what the test counts
    yield datasets
    datasets.stop()


def idle(store) -> bool:
    return not store.refresh_pending() and not store.source_status().refreshing


def burst(store, spacing: float, calls: int = 300) -> tuple[float, int]:
    """`calls` webhook calls as fast as one client makes them; (their duration, the reads they made) once the
    last ask at the spacing's end has been read."""
    client = TestClient(Starlette(routes=webhook.routes(store, secret=SECRET, window=spacing)))
    before = len(store.reads)
    started = time.monotonic()
    answers = [client.post(webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: SECRET}) for _ in range(calls)]
    lasted = time.monotonic() - started
    assert {a.status_code for a in answers} == {202}
    # the calls merged into the last ask are read after the burst's end (30 s past the spacing: a hang guard)
    deadline = time.monotonic() + spacing + 30
    while time.monotonic() < deadline and not (store.reads[-1] > started + lasted and idle(store)):
        time.sleep(0.02)
    assert store.reads[-1] > started + lasted, "the calls at the burst's end were never read"
    return lasted, len(store.reads) - before


def test_the_default_spacing_serves_a_change_within_seconds_and_bounds_a_burst(store):
    spacing = settings.WEBHOOK_DEBOUNCE.value
    assert 0 < spacing <= 2 and environment.WEBHOOK_DEBOUNCE_SECONDS.get() == spacing
    lasted, reads = burst(store, spacing)
    assert 2 <= reads <= math.ceil(lasted / spacing) + 1, f"{reads} reads for 300 calls in {lasted:.2f} s"


def test_a_burst_longer_than_the_spacing_is_read_once_a_spacing(store):
    spacing = 0.1  # small, so that the burst spans several spacings without a long test
    lasted, reads = burst(store, spacing)
    assert lasted > 3 * spacing, "the burst was over within the spacing: nothing was tested"
    assert 3 <= reads <= math.ceil(lasted / spacing) + 1, f"{reads} reads for 300 calls in {lasted:.2f} s"
