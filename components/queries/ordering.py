"""The order of the Models table: a column a person sorts by (the link's `sort=`), numbers as numbers.

A view has its own order (its `views.View.rows`: the Hub's rank in Trending and Downloads; in Selected, names
that start as typed, then downloads). `sort=KEY` orders by one column instead, `sort=-KEY` in reverse;
models without a value (an untested model's wall time) come last either way, and ties keep the view's
order.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from components.queries import table_columns, views

# key (as the link writes it) -> the column it sorts by (`table_columns`: its field, its first direction and
# the values a sort compares)
COLUMNS: dict[str, table_columns.Column] = table_columns.BY_ID


@dataclass(frozen=True)
class Order:
    """A column and a direction; the empty key is the view's own order."""

    key: str = ""
    descending: bool = False

    @property
    def param(self) -> str:
        """The link's `sort=` value ("" for the view's own order)."""
        return ("-" if self.descending else "") + self.key if self.key else ""

    def after_click(self, key: str) -> Order:
        """The order a click on `key`'s header asks for: the other direction when it is the column sorted
        already, else its first direction (numbers high to low, text A to Z). An unknown key changes nothing."""
        column = COLUMNS.get(key)
        if column is None:
            return self
        if key == self.key:
            return Order(key, not self.descending)
        return Order(key, column.descending_first)


def parse(text: object) -> Order:
    """A link's `sort=` value as an order; anything else is the view's own order."""
    if not isinstance(text, str):
        return Order()
    descending = text.startswith("-")
    key = text[1:] if descending else text
    return Order(key, descending) if key in COLUMNS else Order()


def view_order(view: str, searching: bool) -> Order:
    """The column a view's own order follows (`views.View.order`), for the header that says so: none while a
    search puts the names that match best first (`search_reorders`, Selected)."""
    declared = views.of(view)
    if not declared.order or (searching and declared.search_reorders):
        return Order()
    return Order(declared.order, True)


def shown(order: Order, view: str, searching: bool) -> Order:
    """The order the rows follow: the link's, else the view's own (`view_order`)."""
    return order if order.key else view_order(view, searching)


def apply(frame: pd.DataFrame, order: Order) -> pd.DataFrame:
    """`frame` (a view's rows, in the view's order) in `order`: a stable sort, missing values last."""
    column = COLUMNS.get(order.key)
    if column is None or column.field not in frame.columns or frame.empty:
        return frame
    key = column.order(frame[column.field]).rename("_order")
    ranked = frame.assign(_order=key.to_numpy())
    ranked = ranked.sort_values("_order", ascending=not order.descending, kind="stable", na_position="last")
    return ranked.drop(columns="_order").reset_index(drop=True)
