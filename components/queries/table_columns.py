"""The Models table's columns, each declared once: the registry the live table, the painted table, sorting,
the answers' fields (and so the OpenAPI document and Gradio's API page), the CSV/Parquet exports and the docs'
column list are made from.

A column is its `id` (the link's `sort=` key and its cells' class, `c-ID`), its `header`, the answer `field`
it shows (also its name in a CSV or Parquet export), how a cell reads (`text`, from the row), how it sorts
(`order`: the values a sort compares, worked out for a whole column at once), how it lines up (`align`,
`width`), where it shows (`screens`; a `figure` shows only in the view that ranks by it) and a line for the
docs. A column whose field the dataset does not hold declares it here (`answer`: its type and description)
and makes it (`derive`, over a view's frame): the answers then carry it like any other field.
(`domain/columns.py` is another concept: the dataset's schema.)

`python -m components.queries.table_columns --markdown` prints the list docs/data.md carries.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

import numpy as np
import pandas as pd

from components.domain.hardware import hardware
from components.domain.results import EXCLUDED, FAIL, NOT_TESTED, PASS
from components.queries import formatting
from components.runtime.markdown import print_when_asked
from components.runtime.markdown import table as markdown_table

WIDE, PHONE = "wide", "phone"  # the screens
PHONE_SCREEN = "(max-width:600px)"  # a phone's, as a media query (the style sheets' breakpoint)
# Results read best first: what runs, what fails, what was left out, what nobody ran (anything else: between).
RESULT_ORDER = {PASS: 0, FAIL: 1, EXCLUDED: 2, NOT_TESTED: 4}


def billions(value: object) -> float | None:
    """A parameter count in billions, rounded as the Size column shows it; None when unknown."""
    if formatting.is_missing(value) or isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return round(float(value) / 1e9, 2 if value < 1e11 else 0)


def _size(row: Mapping) -> str:
    size = billions(row.get("num_parameters"))
    return f"{size:g}" if size is not None else "—"


def by_number(values: pd.Series) -> pd.Series:
    """A column's values as numbers (anything else: missing, sorted last)."""
    return pd.to_numeric(values, errors="coerce")


def by_text(values: pd.Series) -> pd.Series:
    """A column's values as lower-case text (A to Z whatever the case)."""
    return values.astype(str).str.lower()


def by_result(values: pd.Series) -> pd.Series:
    """Results best first (`RESULT_ORDER`)."""
    return values.map(lambda kind: RESULT_ORDER.get(kind, 3))


def _instances(frame: pd.DataFrame) -> np.ndarray:
    """Each row's smallest trn2 instance for its cores (`tp`), None where the cores are unknown."""
    cores = frame["tp"] if "tp" in frame.columns else pd.Series(np.nan, index=frame.index)
    return hardware().smallest_instances(pd.to_numeric(cores, errors="coerce").to_numpy(dtype=float, na_value=np.nan))


def by_time(values: pd.Series) -> pd.Series:
    """Times as numbers (a time a file does not record: missing, sorted last)."""
    times = pd.to_datetime(values, utc=True, errors="coerce")
    return pd.Series(times.array.asi8, index=values.index).where(times.notna())


def by_instance_cores(values: pd.Series) -> pd.Series:
    """Instances by their cores (trn2.3xlarge's 4 before trn2.48xlarge's 64), not by name."""
    return pd.to_numeric(values.map(hardware().instance_cores()), errors="coerce")


@dataclass(frozen=True)
class Column:
    """One column of the Models table (see the module's docstring)."""

    id: str
    header: str
    field: str
    about: str  # one line for the docs' column list
    text: Callable[[Mapping], str] | None = None  # a cell's text from its row; None: the page draws it (link, badge)
    order: Callable[[pd.Series], pd.Series] = by_number
    descending_first: bool = True  # a first click sorts high to low (numbers), else A to Z
    sorts: str = "by number, high to low first"  # how it sorts, in words (the docs' list)
    unit: str = ""
    align: Literal["left", "right"] = "right"
    width: str = ""  # a CSS min-width on a wide screen ("" for the table's own)
    screens: frozenset[str] = frozenset({WIDE})
    figure: bool = False  # the figure a view ranks by: shown only in that view (`shown`)
    answer: object = None  # Annotated[type, "description"] of a field only this registry declares
    derive: Callable[[pd.DataFrame], object] | None = None  # that field's values over a view's frame

    @property
    def css_class(self) -> str:
        return f"c-{self.id}"


# In the order the table shows them; the figure columns last (one of them shows, as the view's last column).
COLUMNS: tuple[Column, ...] = (
    Column("model", "Model", "model_id", "the model's Hub id (a link to its answer), its rank in a ranked view, "
           "its task, and its library when that is not Transformers",
           order=by_text, descending_first=False, sorts="A to Z first", align="left", width="12em",
           screens=frozenset({WIDE, PHONE})),
    Column("result", "Result", "kind", "what the result means: pass, fail, excluded, not tested",
           order=by_result, descending_first=False, sorts="pass, fail, excluded, not tested", align="left",
           screens=frozenset({WIDE, PHONE})),
    Column("size", "Size (B)", "num_parameters", "the parameter count in billions, from the Hub record",
           text=_size, unit="parameters (shown in billions)"),
    Column("cores", "Cores", "tp", "the Trainium cores the model was sharded over",
           text=lambda r: formatting.cores(r.get("tp")), unit="cores"),
    Column("instance", "Instance", "instance", "the smallest trn2 instance with the cores used (data/trn2.json)",
           text=lambda r: "—" if formatting.is_missing(r.get("instance")) else str(r["instance"]),
           order=by_instance_cores, sorts="by the instance's cores, most first",
           answer=Annotated[str | None, "the smallest trn2 instance with at least the cores used (e.g. trn2.3xlarge, "
                                         "data/trn2.json), null when the cores are unknown"],
           derive=_instances),
    Column("wall", "Wall time", "wall_s", "wall time of the run, compilation included",
           text=lambda r: formatting.duration(r.get("wall_s")), unit="seconds"),
    Column("memory", "Peak memory", "hbm_peak_gb", "peak device (HBM) memory against the capacity of the cores used",
           text=lambda r: formatting.memory(r.get("hbm_peak_gb"), r.get("hbm_capacity_gb")), unit="GB"),
    Column("downloads", "Downloads", "downloads", "the Hub's download count (the last column in Selected and Downloads)",
           text=lambda r: formatting.compact(r.get("downloads")), figure=True),
    Column("trending", "Trending score", "trending_score", "the Hub's trending score (the last column in Trending)",
           text=lambda r: formatting.compact(r.get("trending_score")), figure=True),
    Column("tested", "Tested", "tested_at", "the day the run was made, UTC (the last column in Recently tested)",
           text=lambda r: formatting.day(r.get("tested_at")), order=by_time, sorts="by time, newest first",
           figure=True),
)  # fmt: skip
BY_ID: dict[str, Column] = {c.id: c for c in COLUMNS}


def shown(figure: str) -> tuple[Column, ...]:
    """The columns a view shows, in order: every column but the figures, then the figure `figure` (the id of the
    column the view ranks by; another id: the first figure)."""
    figures = [c for c in COLUMNS if c.figure]
    last = BY_ID[figure] if figure in BY_ID and BY_ID[figure].figure else figures[0]
    return (*(c for c in COLUMNS if not c.figure), last)


def own_fields() -> dict[str, object]:
    """The answer fields only this registry declares ({field: Annotated type}), in the table's order."""
    return {c.field: c.answer for c in COLUMNS if c.answer is not None}


OWN_FIELDS: tuple[str, ...] = tuple(own_fields())


def derive(frame: pd.DataFrame) -> pd.DataFrame:
    """`frame` (a view's rows) with the fields this registry makes (`Column.derive`); the same frame when none."""
    made = {c.field: c.derive(frame) for c in COLUMNS if c.derive is not None}
    return frame.assign(**made) if made else frame


def markdown() -> str:
    """The column list docs/data.md prints, one row a column, in the table's order."""
    header = ("column", "field (and export column)", "unit of the field", "sorts", "on a phone", "what it shows")
    rows = [
        (c.header, f"`{c.field}`", c.unit or "—", c.sorts, "yes" if PHONE in c.screens else "no", c.about)
        for c in COLUMNS
    ]
    return markdown_table(header, rows)


if __name__ == "__main__":
    print_when_asked("components.queries.table_columns", markdown)
