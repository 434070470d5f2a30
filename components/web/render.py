"""HTML for what the page shows. Every value from the data goes through `esc` (or `quote` in
links): model ids, errors, notes and scripts are data, never markup."""

from __future__ import annotations

import html
from urllib.parse import quote

import pandas as pd

from components.queries import formatting, freshness
from components.sources.columns import BY_NAME, STACK_PACKAGES
from components.sources.results import EXCLUDED, FAIL, KIND_LABELS, MEANING, NOT_TESTED, OTHER, PASS
from components.sources.snapshot import Provenance, Skipped, Stack
from components.sources.stacks import stack_label
from components.sources.versions import short_version

HUB = "https://huggingface.co"
TABLE_HEADERS = ["Rank", "Model", "Result", "Cores", "Wall time", "Peak memory"]
TABLE_TYPES = ["str", "html", "html", "str", "str", "str"]
ERROR_PREVIEW_LINES = 6
MAX_ERROR_CHARS = 50_000


def esc(value: object) -> str:
    return "" if value is None else html.escape(str(value), quote=True)


def model_link(model_id: str) -> str:
    return (
        f'<a href="{HUB}/{quote(str(model_id), safe="/")}" target="_blank" rel="noopener noreferrer" '
        f'class="model-link">{esc(model_id)}</a>'
    )


def badge(kind: str, result: object) -> str:
    label = KIND_LABELS[kind] if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else str(result or "unknown")[:40]
    css = kind if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else OTHER
    return f'<span class="badge badge-{css.replace(" ", "-")}">{esc(label)}</span>'


def table_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of a view as the table shows them (already limited to what is sent)."""
    records = frame.to_dict("records")
    return pd.DataFrame(
        [
            [
                "" if r.get("rank") is None or pd.isna(r.get("rank")) else str(int(r["rank"])),
                model_link(r["model_id"])
                + (f'<br><small class="task">{esc(r["task"])}</small>' if r.get("task") else ""),
                badge(r.get("kind") or OTHER, r.get("result")),
                formatting.cores(r.get("tp")),
                formatting.duration(r.get("wall_s")),
                formatting.memory(r.get("hbm_peak_gb"), r.get("hbm_capacity_gb")),
            ]
            for r in records
        ],
        columns=TABLE_HEADERS,
    )


def summary_line(total: int, shown: int, passed: int, stack: Stack | None, view_label: str) -> str:
    if stack is None:
        return '<p class="summary">No data loaded. See the notice above.</p>'
    where = esc(stack_label(stack))
    if not total:
        return (
            f'<p class="summary empty">No models match in the {esc(view_label)} view on {where}. '
            "Try fewer words, another task, or another stack.</p>"
        )
    rate = f" ({passed / total:.0%})" if total else ""
    more = f"showing the first {shown:,} of " if shown < total else ""
    return f'<p class="summary">{more}<b>{total:,}</b> models · <b>{passed:,}</b> pass{rate} · on {where}</p>'


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


def header(
    provenance: Provenance, skipped: tuple[Skipped, ...], rankings_label: str, refresh_error: str | None = None
) -> str:
    """The notice under the title: where the data comes from, how fresh, and what was skipped.
    `refresh_error` is why the latest refresh failed, if it did (the data shown is then older)."""
    kind = "sample" if provenance.is_sample else provenance.kind
    parts = [f'<div class="provenance provenance-{esc(kind)}" id="provenance">']
    if provenance.is_sample:
        parts.append('<strong class="sample-flag">Sample data</strong> ')
    parts.append(esc(provenance_line(provenance)))
    stale = freshness.stale_warning(provenance)
    if stale:
        parts.append(f'<br><strong class="stale">{esc(stale)}</strong>')
    if refresh_error and not provenance.is_sample:  # the sample already says why it is shown
        parts.append(
            f'<br><span class="refresh-failed">The latest refresh failed ({esc(refresh_error)}); '
            "this is the data read before it.</span>"
        )
    parts.append(f'<br><span class="rankings-line">Rankings: {esc(rankings_label)}</span>')
    if skipped:
        items = "".join(f"<li><code>{esc(s.file)}</code>: {esc(s.reason)}</li>" for s in skipped[:50])
        extra = f"<li>… and {len(skipped) - 50} more</li>" if len(skipped) > 50 else ""
        parts.append(
            f'<details class="skipped"><summary>{len(skipped)} problem(s) while reading the data '
            f"(the good rows are all shown)</summary><ul>{items}{extra}</ul></details>"
        )
    parts.append("</div>")
    return "".join(parts)


def details(answer: dict) -> str:
    """The top of the details panel: result and meaning, the reason or the error, and the stack."""
    if not answer:
        return '<div class="details-empty">Pick a model in the table to see how to run it.</div>'
    kind = answer.get("kind") or OTHER
    model_id = answer.get("model_id", "")
    out = [f'<div class="details-head"><h3>{model_link(model_id)} {badge(kind, answer.get("result"))}</h3>']
    stack = answer.get("neuronx_cc")
    if stack:
        out.append(
            f'<p class="on-stack">on neuronx-cc {esc(answer["neuronx_cc"])} · {esc(answer.get("library"))} '
            f"{esc(answer.get('library_version'))}</p>"
        )
    known = [v for v in (answer.get("task"), answer.get("architecture")) if v]
    if known:
        out.append(f'<p class="model-kind">{" · ".join(esc(v) for v in known)}</p>')
    out.append(f'<p class="meaning">{esc(MEANING.get(kind, MEANING[OTHER]))}</p>')
    if kind == NOT_TESTED:
        tested = [h for h in answer.get("history", [])]
        out.append(
            "<p>This model was run on other stacks; see its history below.</p>"
            if tested
            else "<p>This model is not in the dataset: nobody has run it through the harness yet.</p>"
        )
    if answer.get("exclusion"):
        out.append(f'<p class="exclusion"><b>Excluded because:</b> {esc(answer["exclusion"])}</p>')
    if answer.get("tp") is not None:
        out.append(
            '<ul class="figures">'
            f"<li><b>Trainium cores:</b> {esc(formatting.cores(answer.get('tp')))}</li>"
            f"<li><b>Wall time</b> (compilation included): {esc(formatting.duration(answer.get('wall_s')))}</li>"
            f"<li><b>Peak device memory:</b> "
            f"{esc(formatting.memory(answer.get('hbm_peak_gb'), answer.get('hbm_capacity_gb')))}</li>"
            f"{_check_line(answer)}"
            + (f"<li><b>Smallest instance:</b> {esc(answer['instance'])}</li>" if answer.get("instance") else "")
            + "</ul>"
        )
    if answer.get("error"):
        out.append(_error_block(str(answer["error"])))
    if answer.get("notes"):
        out.append(f'<p class="notes"><b>Notes:</b> {esc(answer["notes"])}</p>')
    if stack and kind != NOT_TESTED:  # a model with no run has no stack of its own to show
        out.append(_stack_table(answer))
    out.append("</div>")
    return "".join(out)


def _check_line(answer: dict) -> str:
    checks = []
    if answer.get("cpu_match"):
        checks.append(f"CPU comparison: {esc(answer['cpu_match'])}")
    if answer.get("english"):
        checks.append(f"judge: {esc(answer['english'])}")
    return f"<li><b>Checks:</b> {'; '.join(checks)}</li>" if checks else ""


def _error_block(error: str) -> str:
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
        return f'<div class="error"><b>Error</b><pre>{esc(error)}</pre></div>'
    shown = "full traceback" if hidden <= 0 else "the end of the traceback"
    return (
        f'<details class="error"><summary><b>Error:</b> <code>{esc(last[:300])}</code> '
        f"({shown}, {total_lines} lines)</summary><pre>{esc(error)}</pre></details>"
    )


def _stack_table(answer: dict) -> str:
    rows = [(BY_NAME[c].label, answer.get(c)) for c, _ in STACK_PACKAGES]
    rows += [("Python", answer.get("python")), ("Neuron driver", answer.get("neuron_driver"))]
    rows.append(("Tested at", formatting.timestamp(answer.get("tested_at"))))
    cells = "".join(f"<tr><th>{esc(k)}</th><td><code>{esc(v or '—')}</code></td></tr>" for k, v in rows)
    return f'<table class="stack-table"><caption>Stack</caption>{cells}</table>'


def history_table(entries: list[dict]) -> str:
    """The model on every stack, newest first, marking its last pass and the first failure after it."""
    if not entries:
        return ""
    body = []
    for e in entries:
        mark = ""
        if e.get("last_pass"):
            mark = '<span class="mark mark-pass">last pass</span>'
        elif e.get("first_fail_after_pass"):
            mark = '<span class="mark mark-fail">first failure since</span>'
        body.append(
            "<tr>"
            f"<td><code>{esc(short_version(e.get('neuronx_cc') or ''))}</code></td>"
            f"<td>{esc(e.get('library'))} {esc(e.get('library_version'))}</td>"
            f"<td>{badge(e.get('kind') or OTHER, e.get('result'))} {mark}</td>"
            f"<td>{esc(formatting.cores(e.get('tp')))}</td>"
            f"<td>{esc(formatting.duration(e.get('wall_s')))}</td>"
            f"<td>{esc(formatting.memory(e.get('hbm_peak_gb'), e.get('hbm_capacity_gb')))}</td>"
            "</tr>"
        )
    return (
        '<table class="history-table"><caption>On every stack (newest first)</caption>'
        "<thead><tr><th>neuronx-cc</th><th>Library</th><th>Result</th><th>Cores</th><th>Wall time</th>"
        f"<th>Peak memory</th></tr></thead><tbody>{''.join(body)}</tbody></table>"
    )
