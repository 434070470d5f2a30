"""The app's three sources as one value, and what they serve at one moment.

Every page, endpoint and route is given one `Sources` (the dataset, the Hub rankings, the model
records) and reads `now()` once per request: the snapshot, rankings and records of one moment, so one
answer never mixes two loads.
"""

from __future__ import annotations

from dataclasses import dataclass

from components.sources.dataset_store import DatasetStore
from components.sources.rankings import Rankings
from components.sources.rankings_store import RankingsStore
from components.sources.records import Records, empty_records
from components.sources.records_store import RecordsStore
from components.sources.refresh import RefreshingStore, SourceStatus
from components.sources.snapshot import Snapshot


@dataclass(frozen=True)
class Moment:
    """What the sources serve at one moment; read once per request."""

    snapshot: Snapshot
    rankings: Rankings
    records: Records


class Sources:
    """The dataset, the rankings and the model records the app serves. Without `records`, no model
    records and no Hub look-ups (each model's task and architecture are unknown): an empty set, served
    at once, as it reads nothing."""

    def __init__(self, datasets: DatasetStore, rankings: RankingsStore, records: RecordsStore | None = None):
        self.datasets = datasets
        self.rankings = rankings
        if records is None:
            records = RecordsStore(empty_records(), live=False)
            records.begin()
        self.records = records

    @property
    def stores(self) -> tuple[RefreshingStore, ...]:
        return (self.datasets, self.rankings, self.records)

    def now(self) -> Moment:
        """The snapshot, rankings and records being served now, each read once."""
        return Moment(self.datasets.current(), self.rankings.current(), self.records.current())

    def begin(self) -> None:
        """Every store's `begin()`: what is at hand is served, network reads start in the background."""
        for store in self.stores:
            store.begin()

    def start(self) -> Moment:
        """Every store's `start()` (the dataset waits at most its start-up bound), then the records are
        asked for the dataset's models; returns what is served."""
        for store in self.stores:
            store.start()
        moment = self.now()
        self.records.cover(moment.snapshot.model_ids, moment.snapshot)
        return moment

    def stop(self) -> None:
        for store in self.stores:
            store.stop()

    def status(self) -> dict[str, SourceStatus]:
        """Each source's `source_status()`, by its name (`dataset`, `rankings`, `records`)."""
        return {store.source_name: store.source_status() for store in self.stores}
