"""What a refresh keeps from the last read, so it costs what changed.

`FileCache` holds each file's normalised table under the file's key (its blob id on the Hub; its
size and modification time in a local folder), the last snapshot with the listing it came from
(the Hub revision, or every local file's key) and where each stack's rows sit in it, and one
vocabulary per repetitive column. `dataset.load(..., cache=...)` asks it whether the listing is
unchanged (then nothing is read), which files it can take as they are, and which stacks; and, for a file
whose new version cannot be read, what it last read well (`last_good`), kept under the new key so that the
same unreadable version is not read again.

It is the loader's memory between reads, which makes each new data moment, not a cache of answers
within one (those are `moment_cache.py`'s): a new snapshot must not drop it.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from components.runtime import settings
from components.sources.parts import Span, StackKey
from components.sources.snapshot import Skipped, Snapshot


@dataclass(frozen=True)
class FileTable:
    """One file as read: its normalised table (None when unreadable), what was lost, and how many rows it held.
    `last_good`: the version under `key` could not be read, and `table` and `stacks` are the last good read's."""

    key: str
    table: pa.Table | None
    skipped: tuple[Skipped, ...]
    rows_read: int
    stacks: tuple[tuple[StackKey, np.ndarray | None], ...] = ()  # each stack's rows (None: all of them)
    last_good: bool = False


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
        self._spans: Mapping[StackKey, Span] = {}
        self.files_reread = 0  # files the latest committed load had to read (for tests and benchmarks)
        # One vocabulary per repetitive column, shared by every cached file (their tables hold int32 codes into
        # it): the same run.py and tracebacks recur on every stack, and per-file copies would hold them once each.
        self._vocabulary: dict[str, pa.Array] = {}
        self._categories: dict[str, tuple[pa.Array, pd.CategoricalDtype]] = {}

    def share(self, table: pa.Table, columns: Iterable[str]) -> pa.Table:
        """`table` with `columns` as int32 codes into the shared vocabularies (-1: no value), which grow by
        the texts they lack; the tables hold no copy of a vocabulary, so an outgrown one is freed at once.
        Only the file's own dictionary is hashed: the vocabulary is looked up in it, never copied into a
        hash table of its own (it holds every file's texts)."""
        with self._lock:
            for name in columns:
                column = table.column(name).combine_chunks()
                if not pa.types.is_dictionary(column.type):
                    column = pc.dictionary_encode(column)
                if pc.count_distinct(column.dictionary).as_py() != len(column.dictionary):
                    column = pc.dictionary_encode(column.dictionary_decode())  # a hand-made file may repeat a value
                dictionary = column.dictionary
                vocabulary = self._vocabulary.setdefault(name, pa.array([], dictionary.type))
                # where each vocabulary entry sits in this file's dictionary: the other way round, per file entry
                found = pc.fill_null(pc.index_in(vocabulary, value_set=dictionary), -1).to_numpy()
                known = np.flatnonzero(found >= 0)
                mapping = np.full(len(dictionary) + 1, -1, dtype=np.int32)  # the extra last entry: a null
                mapping[found[known]] = known
                missing = np.flatnonzero(mapping[:-1] < 0)
                if len(missing):
                    mapping[missing] = len(vocabulary) + np.arange(len(missing), dtype=np.int32)
                    vocabulary = pa.concat_arrays([vocabulary, dictionary.take(pa.array(missing))])
                    self._vocabulary[name] = vocabulary
                codes = mapping[pc.fill_null(column.indices, len(dictionary)).to_numpy()]
                table = table.set_column(table.column_names.index(name), name, pa.array(codes, pa.int32()))
        return table

    def categories(self) -> dict[str, pd.CategoricalDtype]:
        """Each vocabulary as pandas categories, made again only when it grew (codes index into it)."""
        with self._lock:
            for name, vocabulary in self._vocabulary.items():
                made = self._categories.get(name)
                if made is None or made[0] is not vocabulary:
                    dtype = pd.CategoricalDtype(pd.Index(vocabulary.to_pandas(), dtype="str"))
                    self._categories[name] = (vocabulary, dtype)
            return {name: dtype for name, (_, dtype) in self._categories.items()}

    def last(self) -> tuple[Snapshot | None, Mapping[StackKey, Span]]:
        """The last committed snapshot and where each stack's rows sit in it."""
        with self._lock:
            return self._last, self._spans

    def ticket(self) -> int:
        with self._lock:
            self._tickets += 1
            return self._tickets

    def read_from(self, listing: Hashable) -> bool:
        """Whether the last snapshot was read from `listing` (False before any)."""
        with self._lock:
            return self._last is not None and self._listing == listing

    def unchanged(self, listing: Hashable) -> Snapshot | None:
        """The last snapshot, marked as checked now, when `listing` is the one it was read from; else None."""
        with self._lock:
            last = self._last if self._listing == listing else None
        if last is None:
            return None
        self.files_reread = 0
        # the same rows (and their warm caches) under a new provenance: the data was confirmed just now
        return last.with_provenance(loaded_at=datetime.now(UTC))

    def get(self, name: str, key: str) -> FileTable | None:
        """The table read from `name` when its key was `key`, if it is cached."""
        found = self._files.get(name)
        return found if found is not None and found.key == key else None

    def last_good(self, name: str) -> FileTable | None:
        """What was last read well from `name`, whatever its key now, or None (never read well, or forgotten)."""
        found = self._files.get(name)
        return found if found is not None and found.table is not None else None

    def commit(
        self,
        ticket: int,
        listing: Hashable,
        files: Mapping[str, FileTable],
        snapshot: Snapshot,
        reread: int,
        spans: Mapping[StackKey, Span] | None = None,
    ):
        """Keep `files` (only these: removed files are forgotten), `snapshot` and its stacks' `spans`,
        unless a newer load committed."""
        with self._lock:
            if ticket <= self._committed:
                return
            self._committed = ticket
            files, compacted = self._compacted(files)
            self._files = dict(files)
            self._listing = listing
            self._last = snapshot
            # the snapshot's codes are of the vocabularies before compacting: every stack is merged again next time
            self._spans = {} if compacted else dict(spans or {})
            self.files_reread = reread

    def _compacted(self, files: Mapping[str, FileTable]) -> tuple[Mapping[str, FileTable], bool]:
        """`files` on vocabularies without the texts no file holds any more, where those are most of one
        (a file replaced again and again leaves its old texts behind); whether anything was compacted."""
        tables = {name: f.table for name, f in files.items() if f.table is not None}
        compacted = False
        for column, vocabulary in list(self._vocabulary.items()):
            used = np.zeros(len(vocabulary) + 1, dtype=bool)  # the extra last entry: -1, no value
            for table in tables.values():
                used[table.column(column).to_numpy()] = True
            live = int(used[:-1].sum())
            if len(vocabulary) - live <= max(live, settings.VOCABULARY_COMPACT.value):
                continue
            kept = np.flatnonzero(used[:-1])
            remap = np.full(len(vocabulary) + 1, -1, dtype=np.int32)
            remap[kept] = np.arange(len(kept), dtype=np.int32)
            for name, table in tables.items():
                codes = remap[table.column(column).to_numpy()]
                tables[name] = table.set_column(table.column_names.index(column), column, pa.array(codes, pa.int32()))
            self._vocabulary[column] = vocabulary.take(pa.array(kept))
            compacted = True
        if not compacted:
            return files, False
        return {name: replace(f, table=tables.get(name)) for name, f in files.items()}, True
