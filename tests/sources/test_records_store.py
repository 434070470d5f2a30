"""The records store's memory of unknown ids stays bounded, and new ids cost a bounded number of Hub calls."""

from __future__ import annotations

import threading

import httpx
from huggingface_hub.errors import RepositoryNotFoundError

from components.runtime import settings
from components.sources import records_store
from components.sources.records import Records
from components.sources.records_store import RecordsStore
from tests.sources.test_records import begun, wait_until


class NoModelsHub:
    """A Hub on which no model exists: every look-up raises RepositoryNotFoundError, and is counted."""

    def __init__(self):
        self.calls = 0
        self._lock = threading.Lock()

    def fetch(self, model_id: str):
        with self._lock:
            self.calls += 1
        response = httpx.Response(404, request=httpx.Request("GET", f"https://huggingface.co/api/models/{model_id}"))
        raise RepositoryNotFoundError(f"{model_id} not found", response=response)


def drained(store: RecordsStore) -> bool:
    with store._lock:
        return not store._queued and not store._in_flight


def test_10000_distinct_unknown_ids_keep_a_bounded_number_of_entries(online):
    no_models = NoModelsHub()
    store = begun(RecordsStore(Records({}, "Hub"), live=True, fetch=no_models.fetch, lookups_a_minute=10**6, batch=64))
    ids = [f"nobody/unknown-{i}" for i in range(10_000)]
    for start in range(0, len(ids), store.max_pending):
        store.want(ids[start : start + store.max_pending])
        assert wait_until(lambda: drained(store), timeout=30)
    assert wait_until(lambda: store.why_unknown(ids[-1]) == records_store.NOT_ON_HUB)
    assert no_models.calls == 10_000  # every id was asked: the bound is on what is kept, not on what is served
    assert len(store._retry_at) == settings.UNKNOWN_IDS.value
    assert len(store.current().unknown) == settings.UNKNOWN_IDS.value
    # the newest are the ones kept; an old one dropped is asked again when wanted
    assert store.current().why_unknown(ids[0]) is None
    assert ids[-1] in store.current().unknown
    store.want([ids[-1]])
    assert drained(store) and no_models.calls == 10_000  # a kept one is not asked again before its retry time
    store.stop()


def test_hub_lookups_for_new_ids_are_capped_a_minute(online):
    no_models = NoModelsHub()
    now = [1000.0]
    store = begun(
        RecordsStore(Records({}, "Hub"), live=True, fetch=no_models.fetch, lookups_a_minute=50, clock=lambda: now[0])
    )
    for round_ in range(5):
        store.want([f"nobody/r{round_}-{i}" for i in range(40)])
        assert wait_until(lambda: drained(store), timeout=30)
    assert no_models.calls == 50  # 200 new ids named within one minute: 50 asked
    assert store.why_unknown("nobody/r4-39") == records_store.BUSY
    now[0] += settings.RECORD_LOOKUP_WINDOW.value
    store.want(["nobody/r4-39"])
    assert wait_until(lambda: store.why_unknown("nobody/r4-39") == records_store.NOT_ON_HUB)
    assert no_models.calls == 51
    store.stop()
