"""HTML for a config.json check (`queries/config_check.py`): the architecture, the estimated size, what to
expect and the tested models closest in size. Built with markupsafe: every value is escaped."""

from __future__ import annotations

from markupsafe import Markup

from components.queries.answers import ConfigCheckAnswer
from components.queries.formatting import cores_noted, is_missing, parameters
from components.web.html.evidence import expectation_html
from components.web.html.markup import copy_block


def config_check_html(answer: ConfigCheckAnswer) -> Markup:
    """The answer of /check_config as the Models page shows it."""
    size = answer.get("num_parameters")
    estimate = (
        Markup("about <b>{}</b> (an <i>estimate</i> from the config's sizes)").format(parameters(size))
        if size
        else Markup("unknown (the config lacks the sizes to estimate it)")
    )
    parts = [
        Markup('<div class="config-check" id="config-check-answer"><ul>'),
        Markup("<li><b>Architecture:</b> <code>{}</code>{}</li>").format(
            answer.get("architecture") or "none named",
            Markup(" (model_type <code>{}</code>)").format(answer["model_type"]) if answer.get("model_type") else "",
        ),
        Markup("<li><b>Size:</b> {}</li>").format(estimate),
        Markup("</ul>"),
        expectation_html(answer["expectation"], basis="the data", element_id=None),
    ]
    similar = answer.get("similar") or []
    if similar:
        rows = Markup("").join(
            Markup("<li><code>{}</code>: {}, <b>{}</b>{}</li>").format(
                m["model_id"],
                parameters(m.get("num_parameters")),
                m.get("result") or "unknown",
                "" if is_missing(m.get("tp")) else f" on {cores_noted(m.get('tp'))}",
            )
            for m in similar
        )
        parts.append(
            Markup("<p>Tested models of this architecture, closest in size first:</p><ul>{}</ul>").format(rows)
        )
    if answer.get("suggested_from"):
        parts.append(
            Markup(
                '<p class="suggested"><b>The run.py below is UNTESTED:</b> adapted from the tested script of '
                "<code>{}</code>; put your model's folder in place of <code>/path/to/your/model</code>.</p>{}"
            ).format(
                answer["suggested_from"], copy_block("config-run-py", answer["suggested_run_py"] or "", "Copy run.py")
            )
        )
    parts.append(Markup("</div>"))
    return Markup("").join(parts)


def snippets_html(pandas_code: str, sql: str) -> Markup:
    """The view's own query, in pandas and in DuckDB SQL, each to copy."""
    return Markup(
        "<p>Run as they are, these read the public dataset and return the rows shown (pandas needs "
        "<code>huggingface_hub</code> for <code>hf://</code> paths; DuckDB reads them itself).</p>"
        "<p><b>pandas</b></p>{}<p><b>DuckDB SQL</b></p>{}"
    ).format(
        copy_block("snippet-pandas", pandas_code, "Copy the pandas lines"),
        copy_block("snippet-sql", sql, "Copy the SQL"),
    )


def config_error_html(message: str) -> Markup:
    return Markup('<p class="config-error" id="config-check-answer" role="alert">{}</p>').format(message)
