"""A snapshot's rows, stack by stack, so that a refresh rebuilds only the stacks whose files changed.

Each file's table is split by stack when it is read (`stack_rows`). A stack's rows are the newest row
of each model from every file that holds the stack (`build_part`); a snapshot's rows are its stacks'
rows one after another, each stack a contiguous range (`assemble`). A refresh takes every stack whose
files are unchanged from the last snapshot as it stands (a slice of each column) and builds only the
others: its cost follows the change, not the dataset.

The columns that repeat few values (`SHARED`) are kept as codes into one vocabulary per column, which
the `FileCache` only ever appends to: codes from an earlier refresh stay valid, and every stack's
codes join without rehashing any text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from components.domain.columns import HEAVY, NAMES
from components.domain.stacks import STACK_KEY

UNKNOWN = "unknown"  # a stack key value a file leaves empty
# Columns that repeat a few values over many rows: codes into a vocabulary shared by every file and kept
# between refreshes. The stack key columns are categories too, but each stack holds one value of them.
SHARED: tuple[str, ...] = tuple(sorted(set(HEAVY) | {
    "runner", "result", "exclusion", "cpu_match", "english", "transformers", "accelerate",
    "torch_neuronx", "torch", "nki", "python", "neuron_driver",
}))  # fmt: skip
_INT32 = {pa.int32(): pd.Int32Dtype()}.get

StackKey = tuple[str, ...]  # (neuronx_cc, library, library_version), in the order of STACK_KEY
Columns = dict[str, "np.ndarray | pd.Series"]  # a column name → its codes (SHARED) or a pandas Series


@dataclass(frozen=True)
class Span:
    """Where one stack's rows sit in a snapshot (`start:stop`), and the files they were built from."""

    sources: tuple[tuple[str, str], ...]  # (file name, file key) of every file holding the stack
    start: int
    stop: int
    columns: tuple[str, ...]  # the columns those files have (others are null in these rows)


def stack_rows(table: pa.Table) -> tuple[tuple[StackKey, np.ndarray | None], ...]:
    """The stacks of one file's normalised table, each with its row positions (None: every row)."""
    if not table.num_rows:
        return ()
    encoded = [pc.dictionary_encode(pc.fill_null(table.column(n), UNKNOWN)).combine_chunks() for n in STACK_KEY]
    codes = [e.indices.to_numpy(zero_copy_only=False).astype(np.int64) for e in encoded]
    sizes = [len(e.dictionary) for e in encoded]
    combined = np.ravel_multi_index(codes, sizes)
    uniques, first = np.unique(combined, return_index=True)
    keys = {int(u): tuple(str(e.dictionary[int(c[f])]) for e, c in zip(encoded, codes)) for u, f in zip(uniques, first)}
    if len(uniques) == 1:
        return ((keys[int(uniques[0])], None),)
    found = []
    for u in uniques[np.argsort(first)]:  # in order of first appearance
        found.append((keys[int(u)], np.flatnonzero(combined == u)))
    return tuple(found)


def build_part(tables: Sequence[pa.Table]) -> Columns:
    """The rows of one stack from the tables (in listing order) that hold it: the newest row of each
    model (a tie goes to the earlier file), newest first, as columns (stack key columns left out)."""
    pieces = [_columns(t) for t in tables]
    columns = concat_columns(pieces, [t.num_rows for t in tables])
    times = cast(pd.Series, columns["tested_at"]).array
    stamps, missing = times.asi8, np.asarray(times.isna())
    # newest first, a missing time last; stable, so a tie keeps the files' order
    order = np.lexsort((-np.where(missing, 0, stamps), missing))
    models, _ = pd.factorize(columns["model_id"])
    _, first = np.unique(models[order], return_index=True)
    keep = order[np.sort(first)]
    if len(keep) == len(stamps) and np.array_equal(keep, np.arange(len(keep))):
        return columns
    return {name: _take(values, keep) for name, values in columns.items()}


def _columns(table: pa.Table) -> Columns:
    """One table's columns: the SHARED ones as their codes (`FileCache.share`), a pandas Series for the
    others; the stack key columns are left out."""
    out: Columns = {}
    for name in table.column_names:
        if name in STACK_KEY:
            continue
        column = table.column(name)
        if name in SHARED:
            out[name] = column.to_numpy()
        else:
            out[name] = column.to_pandas(types_mapper=_INT32).reset_index(drop=True)
    return out


def _take(values, positions: np.ndarray):
    if isinstance(values, pd.Series):
        return values.take(positions).reset_index(drop=True)
    return values[positions]


def concat_columns(pieces: Sequence[Mapping[str, np.ndarray | pd.Series]], lengths: Sequence[int]) -> Columns:
    """Pieces of columns one after another; a column a piece lacks is empty (null) there."""
    names = list(dict.fromkeys(n for piece in pieces for n in piece))
    out: Columns = {}
    for name in names:
        parts = [piece.get(name) for piece in pieces]
        if name in SHARED:
            out[name] = np.concatenate(
                [p if p is not None else np.full(n, -1, np.int32) for p, n in zip(parts, lengths)]
            )
            continue
        kind = next(p for p in parts if p is not None)
        series = [p if p is not None else pd.Series([None] * n, dtype=kind.dtype) for p, n in zip(parts, lengths)]
        out[name] = series[0] if len(series) == 1 else pd.concat(series, ignore_index=True)
    return out


def of_rows(rows: pd.DataFrame, span: Span) -> Columns:
    """One stack's rows of a snapshot as columns (what `build_part` gave for them), without rehashing."""
    out: Columns = {}
    for name in span.columns:
        column = rows[name]
        if name in SHARED:
            out[name] = column.array.codes[span.start : span.stop]
        else:
            out[name] = column.iloc[span.start : span.stop].reset_index(drop=True)
    return out


def assemble(
    stacks: Sequence[tuple[StackKey, Columns, int]], vocabularies: Mapping[str, pd.CategoricalDtype]
) -> pd.DataFrame:
    """One frame of every stack's rows, stack after stack: the documented columns first, then any
    other by name (a refresh and a full load agree); SHARED columns categories of `vocabularies`."""
    lengths = [n for _, _, n in stacks]
    joined = concat_columns([columns for _, columns, _ in stacks], lengths)
    frame: dict[str, object] = {}
    for name in [*NAMES, *sorted(n for n in joined if n not in NAMES)]:
        if name in STACK_KEY:
            # categories in order of first appearance
            codes, order = pd.factorize(np.array([key[STACK_KEY.index(name)] for key, _, _ in stacks], dtype=object))
            frame[name] = pd.Categorical.from_codes(
                np.repeat(codes, lengths), dtype=pd.CategoricalDtype(pd.Index(order, dtype="str"))
            )
        elif name in SHARED:
            frame[name] = pd.Categorical.from_codes(joined[name], dtype=vocabularies[name], validate=False)
        elif name in joined:
            frame[name] = joined[name]
    return pd.DataFrame(frame)
