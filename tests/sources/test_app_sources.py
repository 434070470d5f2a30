"""One value for the three sources: one lifecycle, one status per source, and `now()`: what they serve
at one moment."""

import pytest

from components.sources.app_sources import Moment, Sources
from components.sources.dataset_store import DatasetStore
from components.sources.errors import DatasetError, ReadTimeout, Rejected, SourceError
from components.sources.rankings_store import RankingsStore, resolve_rankings
from components.sources.records_store import resolve_records
from components.sources.refresh import RefreshingStore
from tests.helpers import ROOT, Served, row, write


@pytest.fixture
def three_stores(tmp_path):
    write(tmp_path / "rows.parquet", [row("Qwen/Qwen3-0.6B")])
    rankings = resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json"))
    records = resolve_records(str(ROOT / "data" / "models_snapshot.json"))
    return Sources(DatasetStore(str(tmp_path)), rankings, records)


def test_every_store_has_one_lifecycle_and_start_serves_one_moment(three_stores):
    for store in three_stores.stores:
        assert isinstance(store, RefreshingStore)
    three_stores.begin()
    three_stores.begin()  # idempotent
    moment = three_stores.start()
    assert isinstance(moment, Moment) and moment.snapshot.model_ids == ("Qwen/Qwen3-0.6B",)
    assert moment.rankings is three_stores.rankings.current() and moment.records is three_stores.records.current()
    status = three_stores.status()
    assert list(status) == ["dataset", "rankings", "records"]
    assert status["dataset"].kind == "local" and status["dataset"].last_error is None
    assert status["rankings"].kind == "snapshot" and status["records"].kind == "snapshot"
    three_stores.stop()


def test_now_reads_each_store_once(world):
    snapshot, rankings = world
    datasets, ranked = Served(snapshot, "dataset"), Served(rankings)
    three_stores = Sources(datasets, ranked)
    moment = three_stores.now()
    assert (datasets.reads, ranked.reads) == (1, 1)
    assert moment.snapshot is snapshot and moment.rankings is rankings and len(moment.records) == 0


def test_a_store_reads_nothing_before_begin_and_a_missing_file_fails_there_with_a_source_error(tmp_path):
    missing = tmp_path / "nowhere"
    stores = [
        DatasetStore(str(missing)),
        RankingsStore(missing / "rankings.json", live=False),
        resolve_records(str(missing / "models.json")),
    ]
    for store in stores:
        with pytest.raises(RuntimeError, match="start"):
            store.current()  # constructed: nothing read, nothing served
        with pytest.raises(SourceError, match="nowhere|rankings.json|models.json"):
            store.begin()
    with pytest.raises(DatasetError):
        stores[0].begin()
    records = resolve_records(str(ROOT / "data" / "models_snapshot.json"))
    records.begin()
    before = records.current()
    assert len(before) and records.start() is before


class Failing(RefreshingStore[int]):
    source_name = "failing"

    def __init__(self, error):
        super().__init__(read_timeout=5)
        self.error = error
        self._swap(1)

    def can_refresh(self) -> bool:
        return True

    def read(self) -> int:
        raise self.error


def test_a_source_error_is_shown_as_it_is_and_any_other_error_is_scrubbed():
    assert all(issubclass(e, SourceError) for e in (DatasetError, Rejected, ReadTimeout))
    store = Failing(DatasetError("cannot list org/data on the Hub"))
    assert store.refresh() is False and store.source_status().last_error == "cannot list org/data on the Hub"
    store = Failing(OSError("token hf_abcdefghijkl in /home/someone/secret/file"))
    assert store.refresh() is False
    shown = store.source_status().last_error
    assert shown.startswith("OSError: ") and "hf_abcdefghijkl" not in shown and "/home/someone" not in shown
    assert store.current() == 1  # the last good value stays served
