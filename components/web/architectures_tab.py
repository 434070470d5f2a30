"""The "Architectures" tab: each architecture on one stack with its tested and passed counts and its
models, under the headline figure and its definition. Drawn when the tab is opened, never at page load."""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr
from markupsafe import Markup

from components.queries import architectures
from components.sources.rankings import RankingsStore
from components.sources.records_store import RecordsStore
from components.sources.results import OTHER, PASS, result_kind
from components.sources.stacks import picker_choices
from components.sources.store import DatasetStore

MAX_MODELS_LISTED = 12  # per architecture; the rest are counted


def headline_html(figure: dict) -> Markup:
    """The headline figure with its definition right beside it."""
    if figure["share"] is None:
        value = Markup('<p class="headline-figure">No architecture of the ranked models is known.</p>')
    else:
        value = Markup(
            '<p class="headline-figure"><b>{:.0%}</b> of the top trending text-generation architectures run: '
            "{} of {} have a model that passes on this stack.</p>"
        ).format(figure["share"], figure["passing"], figure["architectures"])
    missing = [r["architecture"] for r in figure["rows"] if not r["passing"]]
    detail = (
        Markup('<p class="headline-missing">Without a passing model: {}.</p>').format(
            Markup(", ").join(Markup("<code>{}</code>").format(n) for n in missing)
        )
        if missing
        else Markup("")
    )
    unknown = (
        Markup(" {} of the {} ranked models have no known architecture.").format(figure["unknown"], figure["ranked"])
        if figure["unknown"]
        else Markup("")
    )
    return Markup('<div class="headline" id="arch-headline">{}<p class="definition hint">{}{}</p>{}</div>').format(
        value, figure["definition"], unknown, detail
    )


def table_html(rows: list[dict]) -> Markup:
    """Architectures with tested and passed counts and their models (smallest first)."""
    if not rows:
        return Markup('<p class="summary empty">No model on this stack has a known architecture.</p>')
    body = []
    for row in rows:
        shown = row["models"][:MAX_MODELS_LISTED]
        names = Markup(", ").join(
            Markup('<span class="arch-model result-{}">{}</span>').format(
                PASS if result_kind(m["result"]) == PASS else OTHER, m["model_id"]
            )
            for m in shown
        )
        more = len(row["models"]) - len(shown)
        if more > 0:
            names += Markup(" and {} more").format(more)
        body.append(
            Markup('<tr><th scope="row"><code>{}</code></th><td>{}</td><td>{}</td><td>{}</td></tr>').format(
                row["architecture"], row["tested"], row["passed"], names
            )
        )
    return Markup(
        '<table class="arch-table" id="arch-table"><caption>Architectures on this stack, most tested first</caption>'
        "<thead><tr><th>Architecture</th><th>Tested</th><th>Passed</th><th>Models</th></tr></thead>"
        "<tbody>{}</tbody></table>"
    ).format(Markup("").join(body))


class ArchitecturesTab:
    def __init__(self, datasets: DatasetStore, rankings: RankingsStore, records: RecordsStore):
        self.datasets = datasets
        self.rankings = rankings
        self.records = records

    def on_open(self, value: str | None):
        """Fill the stack picker (keeping a choice still in the data) and draw the tab."""
        snapshot = self.datasets.current()
        stack = snapshot.picker_stack(value)
        picker = gr.update(choices=picker_choices(snapshot.stacks), value=stack.picker_value if stack else None)
        return (picker, *self._draw(snapshot, stack))

    def on_stack(self, value: str | None):
        snapshot = self.datasets.current()
        return self._draw(snapshot, snapshot.picker_stack(value))

    def _draw(self, snapshot, stack) -> tuple[Markup, Markup]:
        records = self.records.current()
        figure = architectures.headline(snapshot, self.rankings.current(), records, stack)
        return headline_html(figure), table_html(architectures.architectures(snapshot, records, stack))


def build(opened: Callable, datasets: DatasetStore, rankings: RankingsStore, records: RecordsStore) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    handler = ArchitecturesTab(datasets, rankings, records)
    stack = gr.Dropdown(label="Stack", elem_id="arch-stack", min_width=260)
    headline = gr.HTML(elem_id="arch-headline-box")
    table = gr.HTML(elem_id="arch-table-box")
    opened(handler.on_open, stack, [stack, headline, table], api_visibility="private")
    stack.input(handler.on_stack, stack, [headline, table], trigger_mode="always_last", api_visibility="private")
