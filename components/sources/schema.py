"""One Parquet file's table given the dataset's documented schema: every documented column with its
documented type (aliases folded in, values that do not convert made blank and counted), extra columns
kept as text, rows without a model_id dropped.
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from components.domain.columns import ALIASES, BY_NAME, COLUMNS

HEAVY_TYPE = pa.dictionary(pa.int32(), pa.string())


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
            columns[column.name] = pa.chunked_array([pa.nulls(n, HEAVY_TYPE if column.heavy else column.type)])
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
    if values.type == HEAVY_TYPE:
        return values
    if pa.types.is_dictionary(values.type) and pa.types.is_string(values.type.value_type):
        try:
            return values.cast(HEAVY_TYPE)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
            pass
    return pc.dictionary_encode(_as_text(values))


def _type_word(t: pa.DataType) -> str:
    if pa.types.is_integer(t):
        return "whole numbers"
    if pa.types.is_floating(t):
        return "numbers"
    if pa.types.is_timestamp(t):
        return "timestamps"
    return "text"
