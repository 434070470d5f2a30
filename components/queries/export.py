"""Downloads: the rows of the current view (every match, not only the page shown) as CSV or Parquet.

The rows are exactly `views.select(...)`'s, so a download, the table and `/search` never disagree.

Spreadsheets run a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a
formula, and dataset text is not ours to trust. In the CSV such a text cell gets a leading `'`
(the usual guard; spreadsheets hide it). Numbers are left alone, and the Parquet file, which no
spreadsheet evaluates, keeps every value exactly as recorded.
"""

from __future__ import annotations

import io
import re
import typing
from datetime import datetime

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from components.domain.columns import BY_NAME
from components.domain.versions import short_version
from components.queries import views
from components.queries.answers import RowAnswer
from components.queries.views import ANSWER_FIELDS, ViewResult

FORMATS = ("csv", "parquet")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Types of the columns that are not dataset columns (the dataset's come from the registry): those the
# row answer declares (`answers.RowAnswer`).
_ARROW = {str: pa.string(), int: pa.int64(), float: pa.float64()}


def _arrow_type(hint: object) -> pa.DataType:
    """The Arrow type of a declared field: its type without None; an enum of words (`kind`) is a string."""
    if typing.get_origin(hint) is typing.Literal:
        return pa.string()
    return _ARROW[next(t for t in typing.get_args(hint) or (hint,) if t is not type(None))]


_EXTRA_TYPES = {
    name: _arrow_type(hint) for name, hint in typing.get_type_hints(RowAnswer).items() if name not in BY_NAME
}
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def export_table(result: ViewResult) -> pa.Table:
    """The rows of a view as a typed Arrow table: the row fields, then the view's own fields it has (a ranking's,
    the recent view's tested_at)."""
    fields = [c for c in ANSWER_FIELDS if c in result.frame.columns]
    records = result.records()
    schema = pa.schema(
        [pa.field(name, BY_NAME[name].type if name in BY_NAME else _EXTRA_TYPES[name]) for name in fields]
    )
    times = [f.name for f in schema if pa.types.is_timestamp(f.type)]  # ISO 8601 in the answer, a time here
    rows = [{name: r.get(name) for name in fields} for r in records]
    for row in rows:
        row.update({name: datetime.fromisoformat(str(row[name])) for name in times if row[name] is not None})
    return pa.Table.from_pylist(rows, schema=schema)


def csv_frame(table: pa.Table) -> pd.DataFrame:
    """The table as the CSV writes it: whole numbers stay whole, formula-like text is defused."""
    frame = table.to_pandas(types_mapper={pa.int32(): pd.Int32Dtype(), pa.int64(): pd.Int64Dtype()}.get)
    for field in table.schema:
        if pa.types.is_string(field.type):
            frame[field.name] = frame[field.name].map(defuse, na_action="ignore")
    return frame


def defuse(text: str) -> str:
    """`=1+1` → `'=1+1`: a spreadsheet shows the text instead of running it."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def file_name(result: ViewResult, fmt: str) -> str:
    """`torch-neuronx-support_selected_2.28.7631.0_diffusers-0.36.0.csv`: the view (its label:
    `recently-tested`) and the stack it holds, safe as a file name; with no stack named, the newest compiler and
    `all-libraries`."""
    stack = result.stack if result.stack is not None else (result.stacks[0] if result.stacks else None)
    cc = short_version(stack.neuronx_cc) if stack else "no-data"
    held = "all-libraries" if result.stack is None else f"{result.stack.library}-{result.stack.library_version}"
    view = views.of(result.query.view).label.lower().replace(" ", "-")
    parts = (view, cc, held) if stack else (view, cc)
    return "torch-neuronx-support_" + "_".join(_UNSAFE_NAME.sub("_", p) for p in parts) + f".{fmt}"


def to_bytes(result: ViewResult, fmt: str) -> bytes:
    """The view's rows as the bytes of a `fmt` file ("csv" or "parquet"), made in memory: nothing is
    written to disk. A view holds at most one stack's rows (~10,000), a few MB at most.

    Raises ValueError for an unknown format.
    """
    return table_bytes(export_table(result), fmt)


def table_bytes(table: pa.Table, fmt: str) -> bytes:
    """A typed table as the bytes of a `fmt` file (a view's rows, the support grid's cells), made in memory, the
    CSV defused (`csv_frame`). Raises ValueError for an unknown format."""
    if fmt not in FORMATS:
        raise ValueError(f"export format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "csv":
        return csv_frame(table).to_csv(index=False).encode("utf-8")
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    return buffer.getvalue()
