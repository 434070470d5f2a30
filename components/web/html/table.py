"""The results table of the Models page, a plain HTML table (every value escaped; links that work without
scripts) with its script (`TABLE_JS`), and the lines around it (the summary, the hint, the size note).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence

import pandas as pd
from markupsafe import Markup

from components.domain.results import OTHER, generates_text
from components.domain.stacks import library_name
from components.queries import formatting, ordering
from components.sources.snapshot import Stack
from components.web.html.markup import badge, join

TABLE_HINT = Markup(
    '<p class="hint">Click a row, or press Enter on it (the arrow keys move between rows), to see how to run '
    "the model; a header sorts by its column. <i>Wall time</i> includes compilation; <i>peak memory</i> is "
    "device (HBM) memory against the capacity of the cores used.</p>"
)  # under the summary line, above the table

# The last column is the figure a view orders by: the Hub's trending score in Trending, its downloads
# elsewhere. One shape for every view keeps the columns where they are.
_FIGURE = {"trending": ("Trending score", "trending")}
_DOWNLOADS = ("Downloads", "downloads")
SIZE_HEADER = "Size (B)"
# (header, sort key, a number: right-aligned on one line); the last column is the view's figure
_COLUMNS = (
    ("Model", "model", False),
    ("Result", "result", False),
    (SIZE_HEADER, "size", True),
    ("Cores", "cores", True),
    ("Wall time", "wall", True),
    ("Peak memory", "memory", True),
)
_ARIA_SORT = {False: "ascending", True: "descending"}


def table_columns(view: str) -> tuple[str, ...]:
    """The table's headers in a view."""
    return (*(header for header, _, _ in _COLUMNS), _FIGURE.get(view, _DOWNLOADS)[0])


def billions(value: object) -> float | None:
    """A parameter count in billions, rounded as the Size column shows it; None when unknown."""
    if formatting.is_missing(value) or isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    return round(float(value) / 1e9, 2 if value < 1e11 else 0)


# A live row as `live_rows` makes it, not selected; the open model's row says so instead (`results_table`)
_NOT_SELECTED, _SELECTED = 'aria-selected="false"', 'aria-selected="true"'


def results_table(
    frame: pd.DataFrame,
    view: str,
    order: ordering.Order,
    shown_order: ordering.Order,
    link: Callable[[str, str], str],
    opened: str = "",
    live: bool = True,
    rows: Sequence[tuple[str, Markup]] | None = None,
) -> Markup:
    """The rows of a view as the table shows them (already limited to what is sent), every value escaped.

    `order` is the link's `sort=`; `shown_order` the order the rows follow (`ordering.shown`), whose header
    carries `aria-sort`. `link(model, sort)` is the query string of the page with that model open and that
    order: each header links to its order and each model to its answer, so the table works as links without
    scripts and the page's script (`TABLE_JS`) only runs them in place. A ranked
    view puts each model's rank before its name; the `opened` model's row is marked selected. Not `live`
    (painted in the first HTML, before any script): the same rows and cells without what only the script
    reads (the grid's roles, each row's model, index and selection), which keeps the first page light.
    `rows`: the frame's `live_rows`, made before (they do not depend on the model open)."""
    figure_header, figure_key = _FIGURE.get(view, _DOWNLOADS)
    columns = (*_COLUMNS, (figure_header, figure_key, True))
    headers = join(_header(label, key, numeric, shown_order, link(opened, shown_order.after_click(key).param), live)
                   for label, key, numeric in columns)  # fmt: skip
    if not live:
        body = [_row(r, view, order, link, live=False) for r in frame.to_dict("records")]
        return Markup('<table class="results-table"><thead><tr>{}</tr></thead><tbody>{}</tbody></table>').format(
            headers, join(body)
        )
    made = rows if rows is not None else live_rows(frame, view, order, link)
    body = [Markup(str(row).replace(_NOT_SELECTED, _SELECTED, 1)) if model == opened else row for model, row in made]
    return Markup(
        '<div class="results-scroll"><table class="results-table" role="grid" aria-label="Models" '
        'aria-rowcount="{}"><thead><tr>{}</tr></thead><tbody>{}</tbody></table></div>'
    ).format(len(body) + 1, headers, join(body))


def live_rows(
    frame: pd.DataFrame, view: str, order: ordering.Order, link: Callable[[str, str], str]
) -> tuple[tuple[str, Markup], ...]:
    """Each row of the live table with its model id, none selected: the same for every model opened, so a
    page can make them once for many links (`results_table`'s `rows`)."""
    return tuple(
        (str(r["model_id"]), _row(r, view, order, link, index=index))
        for index, r in enumerate(frame.to_dict("records"))
    )


def _row(r: dict, view: str, order: ordering.Order, link: Callable[[str, str], str], index: int = 0,
         live: bool = True) -> Markup:  # fmt: skip
    """One model's row: its link, result badge and figures; live rows carry what the table's script reads."""
    model_id = str(r["model_id"])
    figure = ordering.COLUMNS[_FIGURE.get(view, _DOWNLOADS)[1]].field
    rank = r.get("rank") if view != "selected" else None
    cell = Markup('<a class="model-link" href="./?{}">{}</a>').format(link(model_id, order.param), model_id)
    if not formatting.is_missing(rank):
        cell = Markup('<span class="rank" title="Rank on the Hub">{}</span> ').format(int(rank or 0)) + cell
    if r.get("task"):
        cell += Markup('<small class="task">{}</small>').format(r["task"])
    if not generates_text(r.get("library")):  # a row of another library says which (Transformers is the norm)
        cell += Markup('<small class="library">{} {}</small>').format(
            library_name(r["library"]), r.get("library_version") or ""
        )
    size = billions(r.get("num_parameters"))
    values = (
        f"{size:g}" if size is not None else "—",
        formatting.cores(r.get("tp")),
        formatting.duration(r.get("wall_s")),
        formatting.memory(r.get("hbm_peak_gb"), r.get("hbm_capacity_gb")),
        formatting.compact(r.get(figure)),
    )
    cells = join(Markup('<td role="gridcell" class="num">{}</td>' if live else "<td>{}</td>").format(v) for v in values)
    if not live:
        return Markup("<tr><td>{}</td><td>{}</td>{}</tr>").format(
            cell, badge(r.get("kind") or OTHER, r.get("result")), cells
        )
    return Markup(
        '<tr data-model="{}" data-index="{}" ' + _NOT_SELECTED + '><td role="gridcell" class="model">{}</td>'
        '<td role="gridcell">{}</td>{}</tr>'
    ).format(model_id, index, cell, badge(r.get("kind") or OTHER, r.get("result")), cells)


def _header(label: str, key: str, numeric: bool, shown_order: ordering.Order, query: str, live: bool = True) -> Markup:
    """A column's header: a link (`query`) to the order a click on it asks for; the column the rows follow
    says so. Painted (not `live`): without what only the script reads."""
    sorted_here = shown_order.key == key
    aria = Markup(' aria-sort="{}"').format(_ARIA_SORT[shown_order.descending]) if sorted_here else Markup("")
    mark = ("▼" if shown_order.descending else "▲") if sorted_here else ""
    if not live:
        return Markup('<th scope="col"{}><a href="./?{}" rel="nofollow">{}{}</a></th>').format(aria, query, label, mark)
    return Markup(
        '<th scope="col" role="columnheader" class="{}"{}><a href="./?{}" data-sort="{}" rel="nofollow">{}'
        '<span class="sort-mark" aria-hidden="true">{}</span></a></th>'
    ).format("num" if numeric else "text", aria, query, key, label, mark)


def ranked_note(view_label: str, task: str) -> Markup:
    """Under the summary in Trending and Downloads: the task shown, and why only one."""
    return Markup(
        '<p class="hint ranked-task" id="ranked-task">{} shows <b>{}</b> models: the Hub ranks one task at a '
        "time, so pick another under <i>Task</i>.</p>"
    ).format(view_label, task)


def size_note(left_out: int, size_label: str) -> Markup:
    """Under the summary when a size is picked: how many models were left out for an unknown size."""
    if not left_out:
        return Markup("")
    return Markup(
        '<p class="hint size-note">Size {}: {:,} model{} of unknown size left out (pick "Any size" to see them).</p>'
    ).format(size_label, left_out, "" if left_out == 1 else "s")


def summary_line(
    total: int,
    shown: int,
    passed: int,
    stack: Stack | None,
    view_label: str,
    libraries: Sequence[tuple[Stack, int, int]] = (),
) -> Markup:
    """The line above the table: how many models match and pass, and where: on `stack`, or (none named) on each of
    `libraries`' stacks, `(stack, models, passed)`, each library counted."""
    if stack is None and not libraries:
        return Markup('<p class="summary">No data loaded. See the notice above.</p>')
    if stack is not None:
        where = Markup("{}").format(stack.label)
    else:  # each library counted; the compiler said once where they share it (as a rule they do)
        shared = len({s.neuronx_cc for s, _, _ in libraries}) == 1
        counts = Markup(", ").join(
            Markup('<span class="library-count">{} <b>{:,}</b>{}</span>').format(
                s.library_label, n, "" if shared else Markup(" <small>(neuronx-cc {})</small>").format(s.compiler)
            )
            for s, n, _ in libraries
        )
        compiler = Markup(" (neuronx-cc {})").format(libraries[0][0].compiler) if shared else ""
        where = Markup("each library's newest stack{}: {}").format(compiler, counts)
    if not total:
        return Markup(
            '<p class="summary empty">No models match in the {} view on {}. '
            "Try fewer words, another task, or another stack.</p>"
        ).format(view_label, where)
    rate = f" ({passed / total:.0%})" if total else ""
    more = f"showing the first {shown:,} of " if shown < total else ""
    return Markup('<p class="summary">{}<b>{:,}</b> {} · <b>{:,}</b> pass{} · on {}</p>').format(
        more, total, formatting.noun(total, "model"), passed, rate, where
    )


def elsewhere_note(count: int, libraries: Sequence[str], query_string: str) -> Markup:
    """Under an empty summary on a stack named: how many models the same search finds on every library's newest
    stack, and a link that searches there."""
    return Markup(
        '<p class="hint elsewhere" id="elsewhere">{:,} {} on {}: <a href="./?{}" target="_self" '
        'id="elsewhere-link">search every library</a>.</p>'
    ).format(count, "model matches" if count == 1 else "models match", ", ".join(libraries), query_string)


def not_a_model(what: str) -> Markup:
    """Under the summary when the search box holds a Hub address of a Space or dataset: only models are tested."""
    return Markup(
        '<p class="hint not-a-model" id="not-a-model">That is the address of {} on the Hub, not of a model: paste a '
        "model's address (https://huggingface.co/ORG/NAME) or part of its name.</p>"
    ).format(what)


# The table's script, served as `SCRIPT_PATH` (a file browsers keep, not ~3 KB in every first page's config)
# and started by gr.HTML's `js_on_load` (`TABLE_JS`: `element` is the table's box, `trigger` sends one of its
# events to the server, `watch` runs after each new value is drawn). The table is links (`results_table`);
# the script runs them in place:
# - a click or Enter on a row opens its model's page (`select`, with the model's id), unless a modifier key
#   asks for a new tab; once the answer shows, the page is at its top and the focus on the model's heading
#   (the row clicked is out of sight: the focus must not be left on the body);
# - a header orders the rows (`select` too, with its column's key), and keeps the focus;
# - one row is a tab stop (the open one, else the first); the arrow keys, Home and End move between rows;
# - Back and Forward (the address bar's entries, `wiring.ADDRESS_JS`) open their address, as a link does.
SCRIPT_PATH = "/table.js"
# What only the script makes work (rows that open, the open row marked, the keyboard's focus) is styled by it.
STYLE = (
    "#results tbody tr{cursor:pointer}#results tbody tr:hover,#results tbody tr[aria-selected=true]"
    "{background:var(--background-fill-secondary)}#results tbody tr[aria-selected=true] td:first-child"
    "{box-shadow:inset 3px 0 0 var(--color-accent)}#results th a:hover{text-decoration:underline}"
    "#results a:focus-visible{outline:2px solid var(--color-accent);outline-offset:2px}"
    "#results .sort-mark{margin-left:.2em;font-size:.8em}"
)
SCRIPT = (
    "export default (element, trigger, watch) => {\n"
    + 'if (!document.getElementById("table-style")) document.head.insertAdjacentHTML("beforeend", '
    + f"'<style id=\"table-style\">{STYLE}</style>');\n"
    + "\n".join(
        line.strip()
        for line in """
const rows = () => Array.from(element.querySelectorAll("tbody tr[data-model]"));
const linkOf = (row) => row.querySelector("a.model-link");
let sortAsked = null;
const rove = (active) => {
  const all = rows();
  const stop = active || all.find((r) => r.getAttribute("aria-selected") === "true") || all[0];
  all.forEach((r) => { const a = linkOf(r); if (a) a.tabIndex = r === stop ? 0 : -1; });
};
const answerShown = (model) => {
  const head = document.querySelector("#details-summary h2 .model-link");
  return head && head.textContent === model;
};
const toAnswer = (model) => {
  const panel = document.getElementById("details");
  if (!panel) return;
  const go = () => {
    window.scrollTo(0, 0);
    const heading = document.getElementById("model-heading");
    if (heading) heading.focus({ preventScroll: true });
  };
  if (answerShown(model)) return go();
  const observer = new MutationObserver(() => { if (answerShown(model)) { observer.disconnect(); go(); } });
  observer.observe(panel, { childList: true, subtree: true, characterData: true });
  setTimeout(() => observer.disconnect(), 20000);
};
const open = (row) => {
  rows().forEach((r) => r.setAttribute("aria-selected", r === row ? "true" : "false"));
  rove(row);
  const model = row.dataset.model;
  trigger("select", { index: [Number(row.dataset.index), 0], value: model });
  toAnswer(model);
};
element.addEventListener("click", (event) => {
  const header = event.target.closest("th a[data-sort]");
  const row = event.target.closest("tbody tr[data-model]");
  if (!header && !row) return;
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  if (header) {
    sortAsked = header.dataset.sort;
    trigger("select", { sort: sortAsked });
  } else open(row);
});
element.addEventListener("keydown", (event) => {
  const row = event.target.closest("tbody tr[data-model]");
  if (!row) return;
  const all = rows(), at = all.indexOf(row);
  const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  const next = all[Math.max(0, Math.min(all.length - 1, to))];
  rove(next);
  linkOf(next).focus();
});
watch("value", () => {
  rove();
  if (sortAsked) {
    const header = element.querySelector(`th a[data-sort="${sortAsked}"]`);
    sortAsked = null;
    if (header) header.focus();
  }
});
rove();
if (!window.__tableHistory) {
  window.__tableHistory = true;
  window.addEventListener("popstate", () => location.reload());
}
""".splitlines()
        if line.strip()
    )
    + "\n};\n"
)
TABLE_JS = f'import(gradio_config.root.replace(/\\/$/,"")+"{SCRIPT_PATH}").then(m=>m.default(element,trigger,watch))'
