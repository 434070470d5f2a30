"""Reading the support dataset: any mix of Parquet files, whatever schema each file has.

`load(source)` reads a folder (recursively), one file, or an `hf://datasets/...` path and
returns one `Snapshot`: the union of all files' columns with the documented types, one row
per model and stack (the newest `tested_at` wins), and a report of everything it skipped. A file that read
well before and cannot be read now (a sync caught half-way) is served from its last good read, so its stacks
stay: one broken file never hides good rows, its own earlier ones included.
Where the files are is `listing.py`'s job; giving one file's table the documented schema, `schema.py`'s.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from components.domain.columns import COLUMNS, HEAVY
from components.domain.stacks import StackRef
from components.sources import parts
from components.sources.errors import describe_error
from components.sources.file_cache import FileCache, FileTable
from components.sources.listing import Listing, list_source
from components.sources.parts import SHARED
from components.sources.schema import normalise_table
from components.sources.snapshot import LastGood, Provenance, Skipped, Snapshot

log = logging.getLogger(__name__)

HUB_REPO = "aws-neuron/torch-neuronx-model-support"
HUB_DATASET = f"hf://datasets/{HUB_REPO}/data"
ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = ROOT / "data" / "sample"


def load(
    source: str | os.PathLike, *, kind: str | None = None, label: str | None = None, cache: FileCache | None = None
) -> Snapshot:
    """Read every Parquet file under `source` (a folder, a file, or an `hf://datasets/...` path).

    With a `cache` (kept between calls) only new or changed files are read, and nothing at all when no
    file changed (the Hub is asked for the revision's file list first, with each file's blob id); only
    the stacks those files hold are merged again (see `parts.py`).
    Returns a Snapshot, possibly empty; files that cannot be read are listed in `skipped`, and one that read well
    before (with the same `cache`) is served from that read (`Snapshot.last_good`).
    Raises DatasetError when the source itself does not exist or cannot be listed.
    """
    text = str(source)
    cache = cache if cache is not None else FileCache()
    ticket = cache.ticket()
    listing, listed_kind, listed_label = list_source(text)
    kind = kind or listed_kind
    label = label or listed_label
    checked = cache.unchanged(listing.identity)
    if checked is not None:
        return checked
    reread = sum(cache.get(name, key) is None for name, key in listing.files.items())
    files = read_listing(listing, cache)
    snapshot, spans = _build(files, cache, source=label, kind=kind)
    cache.commit(ticket, listing.identity, files, snapshot, reread, spans)
    return snapshot


def read_listing(listing: Listing, cache: FileCache) -> dict[str, FileTable]:
    """Each file of `listing` as a FileTable: from `cache` when its key is unchanged, else read now; every
    SHARED column as codes into the cache's vocabularies."""
    files = {}
    for name, key in listing.files.items():
        cached = cache.get(name, key)
        if cached is None:
            cached = read_file(name, key, listing.opener)
            if cached.table is not None:
                cached = dataclasses.replace(cached, table=cache.share(cached.table, SHARED))
            else:
                cached = _served_instead(name, cached, cache.last_good(name))
        files[name] = cached
    return files


def _served_instead(name: str, failed: FileTable, good: FileTable | None) -> FileTable:
    """What is served for a file that could not be read: its last good read, when it had one (a sync caught
    half-way, a truncated upload: its stacks stay, and the page lists it), else nothing (skipped)."""
    reason = failed.skipped[0].reason
    if good is None:
        log.warning("dataset file %s skipped: %s", name, reason)
        return failed
    stacks = "; ".join(StackRef(*key).label for key, _ in good.stacks) or "no rows"
    log.warning("dataset file %s: %s; its last good rows are served (%s)", name, reason, stacks)
    note = Skipped(name, f"{reason}; its rows from the last good read are served")
    earlier = good.skipped[1:] if good.last_good else good.skipped  # what that read lost still holds
    return dataclasses.replace(good, key=failed.key, skipped=(note, *earlier), last_good=True)


def read_file(name: str, key: str, opener: Callable[[str], BinaryIO]) -> FileTable:
    """One file, normalised; an unreadable file gives a FileTable without a table that says why (unlogged:
    `read_listing` logs it with what it serves instead)."""
    try:
        with opener(name) as handle:
            # long free text repeats across rows and stacks: never materialise it densely
            table = pq.read_table(handle, read_dictionary=list(HEAVY))
    except Exception as exc:  # noqa: BLE001 — any unreadable file is reported (`read_listing`), not fatal
        return FileTable(key, None, (Skipped(name, f"unreadable Parquet file ({describe_error(exc)})"),), 0)
    rows_read = table.num_rows
    table, notes = normalise_table(table)
    for note in notes:  # the page's header lists them too
        log.warning("dataset file %s: %s", name, note)
    return FileTable(key, table, tuple(Skipped(name, note) for note in notes), rows_read, parts.stack_rows(table))


def _build(files: dict[str, FileTable], cache: FileCache, *, source: str, kind: str) -> tuple[Snapshot, dict]:
    """One snapshot from every file's table, and where each stack's rows sit in it. A stack whose files are
    the ones the cache's last snapshot was built from is taken from it; only the others are merged."""
    holders: dict[parts.StackKey, list[tuple[str, FileTable, pa.Table, np.ndarray | None]]] = {}
    for name, f in files.items():
        for key, positions in f.stacks if f.table is not None else ():
            holders.setdefault(key, []).append((name, f, f.table, positions))
    last, spans = cache.last()
    pieces, placed, start = [], {}, 0
    for key, held in holders.items():
        sources = tuple((name, f.key) for name, f, _, _ in held)
        span = spans.get(key)
        if last is not None and span is not None and span.sources == sources:
            columns, columns_of = parts.of_rows(last.rows, span), span.columns
        else:
            tables = [table if positions is None else table.take(positions) for _, _, table, positions in held]
            columns = parts.build_part(tables)
            columns_of = tuple(columns)
        length = len(columns["model_id"])
        pieces.append((key, columns, length))
        placed[key] = parts.Span(sources, start, start + length, columns_of)
        start += length
    if pieces:
        rows = parts.assemble(pieces, cache.categories())
    else:
        rows = pa.table({c.name: pa.array([], c.type) for c in COLUMNS}).to_pandas()
    # what reading and merging left free but held: give it back to the system
    pa.default_memory_pool().release_unused()
    newest = rows["tested_at"].max() if len(rows) else None
    provenance = Provenance(
        source=source,
        kind=kind,
        files_read=sum(f.table is not None for f in files.values()),
        rows_read=sum(f.rows_read for f in files.values()),
        newest_tested_at=None if newest is None or pd.isna(newest) else newest.to_pydatetime(),
        loaded_at=datetime.now(UTC),
    )
    skipped = tuple(s for f in files.values() for s in f.skipped)
    last_good = tuple(
        LastGood(name, f.key, tuple(StackRef(*key) for key, _ in f.stacks)) for name, f in files.items() if f.last_good
    )
    return Snapshot(rows, provenance, skipped, previous=last, last_good=last_good), placed
