"""The Models table's answer for a query, whatever model is open: the query as shown (its stack resolved), the
rows in their order with their live HTML, the summary above them and the query snippets below.

A model opened on the page changes only its own row's selection and the headers' links (`table.results_table`),
so the Models page keeps a `TableRows` per query, order, limit and data moment (`gradio/pages/models.py`
`TABLES`), and a crowd opening many models of one view renders its rows once (issue 48).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from markupsafe import Markup

from components.domain.stacks import names_stack
from components.queries import links, ordering, sizes, snippets, views
from components.sources.app_sources import Moment
from components.sources.records import OTHER_REPOS, hub_address, hub_id
from components.web.html import downloads, evidence, grid, table
from components.web.html.config_check import snippets_html


@dataclass(frozen=True)
class TableRows:
    """What a table answer holds whatever model is open: the query as shown, the order, the rows' frame and
    their live rows, the summary, the query snippets, and whether more rows are left."""

    query: views.Query
    order: ordering.Order
    frame: Any
    rows: tuple[tuple[str, Markup], ...]
    summary: Markup
    snippets: Markup
    more: bool

    def weight(self) -> int:
        """Its bytes, about: the rows' HTML and the lines around them (the frame is a few hundred rows at most)."""
        return sum(len(row) for _, row in self.rows) + len(self.summary) + len(self.snippets)


def selected(now: Moment, query: views.Query) -> tuple[views.Query, Any]:
    """The query with the stack it names resolved (a choice a refresh dropped shows the default stack; none named:
    every library's newest), and its rows."""
    named = names_stack(query.neuronx_cc, query.library_version)
    stack = now.snapshot.stack_or_default(query.neuronx_cc, query.library_version) if named else None
    if stack is not None:
        query = replace(query, neuronx_cc=stack.neuronx_cc, library_version=stack.spec)
    return query, views.select(now.snapshot, now.rankings, query, now.records)


def table_rows(now: Moment, query: views.Query, limit: int, sort: str) -> TableRows:
    """The rows of `query` in the `sort=` order, its first `limit`, with the lines around them."""
    query, result = selected(now, query)
    order = ordering.parse(sort)
    shown = ordering.apply(result.frame, order).head(limit)
    view = views.of(query.view)
    summary = table.summary_line(
        result.total, len(shown), result.passed, result.stack, view.label, result.per_library()
    )
    if view.note is not None:
        summary += table.view_note(view.note(result))
    asked = hub_id(query.text)
    address = hub_address(query.text)
    found = 0
    if address is not None and address.kind in OTHER_REPOS:
        summary += table.not_a_model(OTHER_REPOS[address.kind])
    elif not result.total and result.stack is not None and (query.text or query.task):
        # nothing on the stack named: say where the search finds models (FLUX with a Transformers stack picked)
        every = replace(query, neuronx_cc="", library_version="")
        other = views.select(now.snapshot, now.rankings, every, now.records)
        found = other.total
        if found:
            libraries = [s.library_label for s, n, _ in other.per_library() if n]
            summary += table.elsewhere_note(found, libraries, links.build(links.PageState(every, "")))
    if not result.total and asked and not found:
        summary += evidence.lookup_offer(query.text, links.build(links.PageState(query, asked)))
    elif result.total:
        summary += downloads.links_html(links.PageState(query, "")) + table.TABLE_HINT
    summary += table.size_note(result.size_unknown, sizes.label(query.size))
    summary += grid.architecture_note(query)  # a Grid cell's link: which architecture, and the way back
    pandas_code, sql = snippets.view_snippets(result)
    rows = table.live_rows(
        shown, query.view, order, lambda opened, asked: links.build(links.PageState(query, opened, sort=asked))
    )
    return TableRows(query, order, shown, rows, summary, snippets_html(pandas_code, sql), result.total > len(shown))
