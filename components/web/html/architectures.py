"""The architectures on one stack (the Architectures page's result): the headline figure beside its
definition, and a table of each architecture's tested and passed counts and its models. Escaped by
construction with markupsafe: architecture names and model ids are data."""

from __future__ import annotations

from markupsafe import Markup

from components.domain.results import OTHER, PASS, result_kind
from components.queries import architectures
from components.queries.answers import ArchitectureAnswer
from components.runtime import settings


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
        shown = row["models"][: settings.ARCHITECTURE_MODELS.value]
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
