"""The results table of the Models page, a plain HTML table (every value escaped; links that work without
scripts) with its script (`TABLE_JS`), and the lines around it (the summary, the hint, the size note).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
from markupsafe import Markup

from components.domain.results import OTHER, generates_text
from components.domain.stacks import library_name
from components.queries import formatting, ordering, views
from components.queries import table_columns as registry
from components.sources.snapshot import Stack
from components.web.html.markup import badge, join

TABLE_HINT = Markup(
    '<p class="hint">Click a row, or press Enter on it (the arrow keys move between rows), to see how to run '
    "the model; a header sorts by its column. <i>Wall time</i> includes compilation; <i>peak memory</i> is "
    "device (HBM) memory against the capacity of the cores used.</p>"
)  # under the summary line, above the table

# The columns are the registry's (`table_columns`): a view shows every column but the figures, then the figure it
# orders by (`ordering.view_order`): the Hub's trending score in Trending, its downloads elsewhere. One shape for
# every view keeps the columns where they are.
SIZE_HEADER = registry.BY_ID["size"].header
_ARIA_SORT = {False: "ascending", True: "descending"}


def _columns(view: str) -> tuple[registry.Column, ...]:
    return registry.shown(views.of(view).figure)


def table_columns(view: str) -> tuple[str, ...]:
    """The table's headers in a view."""
    return tuple(c.header for c in _columns(view))


def column_css(scope: str) -> str:
    """The columns' style under `scope` (the live table's `#results`, the painted block's `#first-paint`), from
    the registry: each column's cells (class `c-ID`) aligned and sized as it says, and on a phone only the
    columns it shows there."""
    right = ",".join(f"{scope} .{c.css_class}" for c in registry.COLUMNS if c.align == "right")
    rules = [f"{right}{{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}}"] if right else []
    wide = "".join(f"{scope} .{c.css_class}{{min-width:{c.width}}}" for c in registry.COLUMNS if c.width)
    if wide:
        rules.append(f"@media not all and {registry.PHONE_SCREEN}{{{wide}}}")
    hidden = ",".join(f"{scope} .{c.css_class}" for c in registry.COLUMNS if registry.PHONE not in c.screens)
    if hidden:
        rules.append(f"@media {registry.PHONE_SCREEN}{{{hidden}{{display:none}}}}")
    return "".join(rules)


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
    headers = join(_header(c, shown_order, link(opened, shown_order.after_click(c.id).param), live)
                   for c in _columns(view))  # fmt: skip
    if not live:
        columns = _columns(view)
        body = [_row(r, columns, view, order, link, live=False) for r in frame.to_dict("records")]
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
    columns = _columns(view)
    return tuple(
        (str(r["model_id"]), _row(r, columns, view, order, link, index=index))
        for index, r in enumerate(frame.to_dict("records"))
    )


def _row(r: dict, columns: Sequence[registry.Column], view: str, order: ordering.Order,
         link: Callable[[str, str], str], index: int = 0, live: bool = True) -> Markup:  # fmt: skip
    """One model's row, a cell per column (`_columns(view)`): its link, result badge and figures (each column's
    `text`); live rows carry what the table's script reads."""
    model_id = str(r["model_id"])
    drawn = {"model": _model_cell(r, view, order, link), "result": badge(r.get("kind") or OTHER, r.get("result"))}
    cell = Markup('<td role="gridcell" class="{}">{}</td>' if live else '<td class="{}">{}</td>')
    cells = join(
        cell.format(_cell_class(c) if live else c.css_class, drawn[c.id] if c.text is None else c.text(r))
        for c in columns
    )
    if not live:
        return Markup("<tr>{}</tr>").format(cells)
    return Markup('<tr data-model="{}" data-index="{}" ' + _NOT_SELECTED + ">{}</tr>").format(model_id, index, cells)


def _model_cell(r: dict, view: str, order: ordering.Order, link: Callable[[str, str], str]) -> Markup:
    """The Model column's cell: the model's link (to its answer), its rank in a ranked view, its task and, when
    it is not Transformers, its library."""
    model_id = str(r["model_id"])
    rank = r.get("rank") if views.of(view).ranking else None
    cell = Markup('<a class="model-link" href="./?{}">{}</a>').format(link(model_id, order.param), model_id)
    if not formatting.is_missing(rank):
        cell = Markup('<span class="rank" title="Rank on the Hub">{}</span> ').format(int(rank or 0)) + cell
    if r.get("task"):
        cell += Markup('<small class="task">{}</small>').format(r["task"])
    if not generates_text(r.get("library")):  # a row of another library says which (Transformers is the norm)
        cell += Markup('<small class="library">{} {}</small>').format(
            library_name(r["library"]), r.get("library_version") or ""
        )
    return cell


def _cell_class(column: registry.Column) -> str:
    """A column's cells' class: `c-ID` (the registry's style, `column_css`), `num` when right-aligned."""
    return column.css_class + (" num" if column.align == "right" else "")


def _header(column: registry.Column, shown_order: ordering.Order, query: str, live: bool = True) -> Markup:
    """A column's header: a link (`query`) to the order a click on it asks for; the column the rows follow
    says so. Painted (not `live`): without what only the script reads."""
    sorted_here = shown_order.key == column.id
    aria = Markup(' aria-sort="{}"').format(_ARIA_SORT[shown_order.descending]) if sorted_here else Markup("")
    mark = ("▼" if shown_order.descending else "▲") if sorted_here else ""
    if not live:
        return Markup('<th scope="col" class="{}"{}><a href="./?{}" rel="nofollow">{}{}</a></th>').format(
            column.css_class, aria, query, column.header, mark
        )
    return Markup(
        '<th scope="col" role="columnheader" class="{}"{}><a href="./?{}" data-sort="{}" rel="nofollow">{}'
        '<span class="sort-mark" aria-hidden="true">{}</span></a></th>'
    ).format(_cell_class(column) if column.align == "right" else f"{column.css_class} text", aria, query,
             column.id, column.header, mark)  # fmt: skip


def view_note(text: str) -> Markup:
    """Under the summary: a view's own line (`views.View.note`), e.g. the task a ranked view shows, and why only one."""
    return Markup('<p class="hint view-note" id="view-note">{}</p>').format(text)


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
