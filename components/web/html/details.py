"""The top of the Models page's details panel: a model's result on a stack, what it means, its figures, its
error and its stack, or, before a model is opened, what the panel will hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from markupsafe import Markup

from components.domain.columns import BY_NAME, STACK_PACKAGES
from components.domain.results import EXCLUDED, KIND_LABELS, NOT_TESTED, OTHER, PASS, meaning
from components.domain.stacks import FIRST_LIBRARY, StackRef, library_name, normalise_library
from components.queries import formatting, links
from components.queries.answers import HistoryEntry, LookupAnswer
from components.runtime import settings
from components.web.html.grid import row_id
from components.web.html.markup import badge, code_block, join, model_link, nowrap

# Beside the table, what a model's page holds (never empty boxes).
GUIDE = Markup(
    '<div class="details-guide"><p><b>Open a model</b> (click its row, or Tab to the table and press Enter) '
    "for its own page:</p><ul>"
    "<li>its result on the chosen stack, the Trainium cores, the wall time and the peak device memory;</li>"
    "<li>the <code>pip install</code> line pinned to the stack, and the command that fetches its compiled "
    "graphs;</li>"
    "<li>the exact <code>run.py</code> the harness ran, to copy or download;</li>"
    "<li>how it fared on every other stack, or why it was excluded.</li></ul></div>"
)
# The commands' headings, live and painted (`html/without_scripts.py`)
INSTALL_LABEL = "Install (pinned to this stack)"
CACHE_LABEL = "Fetch the compiled graphs (NEFF cache)"
RUN_LABEL = "Then run it (a sharded script starts its own ranks)"


def details(answer: LookupAnswer, other_fields: Mapping[str, object] | None = None) -> Markup:
    """The whole panel's text, head then body (`head`, `body`), as one fragment."""
    return head(answer) + body(answer, other_fields)


def head(answer: LookupAnswer) -> Markup:
    """What a model's page leads with, above the commands: the model and its result (the `<h2>` the commands'
    `<h3>`s sit under), the answer in one sentence (`lead`), its task and architecture, and its figures on
    one line."""
    if not answer:
        return Markup("")
    kind = answer.get("kind") or OTHER
    model_id = answer.get("model_id", "")
    # the heading takes focus when a row opens the model (the table is then out of sight)
    out = [
        Markup('<div class="details-head"><h2 id="model-heading" tabindex="-1">{} {}</h2>').format(
            model_link(model_id), badge(kind, answer.get("result"))
        )
    ]
    if answer.get("neuronx_cc"):
        out.append(lead(answer))
    known: list[Markup | str] = [str(answer["task"])] if answer.get("task") else []
    if answer.get("architecture"):  # its row of the support grid: the architecture on every stack of the library
        architecture = str(answer["architecture"])
        library = normalise_library(str(answer.get("library") or FIRST_LIBRARY))
        known.append(
            Markup(
                '<a id="architecture-row" href="grid?{}#{}" title="{} on every stack: its row in the grid">{}</a>'
            ).format(urlencode({"library": library}), row_id(architecture), architecture, architecture)
        )
    if known:
        out.append(Markup('<p class="model-kind">{}</p>').format(Markup(" · ").join(known)))
    if answer.get("tp") is not None:
        instance = answer.get("instance")
        out.append(
            Markup(
                '<ul class="figures"><li><b>Trainium cores:</b> {}</li>'
                "<li><b>Wall time</b> (compilation included): {}</li>"
                "<li><b>Peak device memory:</b> {}</li>{}{}</ul>"
            ).format(
                nowrap(formatting.cores(answer.get("tp"))),
                nowrap(formatting.duration(answer.get("wall_s"))),
                nowrap(formatting.memory(answer.get("hbm_peak_gb"), answer.get("hbm_capacity_gb"))),
                _check_line(answer),
                Markup("<li><b>Smallest instance:</b> {}</li>").format(instance) if instance else "",
            )
        )
    out.append(Markup("</div>"))
    return join(out)


def body(answer: LookupAnswer, other_fields: Mapping[str, object] | None = None) -> Markup:
    """Below the commands: what the result means, the reason or the error, the notes and the stack; then
    `other_fields`, the row's columns the app does not know (a newer dataset's), as text."""
    if not answer:
        return Markup("")
    kind = answer.get("kind") or OTHER
    out = [Markup('<div class="details-body">')]
    if kind != NOT_TESTED:  # the lead says there is no run, the evidence what to expect
        out.append(Markup('<p class="meaning">{}</p>').format(meaning(kind, answer.get("library"))))
    if answer.get("exclusion"):
        out.append(Markup('<p class="exclusion"><b>Excluded because:</b> {}</p>').format(answer["exclusion"]))
    if answer.get("error"):
        out.append(_error_block(str(answer["error"])))
    if answer.get("notes"):
        out.append(Markup('<p class="notes"><b>Notes:</b> {}</p>').format(answer["notes"]))
    if answer.get("neuronx_cc") and kind != NOT_TESTED:  # a model with no run has no stack of its own to show
        out.append(_stack_table(answer))
    library = normalise_library(str(answer.get("library") or ""))
    other_fields = {k: v for k, v in (other_fields or {}).items() if normalise_library(k) != library}
    if other_fields:  # the library's own column is in the stack table already
        out.append(_other_fields(other_fields))
    out.append(Markup("</div>"))
    return join(out)


def run_py(answer: LookupAnswer) -> Markup:
    """The model's run.py, whole and numbered with Copy and Download (`markup.code_block`): the script that ran,
    else a passing script adapted to it, titled UNTESTED with the model it was adapted from; "" when neither."""
    script = answer.get("run_py") or answer.get("suggested_run_py") or ""
    if not script:
        return Markup("")
    adapted_from = "" if answer.get("run_py") else answer.get("suggested_from") or ""
    return code_block("run-py-code", script, run_py_title(adapted_from), "run.py")


def run_py_title(adapted_from: str) -> str:
    """run.py's title, live and painted: an adapted script says UNTESTED and which tested model it came from."""
    return f"run.py (UNTESTED: adapted from {adapted_from})" if adapted_from else "run.py"


def lead(answer: LookupAnswer) -> Markup:
    """The panel's first line, the answer in one sentence: the result on the stack shown, and what the model's
    history adds, with a link to that run: "FAIL on 2.28.7631.0 · Transformers 5.0.0 — last PASS on
    2.28.7631.0 · Transformers 4.57.1"; for a model with no run here, its latest run elsewhere."""
    kind = answer.get("kind") or OTHER
    here = StackRef.of(answer)
    history = answer.get("history") or []
    if kind == NOT_TESTED:
        head = Markup("No run on {}").format(_on(here))
        latest = history[0] if history else None
        tail = _run_elsewhere(answer, latest, "last run:") if latest else Markup(" — nor on any other stack")
    else:
        head = Markup("<b>{}</b> on {}").format(_word(kind, answer.get("result")), _on(here))
        last_pass = next((e for e in history if e.get("last_pass")), None)
        tail = Markup("")
        if kind != PASS and last_pass is not None:
            tail = _run_elsewhere(answer, last_pass, "last")
        elif kind not in (PASS, EXCLUDED) and len(history) > 1:
            tail = Markup(" — no PASS on the {} stacks tested").format(len(history))
    return Markup('<p class="lead" id="lead">{}{}</p>').format(head, tail)


def _on(stack: StackRef) -> Markup:
    """A stack in the lead's words (`2.28.7631.0 · Transformers 5.0.0`), its exact versions in a hover."""
    return Markup('<span class="stack" title="{}">{} · {}</span>').format(
        stack.long_label, stack.compiler, stack.library_label
    )


def _word(kind: str, result: object) -> str:
    return str(result) if kind == OTHER else KIND_LABELS.get(kind, str(result))


def _run_elsewhere(answer: LookupAnswer, entry: HistoryEntry, words: str) -> Markup:
    """ " — last PASS on <stack>", linking to the model's answer on that stack."""
    stack = StackRef.of(entry)
    href = links.model_on_stack(str(answer.get("model_id", "")), stack)
    return Markup(' — {} <a class="lead-run" href="./?{}" target="_self"><b>{}</b> on {}</a>').format(
        words, href, _word(entry.get("kind") or OTHER, entry.get("result")), _on(stack)
    )


def _check_line(answer: LookupAnswer) -> Markup:
    checks = []
    if answer.get("cpu_match"):
        checks.append(f"CPU comparison: {answer['cpu_match']}")
    if answer.get("english"):
        checks.append(f"judge: {answer['english']}")
    return Markup("<li><b>Checks:</b> {}</li>").format("; ".join(checks)) if checks else Markup("")


def _error_block(error: str) -> Markup:
    total_lines = len(error.splitlines()) or 1
    hidden = len(error) - settings.ERROR_SHOWN.value
    if hidden > 0:  # the end of a traceback says what broke; the page stays light
        error = (
            f"… {hidden:,} characters not shown here (the full text is in /lookup's error) …\n"
            + error[-settings.ERROR_SHOWN.value :]
        )
    lines = error.splitlines() or [error]
    last = next((line for line in reversed(lines) if line.strip()), "")
    if total_lines <= settings.ERROR_PREVIEW_LINES.value and len(error) < settings.ERROR_PREVIEW_CHARS.value:
        return Markup('<div class="error"><b>Error</b><pre>{}</pre></div>').format(error)
    shown = "full traceback" if hidden <= 0 else "the end of the traceback"
    return Markup(
        '<details class="error"><summary><b>Error:</b> <code>{}</code> ({}, {} lines)</summary><pre>{}</pre></details>'
    ).format(last[: settings.ERROR_SUMMARY.value], shown, total_lines, error)


def _stack_table(answer: LookupAnswer) -> Markup:
    rows = [(BY_NAME[c].label, answer.get(c)) for c, _ in STACK_PACKAGES]
    library = normalise_library(str(answer.get("library") or ""))
    if library and library != FIRST_LIBRARY:  # the library the stack is named by, beside Transformers
        rows.insert(4, (library_name(library), answer.get("library_version")))
    rows += [("Python", answer.get("python")), ("Neuron driver", answer.get("neuron_driver"))]
    rows.append(("Tested at", formatting.timestamp(answer.get("tested_at"))))
    cells = join(
        Markup('<tr><th scope="row">{}</th><td><code>{}</code></td></tr>').format(k, v or "—") for k, v in rows
    )
    return Markup('<table class="stack-table"><caption>Stack</caption>{}</table>').format(cells)


def _other_fields(fields: Mapping[str, object]) -> Markup:
    """Columns of the row that the app does not know (a newer dataset's), as text."""
    cells = join(
        Markup('<tr><th scope="row">{}</th><td>{}</td></tr>').format(k, "—" if v is None else v)
        for k, v in fields.items()
    )
    return Markup('<table class="stack-table other-fields"><caption>Other fields</caption>{}</table>').format(cells)
