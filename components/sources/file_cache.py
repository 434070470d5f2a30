"""What a refresh keeps from the last read, so it costs what changed.

`FileCache` holds each file's normalised table under the file's key (its blob id on the Hub; its
size and modification time in a local folder), and the last snapshot with the listing it came from
(the Hub revision, or every local file's key). `dataset.load(..., cache=...)` asks it whether the
listing is unchanged (then nothing is read) and which files it can take as they are.
"""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import pyarrow as pa

from components.sources.snapshot import Skipped, Snapshot


@dataclass(frozen=True)
class FileTable:
    """One file as read: its normalised table (None when unreadable), what was lost, and how many rows it held."""

    key: str
    table: pa.Table | None
    skipped: tuple[Skipped, ...]
    rows_read: int


class FileCache:
    """Per-file tables and the last snapshot of one source; safe to share between overlapping reads.

    Every load takes a ticket; only a load newer than the last committed one commits, so a read that
    was abandoned after its timeout and answers late cannot replace what a later read stored.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tickets = 0
        self._committed = 0
        self._files: Mapping[str, FileTable] = {}
        self._listing: Hashable | None = None
        self._last: Snapshot | None = None
        self.files_reread = 0  # files the latest committed load had to read (for tests and benchmarks)

    def ticket(self) -> int:
        with self._lock:
            self._tickets += 1
            return self._tickets

    def unchanged(self, listing: Hashable) -> Snapshot | None:
        """The last snapshot, marked as checked now, when `listing` is the one it was read from; else None."""
        with self._lock:
            last = self._last if self._listing == listing else None
        if last is None:
            return None
        self.files_reread = 0
        # the same rows (and their warm caches) under a new provenance: the data was confirmed just now
        checked = copy.copy(last)
        checked.provenance = dataclasses.replace(last.provenance, loaded_at=datetime.now(UTC))
        return checked

    def get(self, name: str, key: str) -> FileTable | None:
        """The table read from `name` when its key was `key`, if it is cached."""
        found = self._files.get(name)
        return found if found is not None and found.key == key else None

    def commit(self, ticket: int, listing: Hashable, files: Mapping[str, FileTable], snapshot: Snapshot, reread: int):
        """Keep `files` (only these: removed files are forgotten) and `snapshot`, unless a newer load committed."""
        with self._lock:
            if ticket <= self._committed:
                return
            self._committed = ticket
            self._files = dict(files)
            self._listing = listing
            self._last = snapshot
            self.files_reread = reread
