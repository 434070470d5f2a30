"""The results table of the Models page: its columns, its cells (escaped HTML, figures included) and the
lines around it (the summary, the hint, the size note).
"""

from __future__ import annotations

import numbers
from typing import Literal

import pandas as pd
from markupsafe import Markup

from components.domain.results import OTHER
from components.queries import formatting
from components.sources.snapshot import Stack
from components.web.html.markup import badge, esc, model_link

TABLE_HINT = Markup(
    '<p class="hint">Click a row, or press Enter on it, to see how to run the model. <i>Wall time</i> includes '
    "compilation; <i>peak memory</i> is device (HBM) memory against the capacity of the cores used.</p>"
)  # under the summary line, above the table

# The last column is the figure a view orders by: the Hub's trending score in Trending, its downloads
# elsewhere. One shape for every view lets the table keep its column widths.
_FIGURE = {"trending": ("Trending score", "trending_score")}
_DOWNLOADS = ("Downloads", "downloads")
TABLE_WIDTHS: list[str | int] = ["28%", "12%", "8%", "9%", "13%", "16%", "14%"]
SIZE_HEADER = "Size (B)"
# Size is a number cell (billions of parameters), so the table sorts it by number; the rest is HTML.
TABLE_TYPES: list[Literal["html", "number"]] = ["html", "html", "number", "html", "html", "html", "html"]


def table_columns(view: str) -> tuple[str, ...]:
    """The table's headers in a view."""
    return ("Model", "Result", SIZE_HEADER, "Cores", "Wall time", "Peak memory", _FIGURE.get(view, _DOWNLOADS)[0])


def billions(value: object) -> float | None:
    """A parameter count in billions, rounded as the Size column shows it; None when unknown."""
    if formatting.is_missing(value) or isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return round(float(value) / 1e9, 2 if value < 1e11 else 0)


def table_frame(frame: pd.DataFrame, view: str = "selected") -> pd.DataFrame:
    """The rows of a view as the table shows them (already limited to what is sent): every cell is
    escaped HTML, figures included. A ranked view puts each model's rank before its name."""
    figure = _FIGURE.get(view, _DOWNLOADS)[1]
    rows = []
    for r in frame.to_dict("records"):
        rank = r.get("rank") if view != "selected" else None
        model = model_link(r["model_id"])
        if r.get("task"):
            model += Markup('<br><small class="task">{}</small>').format(r["task"])
        if not formatting.is_missing(rank):
            model = Markup('<span class="rank" title="Rank on the Hub">{}</span> ').format(int(rank or 0)) + model
        rows.append(
            [
                model,
                badge(r.get("kind") or OTHER, r.get("result")),
                billions(r.get("num_parameters")),
                esc(formatting.cores(r.get("tp"))),
                esc(formatting.duration(r.get("wall_s"))),
                esc(formatting.memory(r.get("hbm_peak_gb"), r.get("hbm_capacity_gb"))),
                esc(formatting.compact(r.get(figure))),
            ]
        )
    return pd.DataFrame(rows, columns=list(table_columns(view)))


def size_note(left_out: int, size_label: str) -> Markup:
    """Under the summary when a size is picked: how many models were left out for an unknown size."""
    if not left_out:
        return Markup("")
    return Markup(
        '<p class="hint size-note">Size {}: {:,} model{} of unknown size left out (pick "Any size" to see them).</p>'
    ).format(size_label, left_out, "" if left_out == 1 else "s")


def summary_line(total: int, shown: int, passed: int, stack: Stack | None, view_label: str) -> Markup:
    if stack is None:
        return Markup('<p class="summary">No data loaded. See the notice above.</p>')
    where = stack.label
    if not total:
        return Markup(
            '<p class="summary empty">No models match in the {} view on {}. '
            "Try fewer words, another task, or another stack.</p>"
        ).format(view_label, where)
    rate = f" ({passed / total:.0%})" if total else ""
    more = f"showing the first {shown:,} of " if shown < total else ""
    return Markup('<p class="summary">{}<b>{:,}</b> models · <b>{:,}</b> pass{} · on {}</p>').format(
        more, total, passed, rate, where
    )
