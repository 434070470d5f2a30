"""HTML for what the page shows, built with markupsafe: a plain `str` is always escaped, and only
`Markup` (this module's own tags) passes as markup. Model ids, errors, notes and scripts are data.
"""

from __future__ import annotations

import numbers

import pandas as pd
from markupsafe import Markup, escape

from components.domain.columns import BY_NAME, STACK_PACKAGES
from components.domain.results import EXCLUDED, FAIL, KIND_LABELS, MEANING, NOT_TESTED, OTHER, PASS
from components.domain.stacks import StackRef
from components.domain.versions import short_version
from components.queries import formatting, freshness, links
from components.sources.moment import Moment, Sources
from components.sources.snapshot import Provenance, Skipped, Stack

# Until a model is opened, the details column says what it will hold (never empty boxes).
GUIDE = Markup(
    '<div class="details-guide"><p><b>Open a model</b> (click its row, or Tab to the table and press Enter) '
    "to get:</p><ul>"
    "<li>its result on the chosen stack, the Trainium cores, the wall time and the peak device memory;</li>"
    "<li>the <code>pip install</code> line pinned to the stack, and the command that fetches its compiled "
    "graphs;</li>"
    "<li>the exact <code>run.py</code> the harness ran, to copy or download;</li>"
    "<li>how it fared on every other stack, or why it was excluded.</li></ul></div>"
)
TABLE_HINT = Markup(
    '<p class="hint">Click a row, or press Enter on it, to see how to run the model. <i>Wall time</i> includes '
    "compilation; <i>peak memory</i> is device (HBM) memory against the capacity of the cores used.</p>"
)  # under the summary line, above the table
ERROR_PREVIEW_LINES = 6
MAX_ERROR_CHARS = 50_000


def esc(value: object) -> Markup:
    """A value as text in HTML (None is nothing)."""
    return Markup("") if value is None else escape(str(value))


def join(parts) -> Markup:
    """Pieces of HTML (each escaped unless it is Markup) as one."""
    return Markup("").join(parts)


def model_link(model_id: str) -> Markup:
    """The model's id, linking to its page on the Hub."""
    return Markup('<a href="{}" target="_blank" rel="noopener noreferrer" class="model-link">{}</a>').format(
        links.model_url(model_id), model_id
    )


def badge(kind: str, result: object) -> Markup:
    label = KIND_LABELS[kind] if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else str(result or "unknown")[:40]
    css = kind if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else OTHER
    return Markup('<span class="badge badge-{}">{}</span>').format(css.replace(" ", "-"), label)


# The last column is the figure a view orders by: the Hub's trending score in Trending, its downloads
# elsewhere. One shape for every view lets the table keep its column widths.
_FIGURE = {"trending": ("Trending score", "trending_score")}
_DOWNLOADS = ("Downloads", "downloads")
TABLE_WIDTHS = ["28%", "12%", "8%", "9%", "13%", "16%", "14%"]
SIZE_HEADER = "Size (B)"
# Size is a number cell (billions of parameters), so the table sorts it by number; the rest is HTML.
TABLE_TYPES = ["html", "html", "number", "html", "html", "html", "html"]


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
            model = Markup('<span class="rank" title="Rank on the Hub">{}</span> ').format(int(rank)) + model
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


def provenance_line(p: Provenance) -> str:
    """One sentence for the header: what is shown and how fresh it is."""
    newest = p.newest_tested_at.strftime("%Y-%m-%d") if p.newest_tested_at else "unknown date"
    what = {
        "hub": f"Live dataset {p.source}",
        "local": f"Local dataset '{p.source}'",
        "sample": "Made-up data bundled with the app, not real results",
    }.get(p.kind, p.source)
    line = f"{what}: {p.rows_read:,} rows from {p.files_read} file(s), newest run {newest}"
    # live data can outlive a failed refresh: say when it was read, and how long ago
    age = freshness.age_text(freshness.data_age(p))
    if p.kind == "hub":
        line += f", read from the Hub {p.loaded_at:%Y-%m-%d %H:%M} UTC ({age} ago)."
    else:
        line += "." if p.is_sample else f", read {age} ago."
    if p.fallback_reason:
        line += f" Shown because {p.fallback_reason}."
    return line


def page_header(sources: Sources, moment: Moment) -> Markup:
    """The notice of every page, from what `moment` serves and the dataset's `source_status()`."""
    status = sources.datasets.source_status()
    return header(moment.snapshot.provenance, moment.snapshot.skipped, moment.rankings.label(), status.last_error)


def header(
    provenance: Provenance, skipped: tuple[Skipped, ...], rankings_label: str, refresh_error: str | None = None
) -> Markup:
    """The notice under the title: where the data comes from, how fresh, and what was skipped.
    `refresh_error` is why the latest refresh failed, if it did (the data shown is then older)."""
    kind = "sample" if provenance.is_sample else provenance.kind
    parts = [Markup('<div class="provenance provenance-{}" id="provenance">').format(kind)]
    if provenance.is_sample:
        parts.append(Markup('<strong class="sample-flag">Sample data</strong> '))
    parts.append(provenance_line(provenance))
    stale = freshness.stale_warning(provenance)
    if stale:
        parts.append(Markup('<br><strong class="stale">{}</strong>').format(stale))
    if refresh_error and not provenance.is_sample:  # the sample already says why it is shown
        parts.append(
            Markup(
                '<br><span class="refresh-failed">The latest refresh failed ({}); '
                "this is the data read before it.</span>"
            ).format(refresh_error)
        )
    parts.append(Markup('<br><span class="rankings-line">Rankings: {}</span>').format(rankings_label))
    if skipped:
        items = join(Markup("<li><code>{}</code>: {}</li>").format(s.file, s.reason) for s in skipped[:50])
        extra = Markup("<li>… and {} more</li>").format(len(skipped) - 50) if len(skipped) > 50 else ""
        parts.append(
            Markup(
                '<details class="skipped"><summary>{} problem(s) while reading the data '
                "(the good rows are all shown)</summary><ul>{}{}</ul></details>"
            ).format(len(skipped), items, extra)
        )
    parts.append(Markup("</div>"))
    return join(parts)


def details(answer: dict) -> Markup:
    """The top of the details panel: result and meaning, the reason or the error, and the stack."""
    if not answer:
        return Markup("")
    kind = answer.get("kind") or OTHER
    model_id = answer.get("model_id", "")
    out = [
        Markup('<div class="details-head"><h3>{} {}</h3>').format(
            model_link(model_id), badge(kind, answer.get("result"))
        )
    ]
    stack = answer.get("neuronx_cc")
    if stack:
        out.append(Markup('<p class="on-stack">on {}</p>').format(StackRef.of(answer).long_label))
    known = [v for v in (answer.get("task"), answer.get("architecture")) if v]
    if known:
        out.append(Markup('<p class="model-kind">{}</p>').format(" · ".join(str(v) for v in known)))
    out.append(Markup('<p class="meaning">{}</p>').format(MEANING.get(kind, MEANING[OTHER])))
    if kind == NOT_TESTED:
        out.append(
            Markup("<p>This model was run on other stacks; see its history below.</p>")
            if answer.get("history")
            else Markup("<p>This model is not in the dataset: nobody has run it through the harness yet.</p>")
        )
    if answer.get("exclusion"):
        out.append(Markup('<p class="exclusion"><b>Excluded because:</b> {}</p>').format(answer["exclusion"]))
    if answer.get("tp") is not None:
        instance = answer.get("instance")
        out.append(
            Markup(
                '<ul class="figures"><li><b>Trainium cores:</b> {}</li>'
                "<li><b>Wall time</b> (compilation included): {}</li>"
                "<li><b>Peak device memory:</b> {}</li>{}{}</ul>"
            ).format(
                formatting.cores(answer.get("tp")),
                formatting.duration(answer.get("wall_s")),
                formatting.memory(answer.get("hbm_peak_gb"), answer.get("hbm_capacity_gb")),
                _check_line(answer),
                Markup("<li><b>Smallest instance:</b> {}</li>").format(instance) if instance else "",
            )
        )
    if answer.get("error"):
        out.append(_error_block(str(answer["error"])))
    if answer.get("notes"):
        out.append(Markup('<p class="notes"><b>Notes:</b> {}</p>').format(answer["notes"]))
    if stack and kind != NOT_TESTED:  # a model with no run has no stack of its own to show
        out.append(_stack_table(answer))
    if answer.get("other_fields"):
        out.append(_other_fields(answer["other_fields"]))
    out.append(Markup("</div>"))
    return join(out)


def _check_line(answer: dict) -> Markup:
    checks = []
    if answer.get("cpu_match"):
        checks.append(f"CPU comparison: {answer['cpu_match']}")
    if answer.get("english"):
        checks.append(f"judge: {answer['english']}")
    return Markup("<li><b>Checks:</b> {}</li>").format("; ".join(checks)) if checks else Markup("")


def _error_block(error: str) -> Markup:
    total_lines = len(error.splitlines()) or 1
    hidden = len(error) - MAX_ERROR_CHARS
    if hidden > 0:  # the end of a traceback says what broke; the page stays light
        error = (
            f"… {hidden:,} characters not shown here (the full text is in /lookup's error) …\n"
            + error[-MAX_ERROR_CHARS:]
        )
    lines = error.splitlines() or [error]
    last = next((line for line in reversed(lines) if line.strip()), "")
    if total_lines <= ERROR_PREVIEW_LINES and len(error) < 600:
        return Markup('<div class="error"><b>Error</b><pre>{}</pre></div>').format(error)
    shown = "full traceback" if hidden <= 0 else "the end of the traceback"
    return Markup(
        '<details class="error"><summary><b>Error:</b> <code>{}</code> ({}, {} lines)</summary><pre>{}</pre></details>'
    ).format(last[:300], shown, total_lines, error)


def _stack_table(answer: dict) -> Markup:
    rows = [(BY_NAME[c].label, answer.get(c)) for c, _ in STACK_PACKAGES]
    rows += [("Python", answer.get("python")), ("Neuron driver", answer.get("neuron_driver"))]
    rows.append(("Tested at", formatting.timestamp(answer.get("tested_at"))))
    cells = join(
        Markup('<tr><th scope="row">{}</th><td><code>{}</code></td></tr>').format(k, v or "—") for k, v in rows
    )
    return Markup('<table class="stack-table"><caption>Stack</caption>{}</table>').format(cells)


def _other_fields(fields: dict) -> Markup:
    """Columns of the row that the app does not know (a newer dataset's), as text."""
    cells = join(
        Markup('<tr><th scope="row">{}</th><td>{}</td></tr>').format(k, "—" if v is None else v)
        for k, v in fields.items()
    )
    return Markup('<table class="stack-table other-fields"><caption>Other fields</caption>{}</table>').format(cells)


def history_table(entries: list[dict]) -> Markup:
    """The model on every stack, newest first, marking its last pass and the first failure after it.
    Four columns, figures on one line each: it reads at the details column's width."""
    if not entries:
        return Markup("")
    body = []
    for e in entries:
        mark = Markup("")
        if e.get("last_pass"):
            mark = Markup('<br><span class="mark mark-pass">last pass</span>')
        elif e.get("first_fail_after_pass"):
            mark = Markup('<br><span class="mark mark-fail">first failure since</span>')
        body.append(
            Markup(
                '<tr><td><code>{}</code><br><span class="library">{} {}</span></td><td>{}{}</td>'
                '<td class="figure">{}</td><td class="figure">{}<br>{}</td></tr>'
            ).format(
                short_version(e.get("neuronx_cc") or ""),
                e.get("library") or "",
                e.get("library_version") or "",
                badge(e.get("kind") or OTHER, e.get("result")),
                mark,
                formatting.cores(e.get("tp")),
                formatting.duration(e.get("wall_s")),
                formatting.memory(e.get("hbm_peak_gb"), None),
            )  # fmt: skip
        )
    return Markup(
        '<table class="history-table"><caption>On every stack (newest first)</caption>'
        '<thead><tr><th scope="col">Stack</th><th scope="col">Result</th><th scope="col">Cores</th>'
        '<th scope="col">Wall time<br>peak memory</th></tr></thead><tbody>{}</tbody></table>'
    ).format(join(body))
