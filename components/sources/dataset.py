"""Reading the support dataset: any mix of Parquet files, whatever schema each file has.

`load(source)` reads a folder (recursively), one file, or an `hf://datasets/...` path and
returns one `Snapshot`: the union of all files' columns with the documented types, one row
per model and stack (the newest `tested_at` wins), and a report of everything it skipped.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import BinaryIO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from huggingface_hub import HfApi, HfFileSystem

from components.domain.columns import ALIASES, BY_NAME, COLUMNS, HEAVY
from components.sources import parts
from components.sources.errors import SourceError, describe_error
from components.sources.file_cache import FileCache, FileTable
from components.sources.parts import SHARED
from components.sources.snapshot import Provenance, Skipped, Snapshot

log = logging.getLogger(__name__)

HUB_REPO = "aws-neuron/torch-neuronx-model-support"
HUB_DATASET = f"hf://datasets/{HUB_REPO}/data"
ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = ROOT / "data" / "sample"
# One Hub call, the listing: the reads of the files themselves have huggingface_hub's own timeouts.
HUB_TIMEOUT = 30.0

_HEAVY_TYPE = pa.dictionary(pa.int32(), pa.string())


class DatasetError(SourceError):
    """The source itself cannot be read (not one of its files: those are skipped and reported)."""


@dataclass(frozen=True)
class Listing:
    """The Parquet files of a source: each name with its key (blob id, or size and mtime), and how to open one."""

    files: dict[str, str]
    opener: Callable[[str], BinaryIO]

    @property
    def identity(self) -> tuple[tuple[str, str], ...]:
        """Equal for two listings exactly when every file is the same."""
        return tuple(sorted(self.files.items()))


def load(
    source: str | os.PathLike, *, kind: str | None = None, label: str | None = None, cache: FileCache | None = None
) -> Snapshot:
    """Read every Parquet file under `source` (a folder, a file, or an `hf://datasets/...` path).

    With a `cache` (kept between calls) only new or changed files are read, and nothing at all when no
    file changed (the Hub is asked for the revision's file list first, with each file's blob id); only
    the stacks those files hold are merged again (see `parts.py`).
    Returns a Snapshot, possibly empty; files that cannot be read are listed in `skipped`.
    Raises DatasetError when the source itself does not exist or cannot be listed.
    """
    text = str(source)
    cache = cache if cache is not None else FileCache()
    ticket = cache.ticket()
    if text.startswith("hf://"):
        listing = _list_hub(text)
        kind = kind or "hub"
        label = label or _hub_label(text)
    else:
        listing = _list_local(Path(text))
        kind = kind or "local"
        label = label or Path(text).name or text
    checked = cache.unchanged(listing.identity)
    if checked is not None:
        return checked
    reread = sum(cache.get(name, key) is None for name, key in listing.files.items())
    files = read_listing(listing, cache)
    snapshot, spans = _build(files, cache, source=label, kind=kind)
    cache.commit(ticket, listing.identity, files, snapshot, reread, spans)
    return snapshot


def read_files(files: Iterable[str], opener: Callable[[str], BinaryIO], *, source: str, kind: str) -> Snapshot:
    """Read the named files with `opener` and build a snapshot; one bad file never stops the rest."""
    cache = FileCache()
    return _build(read_listing(Listing(dict.fromkeys(files, ""), opener), cache), cache, source=source, kind=kind)[0]


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
        files[name] = cached
    return files


def read_file(name: str, key: str, opener: Callable[[str], BinaryIO]) -> FileTable:
    """One file, normalised; an unreadable file gives a FileTable without a table that says why."""
    try:
        with opener(name) as handle:
            # long free text repeats across rows and stacks: never materialise it densely
            table = pq.read_table(handle, read_dictionary=list(HEAVY))
    except Exception as exc:  # noqa: BLE001 — any unreadable file is reported, not fatal
        reason = f"unreadable Parquet file ({describe_error(exc)})"
        log.warning("dataset file %s skipped: %s", name, reason)
        return FileTable(key, None, (Skipped(name, reason),), 0)
    rows_read = table.num_rows
    table, notes = normalise_table(table)
    for note in notes:  # the page's header lists them too
        log.warning("dataset file %s: %s", name, note)
    return FileTable(key, table, tuple(Skipped(name, note) for note in notes), rows_read, parts.stack_rows(table))


def _build(files: dict[str, FileTable], cache: FileCache, *, source: str, kind: str) -> tuple[Snapshot, dict]:
    """One snapshot from every file's table, and where each stack's rows sit in it. A stack whose files are
    the ones the cache's last snapshot was built from is taken from it; only the others are merged."""
    holders: dict[parts.StackKey, list[tuple[str, FileTable, np.ndarray | None]]] = {}
    for name, f in files.items():
        for key, positions in f.stacks if f.table is not None else ():
            holders.setdefault(key, []).append((name, f, positions))
    last, spans = cache.last()
    pieces, placed, start = [], {}, 0
    for key, held in holders.items():
        sources = tuple((name, f.key) for name, f, _ in held)
        span = spans.get(key)
        if last is not None and span is not None and span.sources == sources:
            columns, columns_of = parts.of_rows(last.rows, span), span.columns
        else:
            tables = [f.table if positions is None else f.table.take(positions) for _, f, positions in held]
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
    return Snapshot(rows, provenance, skipped, previous=last), placed


def normalise_table(table: pa.Table) -> tuple[pa.Table, list[str]]:
    """Give one file's table every documented column with its documented type.

    Values that do not convert become null and are counted; extra columns are kept as text;
    rows without a model_id are dropped. Returns the table and notes on what was lost.
    """
    notes: list[str] = []
    table = _apply_aliases(table, notes)
    columns: dict[str, pa.ChunkedArray] = {}
    n = table.num_rows
    for column in COLUMNS:
        if column.name not in table.column_names:
            columns[column.name] = pa.chunked_array([pa.nulls(n, _HEAVY_TYPE if column.heavy else column.type)])
            continue
        if column.heavy:
            columns[column.name] = _as_heavy_text(table.column(column.name))
            continue
        converted, lost = coerce(table.column(column.name), column.type)
        if lost:
            notes.append(
                f"{lost} value(s) of '{column.name}' were not {_type_word(column.type)} and are shown as blank"
            )
        if pa.types.is_timestamp(column.type):
            converted, outside = _within_datetime_range(converted)
            if outside:
                notes.append(
                    f"{outside} value(s) of '{column.name}' were outside years 1 to 9999 and are shown as blank"
                )
        columns[column.name] = converted
    for name in table.column_names:
        if name in BY_NAME or name in columns:
            continue
        columns[name] = _as_text(table.column(name))
    result = pa.table(columns)
    model_id = pc.utf8_trim_whitespace(result.column("model_id"))
    keep = pc.fill_null(pc.greater(pc.utf8_length(model_id), 0), False)
    dropped = n - pc.sum(keep).as_py() if n else 0
    if dropped:
        notes.append(f"{dropped} row(s) without a model_id were skipped")
        result = result.filter(keep)
        model_id = model_id.filter(keep)
    result = result.set_column(result.column_names.index("model_id"), "model_id", model_id)
    return result, notes


def _apply_aliases(table: pa.Table, notes: list[str]) -> pa.Table:
    """A column under another documented name (`neuron_cores`) becomes its column (`tp`). When a file
    has both, the column's own name wins; rows where the two disagree are counted in `notes`."""
    for alias, name in ALIASES.items():
        if alias not in table.column_names:
            continue
        aliased = table.column(alias)
        table = table.drop_columns([alias])
        if name not in table.column_names:
            table = table.append_column(name, aliased)
            continue
        target = BY_NAME[name].type
        ours, _ = coerce(table.column(name), target)
        theirs, _ = coerce(aliased, target)
        disagree = pc.sum(pc.fill_null(pc.not_equal(ours, theirs), False)).as_py() or 0
        if disagree:
            notes.append(f"{disagree} row(s) give '{name}' and '{alias}' that disagree; '{name}' is shown")
        filled = pc.coalesce(ours, theirs)  # a row that names only the alias keeps its value
        table = table.set_column(table.column_names.index(name), name, filled)
    return table


def coerce(values: pa.ChunkedArray, target: pa.DataType) -> tuple[pa.ChunkedArray, int]:
    """Convert to `target`; returns the converted array and how many non-null values were lost."""
    if values.type == target:
        return values, 0
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
        if values.type == target:
            return values, 0
    if pa.types.is_string(target):
        return _as_text(values), 0
    try:
        return values.cast(target, safe=True), 0
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        pass
    series = values.to_pandas()
    if pa.types.is_timestamp(target):
        if pd.api.types.is_numeric_dtype(series):
            parsed = pd.to_datetime(series, unit="ms", utc=True, errors="coerce")
        else:
            parsed = pd.to_datetime(series.astype("object"), utc=True, errors="coerce", format="mixed")
        parsed = parsed.dt.floor("ms")
    else:
        text = series.astype("object").map(lambda v: v.strip() if isinstance(v, str) else v)
        parsed = pd.to_numeric(text, errors="coerce")
        if pa.types.is_integer(target):
            limit = 2**31 - 1
            parsed = parsed.where(parsed.abs() <= limit).round()
    lost = int(series.notna().sum() - parsed.notna().sum())
    array = pa.array(parsed, type=target, from_pandas=True)
    return pa.chunked_array([array]), lost


# The milliseconds of 0001-01-01 and 9999-12-31T23:59:59.999 UTC: Python's datetime, and so every
# answer and header that shows a time, holds nothing outside them; Arrow and Parquet do.
_DATETIME_MS = (-62_135_596_800_000, 253_402_300_799_999)


def _within_datetime_range(values: pa.ChunkedArray) -> tuple[pa.ChunkedArray, int]:
    """Timestamps (in ms) outside years 1 to 9999 become null; returns them and how many there were."""
    ms = values.cast(pa.int64())
    inside = pc.and_(pc.greater_equal(ms, _DATETIME_MS[0]), pc.less_equal(ms, _DATETIME_MS[1]))
    outside = pc.sum(pc.invert(inside)).as_py() or 0
    if not outside:
        return values, 0
    return pc.if_else(inside, values, pa.scalar(None, values.type)), outside


def _as_text(values: pa.ChunkedArray) -> pa.ChunkedArray:
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
    try:
        return values.cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return pa.chunked_array([pa.array([None if v is None else str(v) for v in values.to_pylist()], pa.string())])


def _as_heavy_text(values: pa.ChunkedArray) -> pa.ChunkedArray:
    """Long free text as dictionary-encoded strings: each distinct script or traceback stored once."""
    if values.type == _HEAVY_TYPE:
        return values
    if pa.types.is_dictionary(values.type) and pa.types.is_string(values.type.value_type):
        try:
            return values.cast(_HEAVY_TYPE)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
            pass
    return pc.dictionary_encode(_as_text(values))


def check_local_source(source: str | os.PathLike) -> None:
    """For the command line, where the person gave the path: raise DatasetError, naming the whole path
    and what was found there, unless `source` holds at least one readable Parquet file."""
    path = Path(source)
    if path.is_file():
        candidates = [path]
    elif path.is_dir():
        candidates = sorted(p for p in path.rglob("*.parquet") if p.is_file())
        if not candidates:
            others = sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file())
            found = f"{len(others)} other file(s): {', '.join(others[:5])}" if others else "nothing"
            raise DatasetError(f"no Parquet files in '{path}' (found {found})")
    else:
        raise DatasetError(f"dataset not found: '{path}' is neither a Parquet file nor a folder")
    problems = []
    for candidate in candidates:
        try:
            pq.read_schema(candidate)
            return
        except Exception as exc:  # noqa: BLE001 — whatever pyarrow raises, the file is not readable Parquet
            problems.append(
                f"'{candidate}' ({type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''})"
            )
    shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
    raise DatasetError(f"no readable Parquet file in '{path}': {shown}")


def _list_local(path: Path) -> Listing:
    if path.is_file():
        return Listing({path.name: _stat_key(path)}, _local_opener(path.parent))
    if not path.is_dir():
        raise DatasetError(f"dataset not found: '{path.name or path}' is neither a Parquet file nor a folder")
    files = {str(p.relative_to(path)): _stat_key(p) for p in sorted(path.rglob("*.parquet")) if p.is_file()}
    return Listing(files, _local_opener(path))


def _stat_key(path: Path) -> str:
    """A local file's key: a rewritten file changes size or modification time."""
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def _local_opener(base: Path) -> Callable[[str], BinaryIO]:
    def opener(name: str) -> BinaryIO:
        return open(base / name, "rb")

    return opener


def _list_hub(url: str) -> Listing:
    """The Parquet files under an `hf://datasets/ORG/NAME[@REVISION]/PATH` URL at the repo's current
    revision, each keyed by its blob id, from one `dataset_info` call; files open at that revision."""
    parts = url[len("hf://") :].rstrip("/").split("/")
    if len(parts) < 3 or parts[0] != "datasets":
        raise DatasetError(f"not a Hub dataset path: {url} (expected hf://datasets/ORG/NAME/PATH)")
    name, _, revision = parts[2].partition("@")
    repo_id, path = f"{parts[1]}/{name}", "/".join(parts[3:])
    try:
        info = HfApi().dataset_info(repo_id, revision=revision or None, files_metadata=True, timeout=HUB_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 — network, auth and not-found errors all mean "unreachable"
        raise DatasetError(f"cannot list {_hub_label(url)} on the Hub ({describe_error(exc)})") from exc
    single = path.endswith(".parquet")
    folder = str(PurePosixPath(path).parent) if single else path
    prefix = f"{folder}/" if folder not in ("", ".") else ""
    files = {}
    for sibling in sorted(info.siblings or [], key=lambda s: s.rfilename):
        wanted = sibling.rfilename == path if single else sibling.rfilename.endswith(".parquet")
        if wanted and sibling.rfilename.startswith(prefix):
            files[sibling.rfilename[len(prefix) :]] = sibling.blob_id or f"{sibling.size}:{info.sha}"
    if not files:
        raise DatasetError(f"no Parquet files in {_hub_label(url)}")
    fs = HfFileSystem()
    pinned = f"datasets/{repo_id}@{info.sha or revision or 'main'}"

    def opener(name: str) -> BinaryIO:
        return fs.open(f"{pinned}/{prefix}{name}", "rb")

    return Listing(files, opener)


def _hub_label(url: str) -> str:
    parts = url[len("hf://") :].split("/")
    return "/".join(parts[1:3]) if len(parts) >= 3 else url


def _type_word(t: pa.DataType) -> str:
    if pa.types.is_integer(t):
        return "whole numbers"
    if pa.types.is_floating(t):
        return "numbers"
    if pa.types.is_timestamp(t):
        return "timestamps"
    return "text"
