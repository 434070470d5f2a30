"""The support grid as HTML (the Grid page, painted in the first HTML and shown live alike): a GET form (library,
task, order, a search of names) that works with scripts off, a legend, and the table: architectures down, the
library's stacks across, oldest first. Each cell reads as text as well as colour (a symbol, its status, its
counts) and links to its models on that stack in the Models view (`architecture=NAME` with the stack's
parameters); a regressed row links Compare for the stack it broke on and the one before. Escaped by
construction with markupsafe: architecture names are data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from urllib.parse import urlencode

from markupsafe import Markup

from components.domain.stacks import StackRef, library_name
from components.domain.versions import short_version
from components.queries import grid, links, views
from components.queries.answers import GridAnswer, GridCell, GridRow, GridStack
from components.queries.formatting import noun
from components.queries.grid import SORTS, STATUSES, GridView, shown_rows
from components.queries.grid_feed import FEED_PATH
from components.queries.views import Query
from components.sources.app_sources import Moment
from components.web.html.markup import join

SYMBOLS = {"pass": "✓", "fail": "✗", "partial": "◐", "untested": "–"}
LEGEND = {
    "pass": "a PASS and no FAIL",
    "fail": "a FAIL and no PASS",
    "partial": "both",
    "untested": "neither (no run, or excluded and other results only)",
}
# Blue and orange rather than green and red (told apart by most colour-blind readers), as tints under the
# theme's own text colour, so light and dark mode both hold up; the symbol and the word carry the same.
CSS = """
.g-form { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: end; margin: 0.3em 0 0.6em; }
.g-form label { display: flex; flex-direction: column; font-size: 0.85em; gap: 0.15em; }
.g-form select, .g-form input, .g-form button { font: inherit; font-size: 1.05em; padding: 0.25em 0.4em;
  color: inherit; background: transparent; border: 1px solid #9ca3af; border-radius: 6px; min-height: 2.2em;
  appearance: auto; }
.g-form option { color: initial; }
.g-legend { font-size: 0.85em; margin: 0.2em 0 0.5em; }
.g-legend span { margin-right: 0.8em; }
.g-scroll { overflow-x: auto; max-width: 100%; }
.g-table { border-collapse: separate; border-spacing: 2px; font-size: 0.9em; width: auto; }
.g-table caption { text-align: left; font-weight: 600; padding: 0.2em 0; }
.g-table th, .g-table td { padding: 0.2em 0.4em; text-align: left; vertical-align: top; border: none; }
.g-table thead th { font-weight: 600; white-space: nowrap; font-size: 0.85em; }
.g-table thead th span { display: block; }
.g-table tbody th, .g-table thead th:first-child { position: sticky; left: 0; z-index: 1; min-width: 11em;
  max-width: 17em; background: var(--background-fill-primary, Canvas); word-break: break-word;
  box-shadow: -3px 0 0 var(--background-fill-primary, Canvas); }
.g-table tbody th { font-weight: normal; }
.g-table tbody th code { font-weight: 600; }
.g-table tbody th small, .g-table td small { display: block; }
.g-table td { min-width: 5.2em; white-space: nowrap; border-radius: 4px; }
.g-table td a { color: inherit; text-decoration: none; display: block; }
.g-table td a:hover b, .g-table td a:focus b { text-decoration: underline; }
.g-pass { background: rgba(37, 99, 235, 0.16); }
.g-fail { background: rgba(234, 88, 12, 0.22); }
.g-partial { background: repeating-linear-gradient(135deg, rgba(37, 99, 235, 0.16) 0 6px,
  rgba(234, 88, 12, 0.2) 6px 12px); }
.g-untested { background: transparent; outline: 1px dashed #9ca3af; outline-offset: -1px; }
.g-works { color: inherit; }
.g-broke { font-weight: 600; }
.g-table tbody th a { color: inherit; }
.g-empty { padding: 0.8em; border: 1px dashed #9ca3af; border-radius: 6px; }
"""

# The same rules for the grid painted in the first HTML, before the page's own style is there, over the painted
# block's rules for the Models table (full width, numbers right-aligned, columns after the second hidden on a phone).
PAINTED = """
#first-paint .g-table { width: auto; border-collapse: separate; margin: 0; }
#first-paint .g-table :is(th, td) { display: table-cell; text-align: left; padding: 0.2em 0.4em; border: none;
  word-break: normal; }
#first-paint .g-table tbody th { word-break: break-word; }
#first-paint .g-table td { white-space: nowrap; }
"""
STYLE = Markup("<style>{}</style>").format(Markup(" ".join((CSS + PAINTED).split())))


def stack_ref(library: str, stack: GridStack) -> StackRef:
    return StackRef(stack["neuronx_cc"], library, stack["library_version"])


def stack_words(stack: GridStack) -> str:
    """A stack as a cell's header reads it: `2.28.7631.0 · 4.57.1`."""
    return f"{short_version(stack['neuronx_cc'])} · {stack['library_version']}"


def cell_link(library: str, stack: GridStack, architecture: str, task: str = "") -> str:
    """The Models view of `architecture`'s models on `stack` (of `task`), as a link from the Grid page: the compiler
    without its +local tag, which matches the stack that has it (a grid holds hundreds of these links)."""
    ref = stack_ref(library, stack)
    query = Query(task=task, neuronx_cc=short_version(ref.neuronx_cc), library_version=ref.spec)
    return "./?" + links.build(links.PageState(replace(query, architecture=architecture)))


def compare_link(library: str, before: GridStack, after: GridStack) -> str:
    """The Compare page of the stack before a break (A) and the stack it broke on (B)."""
    a, b = stack_ref(library, before), stack_ref(library, after)
    return "compare?" + urlencode(
        [("neuronx_cc_a", a.neuronx_cc), ("library_version_a", a.spec),
         ("neuronx_cc_b", b.neuronx_cc), ("library_version_b", b.spec)]
    )  # fmt: skip


def row_id(architecture: str) -> str:
    """The row's element id (`/grid#g-LlamaForCausalLM`)."""
    return "g-" + "_".join(architecture.split())


def _cell(answer: GridAnswer, row: GridRow, j: int, cell: GridCell) -> Markup:
    status = cell["status"]
    stack = answer["stacks"][j]
    counts = Markup("{}✓ {}✗").format(cell["passed"], cell["failed"]) if status != "untested" else Markup("")
    more = [
        Markup('<small class="g-broke">↓ {} regressed</small>').format(cell["regressed"]) if cell["regressed"] else "",
        Markup("<small>{} excluded</small>").format(cell["excluded"]) if cell["excluded"] else "",
        Markup("<small>{} other</small>").format(cell["other"]) if cell["other"] else "",
    ]
    said = Markup("<b>{} {}</b><small>{}</small>{}").format(SYMBOLS[status], status, counts, join(more))
    if not (cell["passed"] or cell["failed"] or cell["excluded"] or cell["other"]):
        return Markup('<td class="g-untested">{}</td>').format(said)
    href = cell_link(answer["library"], stack, row["architecture"], answer["task"])
    return Markup('<td class="g-{}"><a href="{}">{}</a></td>').format(status, href, said)


def _row(answer: GridAnswer, row: GridRow) -> Markup:
    stacks = answer["stacks"]
    notes = [Markup("<small>{:,} {}</small>").format(row["models"], noun(row["models"], "model"))]
    if row["works_since"] is not None:
        notes.append(Markup('<small class="g-works">✓ works since {}</small>').format(stack_words(row["works_since"])))
    broke = row["regressed_since"]
    if broke is not None:
        at = stacks.index(broke)
        words = Markup("↓ regressed since {}").format(stack_words(broke))
        if at > 0:
            words = Markup('<a href="{}" title="Compare {} with {}">{}</a>').format(
                compare_link(answer["library"], stacks[at - 1], broke), stack_words(stacks[at - 1]),
                stack_words(broke), words,
            )  # fmt: skip
        notes.append(Markup('<small class="g-broke">{}</small>').format(words))
    cells = join(_cell(answer, row, j, cell) for j, cell in enumerate(row["cells"]))
    return Markup('<tr id="{}"><th scope="row"><code>{}</code>{}</th>{}</tr>').format(
        row_id(row["architecture"]), row["architecture"], join(notes), cells
    )


def _options(choices: Sequence[tuple[str, str]], chosen: str) -> Markup:
    return join(
        Markup('<option value="{}"{}>{}</option>').format(value, Markup(" selected") if value == chosen else "", label)
        for value, label in choices
    )


def form_html(view: GridView, libraries: Sequence[str], tasks: Sequence[str]) -> Markup:
    """The page's GET form: its state in its fields, every library, task and order on offer."""
    return Markup(
        '<form class="g-form" id="grid-form" method="get" action="">'
        '<label>Library<select name="library">{}</select></label>'
        '<label>Task<select name="task">{}</select></label>'
        '<label>Order<select name="sort">{}</select></label>'
        '<label>Architecture<input type="search" name="q" value="{}" placeholder="part of a name"></label>'
        '<button type="submit">Show</button></form>'
    ).format(
        _options([(lib, library_name(lib)) for lib in libraries], view.library),
        _options([("", "All tasks"), *((t, t) for t in tasks)], view.task),
        _options(list(SORTS.items()), view.sort),
        view.text,
    )


def _downloads(answer: GridAnswer) -> Markup:
    """The grid as a file (every architecture, whatever the search: one row per architecture and stack) through the
    app's export route, and the feed of its changes; relative addresses, so they work under any root."""
    asked = [("library", answer["library"]), *([("task", answer["task"])] if answer["task"] else [])]
    query = urlencode([("page", grid.PATH), *asked])
    return Markup(
        '<p class="g-legend">Download the grid: <a id="grid-csv" href="export/csv?{}" download>CSV</a> · '
        '<a id="grid-parquet" href="export/parquet?{}" download>Parquet</a> · '
        '<a href="{}">Feed of its changes</a> · <a href="api/v1/grid?{}">JSON</a></p>'
    ).format(query, query, FEED_PATH.lstrip("/"), urlencode(asked))


def legend_html() -> Markup:
    return Markup('<p class="g-legend">{} <span>↓ regressed: fails where it passed on the stack before it ran on.</span>'
                  " Each model counts once per stack, by its newest run there.</p>").format(
        join(Markup("<span>{} <b>{}</b>: {}</span>").format(SYMBOLS[s], s, LEGEND[s]) for s in STATUSES)
    )  # fmt: skip


def table_html(answer: GridAnswer, view: GridView) -> Markup:
    """The grid's table for `view` (its rows searched and ordered), under a line that counts what it shows."""
    rows = shown_rows(answer, view.text, view.sort)
    stacks = answer["stacks"]
    unknown = answer["unknown_architecture_models"]
    left_out = (
        Markup(" · {:,} {} of unknown architecture left out").format(unknown, noun(unknown, "model")) if unknown else ""
    )
    summary = Markup('<p class="summary" id="grid-summary"><b>{:,}</b> {} of {}{} across <b>{}</b> {}, oldest first{}</p>').format(
        len(rows), noun(len(rows), "architecture"), library_name(answer["library"]),
        Markup(" ({})").format(answer["task"]) if answer["task"] else "", len(stacks), noun(len(stacks), "stack"),
        left_out,
    ) + _downloads(answer)  # fmt: skip
    if not rows:
        return summary + Markup('<p class="g-empty">No architecture matches. Try fewer words or another task.</p>')
    head = join(
        Markup('<th scope="col"><span>{}</span><span>{}</span></th>').format(
            short_version(s["neuronx_cc"]), s["library_version"]
        )
        for s in stacks
    )
    return summary + Markup(
        '<div class="g-scroll" role="region" aria-labelledby="grid-caption" tabindex="0">'
        '<table class="g-table" id="grid-table"><caption id="grid-caption">Architectures of {} across its stacks '
        "(neuronx-cc · {} version)</caption>"
        '<thead><tr><th scope="col">Architecture</th>{}</tr></thead><tbody>{}</tbody></table></div>'
    ).format(
        library_name(answer["library"]), library_name(answer["library"]), head, join(_row(answer, r) for r in rows)
    )


def grid_page(answer: GridAnswer, view: GridView, libraries: Sequence[str], tasks: Sequence[str]) -> Markup:
    """The whole Grid page's content: the form, the legend and the table."""
    return Markup('<div id="grid">{}{}{}</div>').format(form_html(view, libraries, tasks), legend_html(),
                                                      table_html(answer, view))  # fmt: skip


def architecture_note(query: Query) -> Markup:
    """Above a Models table a Grid cell opened: which architecture it shows, and the way back to every one."""
    if not query.architecture:
        return Markup("")
    everyone = links.build(links.PageState(replace(query, architecture="")))
    return Markup('<p class="hint" id="architecture-note">Only models of <code>{}</code> · <a href="./?{}">every '
                  'architecture</a> · <a href="grid#{}">its row in the grid</a></p>').format(
        query.architecture, everyone, row_id(query.architecture)
    )  # fmt: skip


def page_for(moment: Moment, params: Mapping[str, str]) -> tuple[GridView, Markup]:
    """The view a link to the Grid page opens, and the page's content for it: made once per view and data moment,
    for the first HTML and the live page alike."""
    snapshot, rankings, records = moment.snapshot, moment.rankings, moment.records
    tasks = views.task_choices(snapshot, rankings, records)
    view = grid.grid_view(params, snapshot, tasks)

    def made() -> Markup:
        answer = grid.grid(snapshot, records, view.library, view.task)
        return grid_page(answer, view, grid.libraries(snapshot), tasks)

    content = snapshot.memo(("grid-page", rankings.serial, records.serial, view), made)
    return view, content
