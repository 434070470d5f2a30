"""Reading the support dataset: any mix of Parquet files, whatever schema each file has.

`load(source)` reads a folder (recursively), one file, or an `hf://datasets/...` path and
returns one `Snapshot`: the union of all files' columns with the documented types, one row
per model and stack (the newest `tested_at` wins), and a report of everything it skipped.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import BinaryIO

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from components.sources.columns import BY_NAME, COLUMNS, HEAVY, ROW_KEY, STACK_KEY
from components.sources.errors import describe_error
from components.sources.snapshot import Provenance, Skipped, Snapshot

log = logging.getLogger(__name__)

HUB_REPO = "aws-neuron/torch-neuronx-model-support"
HUB_DATASET = f"hf://datasets/{HUB_REPO}/data"
ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DIR = ROOT / "data" / "sample"
UNKNOWN = "unknown"

# Columns that repeat a few values over many rows: stored as categories to keep memory flat.
_CATEGORICAL = set(HEAVY) | set(STACK_KEY) | {
    "runner", "result", "exclusion", "cpu_match", "english", "transformers", "accelerate",
    "torch_neuronx", "torch", "nki", "python", "neuron_driver",
}  # fmt: skip
_HEAVY_TYPE = pa.dictionary(pa.int32(), pa.string())


class DatasetError(Exception):
    """The source itself cannot be read (not one of its files: those are skipped and reported)."""


def load(source: str | os.PathLike, *, kind: str | None = None, label: str | None = None) -> Snapshot:
    """Read every Parquet file under `source` (a folder, a file, or an `hf://datasets/...` path).

    Returns a Snapshot, possibly empty; files that cannot be read are listed in `skipped`.
    Raises DatasetError when the source itself does not exist or cannot be listed.
    """
    text = str(source)
    if text.startswith("hf://"):
        files, opener = _list_hub(text)
        kind = kind or "hub"
        label = label or _hub_label(text)
    else:
        files, opener = _list_local(Path(text))
        kind = kind or "local"
        label = label or Path(text).name or text
    return read_files(files, opener, source=label, kind=kind)


def read_files(files: Iterable[str], opener: Callable[[str], BinaryIO], *, source: str, kind: str) -> Snapshot:
    """Read the named files with `opener` and build a snapshot; one bad file never stops the rest."""
    tables: list[pa.Table] = []
    skipped: list[Skipped] = []
    rows_read = 0
    files_read = 0
    for name in files:
        try:
            with opener(name) as handle:
                # long free text repeats across rows and stacks: never materialise it densely
                table = pq.read_table(handle, read_dictionary=list(HEAVY))
        except Exception as exc:  # noqa: BLE001 — any unreadable file is reported, not fatal
            skipped.append(Skipped(name, f"unreadable Parquet file ({describe_error(exc)})"))
            continue
        files_read += 1
        rows_read += table.num_rows
        table, notes = normalise_table(table)
        skipped.extend(Skipped(name, note) for note in notes)
        if table.num_rows:
            tables.append(table)
    rows = _combine(tables)
    del tables
    # the loader's transient Arrow buffers are freed; give their pages back to the system
    pa.default_memory_pool().release_unused()
    newest = rows["tested_at"].max() if len(rows) else None
    provenance = Provenance(
        source=source,
        kind=kind,
        files_read=files_read,
        rows_read=rows_read,
        newest_tested_at=None if newest is None or pd.isna(newest) else newest.to_pydatetime(),
        loaded_at=datetime.now(UTC),
    )
    return Snapshot(rows, provenance, tuple(skipped))


def normalise_table(table: pa.Table) -> tuple[pa.Table, list[str]]:
    """Give one file's table every documented column with its documented type.

    Values that do not convert become null and are counted; extra columns are kept as text;
    rows without a model_id are dropped. Returns the table and notes on what was lost.
    """
    notes: list[str] = []
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


def _combine(tables: list[pa.Table]) -> pd.DataFrame:
    """Concatenate, keep the newest run of each model on each stack, and convert to pandas."""
    if not tables:
        empty = pa.table({c.name: pa.array([], c.type) for c in COLUMNS})
        return empty.to_pandas()
    table = pa.concat_tables(tables, promote_options="permissive").unify_dictionaries()
    for name in STACK_KEY:
        index = table.column_names.index(name)
        table = table.set_column(index, name, pc.fill_null(table.column(name), UNKNOWN))
    # Decide which rows to keep from the small key columns, then move every column once.
    order = pc.sort_indices(table.select(["tested_at"]), sort_keys=[("tested_at", "descending", "at_end")])
    key = table.select(list(ROW_KEY)).take(order)
    first = (
        key.append_column("_pos", pa.array(range(table.num_rows), pa.int64()))
        .group_by(list(ROW_KEY), use_threads=False)
        .aggregate([("_pos", "min")])
        .column("_pos_min")
    )
    keep = order.take(first.take(pc.sort_indices(first)))
    table = table.take(keep)  # the newest row of each key, newest first
    for name in table.column_names:
        if name in _CATEGORICAL:
            column = table.column(name).combine_chunks()
            if not pa.types.is_dictionary(column.type):
                column = pc.dictionary_encode(column)
            table = table.set_column(table.column_names.index(name), name, column)
    return table.to_pandas(types_mapper={pa.int32(): pd.Int32Dtype()}.get)


def _list_local(path: Path) -> tuple[list[str], Callable[[str], BinaryIO]]:
    if path.is_file():
        return [str(path)], _local_opener(path.parent)
    if not path.is_dir():
        raise DatasetError(f"dataset not found: '{path.name or path}' is neither a Parquet file nor a folder")
    base = path
    files = sorted(str(p.relative_to(base)) for p in base.rglob("*.parquet") if p.is_file())
    return files, _local_opener(base)


def _local_opener(base: Path) -> Callable[[str], BinaryIO]:
    def opener(name: str) -> BinaryIO:
        return open(base / name, "rb")

    return opener


def _list_hub(url: str) -> tuple[list[str], Callable[[str], BinaryIO]]:
    from huggingface_hub import HfFileSystem

    fs = HfFileSystem()
    path = url[len("hf://") :].rstrip("/")
    try:
        if path.endswith(".parquet"):
            files = [path]
        else:
            files = sorted(fs.glob(f"{path}/**/*.parquet"))
    except Exception as exc:  # noqa: BLE001 — network, auth and not-found errors all mean "unreachable"
        raise DatasetError(f"cannot list {_hub_label(url)} on the Hub ({describe_error(exc)})") from exc
    if not files:
        raise DatasetError(f"no Parquet files in {_hub_label(url)}")
    prefix = path if not path.endswith(".parquet") else str(PurePosixPath(path).parent)

    def opener(name: str) -> BinaryIO:
        return fs.open(f"{prefix}/{name}", "rb")

    return [f[len(prefix) + 1 :] for f in files], opener


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
