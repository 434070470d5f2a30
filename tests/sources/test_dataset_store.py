"""Which data is served: the Hub by default, the sample when it cannot be had, swaps on refresh."""

from __future__ import annotations

import threading
import time

import pytest

import components.sources.refresh as refresh
from components.runtime import environment, settings
from components.sources import dataset_store
from components.sources.dataset import load
from components.sources.errors import DatasetError
from tests.helpers import returns_without_waiting, row, write


def hub_like(folder):
    """A loader standing in for the Hub: reads a local folder but reports itself as the Hub."""
    return lambda source: load(folder, kind="hub", label="aws-neuron/torch-neuronx-model-support")


def test_offline_serves_the_sample_at_once_and_says_why(sample_dir, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", True)
    calls = []
    s = dataset_store.DatasetStore(loader=lambda src: calls.append(src))
    snap = s.start()
    assert calls == []  # nothing asked of the Hub, so nothing waited for
    assert snap.provenance.is_sample and "HF_HUB_OFFLINE" in snap.provenance.fallback_reason
    assert snap.provenance.kind == "sample"


def test_unreachable_hub_falls_back_to_the_sample_with_the_reason(sample_dir):
    def unreachable(source):
        raise DatasetError("cannot list aws-neuron/torch-neuronx-model-support on the Hub (ConnectError)")

    # a start-up wait of ten minutes: start() returns well inside the hang guard only if the failed read ended it
    s = dataset_store.DatasetStore(loader=unreachable, startup_wait=600)
    snap = returns_without_waiting(s.start)
    s.stop()
    assert snap.provenance.is_sample
    assert "did not answer within" not in snap.provenance.fallback_reason  # not served because the wait ran out
    assert "ConnectError" in snap.provenance.fallback_reason
    assert list(snap.rows["model_id"]) == ["sample/model"]


def test_slow_hub_serves_the_sample_then_swaps_the_hub_data_in(sample_dir, tmp_path):
    hub = tmp_path / "hub"
    write(hub / "h.parquet", [row("hub/model")])
    release = threading.Event()

    def slow(source):
        release.wait(10)
        return hub_like(hub)(source)

    s = dataset_store.DatasetStore(loader=slow, startup_wait=0.2)
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
    snap = dataset_store.DatasetStore(str(tmp_path)).start()
    assert snap.provenance.kind == "local" and not snap.provenance.is_sample


def test_a_missing_local_source_is_a_clear_error(tmp_path):
    with pytest.raises(DatasetError, match="not found"):
        dataset_store.DatasetStore(str(tmp_path / "missing")).start()


def test_a_failed_refresh_keeps_the_data_being_served(tmp_path):
    write(tmp_path / "x.parquet", [row("local/model")])
    s = dataset_store.DatasetStore(str(tmp_path))
    first = s.start()
    for f in tmp_path.glob("*.parquet"):
        f.unlink()
    assert s.refresh() is False  # the folder is now empty: keep what was served
    assert s.current() is first and "no rows" in s.last_error


def test_a_refresh_swaps_a_new_snapshot_whole(tmp_path):
    write(tmp_path / "x.parquet", [row("a/one")])
    s = dataset_store.DatasetStore(str(tmp_path))
    first = s.start()
    write(tmp_path / "y.parquet", [row("a/two")])
    assert s.refresh() is True
    assert s.current() is not first
    assert sorted(s.current().rows["model_id"]) == ["a/one", "a/two"]
    assert list(first.rows["model_id"]) == ["a/one"]  # the old snapshot is untouched


# ---- the base every Hub source runs on ---------------------------------------------------------


class Counter(refresh.RefreshingStore[int]):
    """A source whose reads are scripted: each read pops the next behaviour."""

    source_name = "counter"

    def __init__(self, behaviours, **kwargs):
        super().__init__(**kwargs)
        self.behaviours = list(behaviours)
        self.reads = 0
        self.attempts: list[tuple[int, bool]] = []
        self.attempted = threading.Semaphore(0)
        self._swap(0)

    def read(self) -> int:
        self.reads += 1
        behaviour = self.behaviours.pop(0) if self.behaviours else (lambda: self.reads)
        return behaviour()

    def after_attempt(self) -> None:
        """Each background attempt, as the refresh thread ends it: the reads so far, and whether another
        attempt is queued already."""
        self.attempts.append((self.reads, self.refresh_pending()))
        self.attempted.release()


@pytest.fixture
def release():
    event = threading.Event()
    yield event
    event.set()


def test_back_off_doubles_is_capped_and_never_later_than_the_period():
    backoff = refresh.Backoff(first=10, cap=100)
    assert [backoff.delay(n, 3600) for n in range(1, 7)] == [10, 20, 40, 80, 100, 100]
    assert backoff.delay(3, 30) == 30


def test_a_stuck_read_is_abandoned_and_the_next_refresh_starts_on_time(online, release):
    stuck_threads = []

    def stuck():
        stuck_threads.append(threading.current_thread())
        release.wait(10)
        return -1

    s = Counter([stuck], read_timeout=0.3)
    assert s.refresh() is False  # given up at its timeout: the stuck read can only end after `release`
    assert "the counter source did not answer within 0.3 s" in s.last_error
    assert s.refresh() is True and not release.is_set()  # the first read still hangs: it holds no lock
    assert s.current() == 2
    release.set()
    (late,) = stuck_threads
    late.join(5)
    assert not late.is_alive()  # the abandoned read has answered (late), and its thread is over
    assert s.current() == 2  # nobody took its answer


def test_reads_that_never_answer_are_not_piled_up(online, release):
    s = Counter([lambda: release.wait(10)] * settings.ABANDONED_READS.value, read_timeout=0.05)
    for _ in range(settings.ABANDONED_READS.value):
        assert s.refresh() is False
    reads = s.reads
    assert s.refresh() is False and s.reads == reads
    assert "still have not answered" in s.last_error
    release.set()
    deadline = time.monotonic() + 5
    while s.refresh() is False and time.monotonic() < deadline:
        time.sleep(0.05)
    assert s.current() == reads + 1


def test_failures_keep_the_value_and_the_status_says_why_and_when_the_next_try_is(online):
    def boom():
        raise ConnectionError("[Errno -3] Temporary failure in name resolution")

    s = Counter([lambda: 7, boom, boom], refresh_seconds=3600, backoff=refresh.Backoff(first=60, cap=600))
    assert s.refresh() is True
    loaded = s.source_status().loaded_at
    assert s.refresh() is False and s.refresh() is False
    assert s.current() == 7
    status = s.source_status()
    assert status.source == "counter" and status.kind == "live" and status.loaded_at == loaded
    assert (
        status.failures == 2 and status.last_error == "ConnectionError: [Errno -3] Temporary failure in name resolution"
    )
    assert status.next_attempt_at is None  # no refresh thread: nothing planned
    assert status.as_dict()["loaded_at"] == loaded.isoformat()
    s.start_refreshing()
    deadline = time.monotonic() + 2
    while s.source_status().next_attempt_at is None and time.monotonic() < deadline:
        time.sleep(0.01)
    wait = (s.source_status().next_attempt_at - s.source_status().last_attempt_at).total_seconds()
    s.stop()
    assert 110 < wait < 130  # the second failure in a row: 60 s doubled, well before the hour


def test_a_burst_of_refresh_requests_runs_one_read_at_a_time_with_one_more_queued(online, release):
    running, most = [0], [0]

    def slow():
        running[0] += 1
        most[0] = max(most[0], running[0])
        release.wait(10)
        running[0] -= 1
        return 1

    s = Counter([slow, slow, slow], periodic=False, read_timeout=20)
    assert s.request_refresh() is True
    deadline = time.monotonic() + 2
    while s.reads == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    for _ in range(50):
        assert s.request_refresh() is True
    release.set()
    assert s.attempted.acquire(timeout=5) and s.attempted.acquire(timeout=5)  # both attempts have ended
    s.stop()
    # the first attempt ended with one more queued (the burst's), the second with none: fifty asks, two reads
    assert s.attempts[:2] == [(1, True), (2, False)] and most[0] == 1


def test_huggingface_hubs_own_offline_switch_stops_every_refresh(monkeypatch):
    monkeypatch.setattr(dataset_store.hf_constants, "HF_HUB_OFFLINE", True)
    s = Counter([])
    assert s.refresh() is False and s.request_refresh() is False and s.reads == 0


def test_a_refresh_request_rereads_a_local_folder(tmp_path):
    write(tmp_path / "x.parquet", [row("a/one")])
    s = dataset_store.DatasetStore(str(tmp_path))
    s.start()
    write(tmp_path / "y.parquet", [row("a/two")])
    assert s.request_refresh() is True
    deadline = time.monotonic() + 5
    while len(s.current()) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    s.stop()
    assert sorted(s.current().rows["model_id"]) == ["a/one", "a/two"]
    assert s.source_status().kind == "local" and s.source_status().next_attempt_at is None


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


def test_a_changed_local_folder_is_found_by_a_look_without_any_request(tmp_path):
    """Another replica got the webhook: this one finds the change itself, within `check_seconds`."""
    write(tmp_path / "x.parquet", [row("a/one")])
    s = dataset_store.DatasetStore(str(tmp_path), check_seconds=0.05)
    s.start()
    first = s.current()
    write(tmp_path / "y.parquet", [row("a/two")])
    try:
        assert wait_for(lambda: len(s.current()) == 2)
    finally:
        s.stop()
    assert s.current() is not first


def test_a_look_that_finds_nothing_new_swaps_nothing(tmp_path, monkeypatch):
    write(tmp_path / "x.parquet", [row("a/one")])
    s = dataset_store.DatasetStore(str(tmp_path), check_seconds=0.02)
    looks = []
    original = s.changed
    monkeypatch.setattr(s, "changed", lambda: looks.append(original()) or looks[-1])
    s.start()
    served = s.current()
    try:
        assert wait_for(lambda: len(looks) >= 5)
    finally:
        s.stop()
    assert not any(looks) and s.current() is served  # the page caches keyed on it stay valid


def test_no_looks_when_turned_off_and_the_setting_is_read_from_the_environment(tmp_path):
    write(tmp_path / "x.parquet", [row("a/one")])
    s = dataset_store.DatasetStore(str(tmp_path), check_seconds=0)
    s.start()
    assert s._thread is None  # a local folder without looks is reread only when asked, as before
    s.stop()
    looks = environment.DATA_CHECK_SECONDS
    assert looks.get({}) == settings.DATA_CHECK.value == 30
    assert looks.get({"DATA_CHECK_SECONDS": "1.5"}) == 1.5
    assert looks.get({"DATA_CHECK_SECONDS": "0"}) == 0
    assert looks.get({"DATA_CHECK_SECONDS": "soon"}) == 30  # logged, the default kept
