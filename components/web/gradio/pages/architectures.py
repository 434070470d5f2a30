"""The "Architectures" tab: each architecture on one stack with its tested and passed counts and its
models, under the headline figure and its definition. Drawn when the tab is opened, never at page load."""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr
from markupsafe import Markup

from components.domain.results import OTHER, PASS, result_kind
from components.domain.stacks import Stack, picker_choices
from components.queries import architectures
from components.queries.answers import ArchitectureAnswer
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.web.gradio.pages.wiring import PAGE_EVENT, answering, by_name, components

MAX_MODELS_LISTED = settings.ARCHITECTURE_MODELS.value


def headline_html(figure: architectures.Headline) -> Markup:
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


def table_html(rows: list[ArchitectureAnswer]) -> Markup:
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


class ArchitecturesPage:
    """The page's handlers: inputs by picker name, answers by component name (see `wiring.py`)."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def layout(self) -> None:
        self.stack = gr.Dropdown(label="Stack", elem_id="arch-stack", min_width=260)
        self.headline = gr.HTML(elem_id="arch-headline-box")
        self.table = gr.HTML(elem_id="arch-table-box")

    def on_open(self, stack: str | None = None) -> dict:
        """Fill the stack picker (keeping a choice still in the data) and draw the tab."""
        now = self.sources.now()
        chosen = now.snapshot.picker_stack(stack)
        picker = gr.update(choices=picker_choices(now.snapshot.stacks), value=chosen.picker_value if chosen else None)
        return {"stack": picker, **self._draw(now, chosen)}

    def on_stack(self, stack: str | None = None) -> dict:
        now = self.sources.now()
        return self._draw(now, now.snapshot.picker_stack(stack))

    @staticmethod
    def _draw(now: Moment, stack: Stack | None) -> dict:
        figure = architectures.headline(now.snapshot, now.rankings, now.records, stack)
        return {
            "headline": headline_html(figure),
            "table": table_html(architectures.architectures(now.snapshot, now.records, stack)),
        }


def build(opened: Callable, sources: Sources) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    tab = ArchitecturesPage(sources)
    tab.layout()
    picker = by_name(tab, ("stack",))
    drawn = components(tab, ("headline", "table"))
    opened(answering(tab, tab.on_open), inputs_kwargs=picker, outputs=[tab.stack, *drawn], **PAGE_EVENT)
    tab.stack.input(answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=drawn, trigger_mode="always_last",
                    **PAGE_EVENT)  # fmt: skip
