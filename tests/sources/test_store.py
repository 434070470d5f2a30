"""Which data is served: the Hub by default, the sample when it cannot be had, swaps on refresh."""

from __future__ import annotations

import threading
import time

import pytest

import components.sources.store as store
from components.sources.dataset import DatasetError, load
from tests.helpers import row, write


def hub_like(folder):
    """A loader standing in for the Hub: reads a local folder but reports itself as the Hub."""
    return lambda source: load(folder, kind="hub", label="aws-neuron/torch-neuronx-model-support")


def test_offline_serves_the_sample_at_once_and_says_why(sample_dir, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    calls = []
    s = store.DatasetStore(loader=lambda src: calls.append(src))
    started = time.monotonic()
    snap = s.start()
    assert time.monotonic() - started < 2
    assert calls == []
    assert snap.provenance.is_sample and "HF_HUB_OFFLINE" in snap.provenance.fallback_reason
    assert snap.provenance.kind == "sample"


def test_unreachable_hub_falls_back_to_the_sample_with_the_reason(sample_dir):
    def unreachable(source):
        raise DatasetError("cannot list aws-neuron/torch-neuronx-model-support on the Hub (ConnectError)")

    s = store.DatasetStore(loader=unreachable, startup_wait=5)
    started = time.monotonic()
    snap = s.start()
    assert time.monotonic() - started < 2
    assert snap.provenance.is_sample
    assert "ConnectError" in snap.provenance.fallback_reason
    assert list(snap.rows["model_id"]) == ["sample/model"]


def test_slow_hub_serves_the_sample_then_swaps_the_hub_data_in(sample_dir, tmp_path):
    hub = tmp_path / "hub"
    write(hub / "h.parquet", [row("hub/model")])
    release = threading.Event()

    def slow(source):
        release.wait(10)
        return hub_like(hub)(source)

    s = store.DatasetStore(loader=slow, startup_wait=0.2)
    assert s.start().provenance.is_sample
    release.set()
    deadline = time.monotonic() + 5
    while s.current().provenance.is_sample and time.monotonic() < deadline:
        time.sleep(0.02)
    assert s.current().provenance.kind == "hub"
    assert list(s.current().rows["model_id"]) == ["hub/model"]
    s.stop()


def test_a_local_source_is_read_as_is(tmp_path):
    write(tmp_path / "x.parquet", [row("local/model")])
    snap = store.DatasetStore(str(tmp_path)).start()
    assert snap.provenance.kind == "local" and not snap.provenance.is_sample


def test_a_missing_local_source_is_a_clear_error(tmp_path):
    with pytest.raises(DatasetError, match="not found"):
        store.DatasetStore(str(tmp_path / "missing")).start()


def test_a_failed_refresh_keeps_the_data_being_served(tmp_path):
    write(tmp_path / "x.parquet", [row("local/model")])
    s = store.DatasetStore(str(tmp_path))
    first = s.start()
    for f in tmp_path.glob("*.parquet"):
        f.unlink()
    assert s.refresh() is False  # the folder is now empty: keep what was served
    assert s.current() is first and "no rows" in s.last_error


def test_a_refresh_swaps_a_new_snapshot_whole(tmp_path):
    write(tmp_path / "x.parquet", [row("a/one")])
    s = store.DatasetStore(str(tmp_path))
    first = s.start()
    write(tmp_path / "y.parquet", [row("a/two")])
    assert s.refresh() is True
    assert s.current() is not first
    assert sorted(s.current().rows["model_id"]) == ["a/one", "a/two"]
    assert list(first.rows["model_id"]) == ["a/one"]  # the old snapshot is untouched
