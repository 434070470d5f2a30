"""Two stacks compared (the Compare page's result): the count of each kind of change, the regressions by cause,
and one table per kind of change, each model opening on the stack where it was run. Escaped by construction
with markupsafe: model ids, results and stacks are data."""

from __future__ import annotations

from markupsafe import Markup

from components.domain.results import OTHER
from components.domain.stacks import Stack
from components.queries import compare, formatting, links
from components.queries.answers import CompareAnswer, ComparedModel
from components.runtime import settings
from components.web.html import causes
from components.web.html.markup import badge, join

SECTIONS: tuple[tuple[compare.ListName, str, str], ...] = (
    ("regressions", "Regressions", "PASS on A, FAIL on B."),
    ("fixes", "Fixes", "FAIL on A, PASS on B."),
    ("added", "Added", "Run on B, not on A."),
    ("removed", "Removed", "Run on A, not on B."),
    ("changed", "Changed", "PASS on both, with a notable change in wall time, peak memory or cores."),
    (
        "other_changes",
        "Other result changes",
        "To or from excluded, or an unknown result: neither a regression nor a fix.",
    ),
)
# How each count reads beside its number, one and several: "1 fix", "3 fixes", "2 added"
COUNTED: dict[compare.ListName, tuple[str, str]] = {
    "regressions": ("regression", "regressions"),
    "fixes": ("fix", "fixes"),
    "added": ("added", "added"),
    "removed": ("removed", "removed"),
    "changed": ("changed", "changed"),
    "other_changes": ("other result change", "other result changes"),
}
# Colours and spacing from the theme's variables, so light and dark mode both hold up. On a phone a row is a card,
# each value under its column's name (`data-label`): seven columns in 390 px laid badges over each other.
CSS = """
.compare-counts { display: flex; flex-wrap: wrap; gap: 0.5em; margin: 0.4em 0 0.6em; }
.compare-count { padding: 0.3em 0.8em; border: 1px solid var(--border-color-primary); border-radius: var(--radius-md);
  background: var(--background-fill-secondary); }
.compare-count b { font-size: 1.25em; margin-right: 0.15em; }
.compare-table { table-layout: fixed; }
.compare-table th:nth-child(1) { width: 30%; }
.compare-table th:nth-child(2), .compare-table th:nth-child(3) { width: 6.5em; }
.compare-table th:nth-child(4) { width: 5em; }
.compare-table td { word-break: break-word; }
.compare-table .badge { white-space: normal; }
/* each section's heading is the page's second level, under its one <h1>, sized as a third */
.compare-section h2 { margin: 1.1em 0 0.1em; font-size: 1.17em; }
.compare-section .meaning { margin: 0 0 0.3em; color: var(--body-text-color-subdued); font-size: 0.9em; }
@media (max-width: 640px) {
  .compare-table, .compare-table tbody, .compare-table tr, .compare-table td { display: block; width: auto; }
  .compare-table { border: 0; }
  .compare-table thead { display: none; }
  .compare-table tr { margin: 0 0 0.6em; padding: 0.3em 0.6em; border: 1px solid var(--border-color-primary);
    border-radius: var(--radius-md); }
  .compare-table td { display: flex; gap: 0.6em; padding: 0.15em 0; border: 0; }
  .compare-table td::before { content: attr(data-label); flex: 0 0 7.5em; color: var(--body-text-color-subdued); }
  .compare-table td.model { font-weight: 600; }
  .compare-table td.model::before { content: none; }
}
"""


def comparison_html(answer: CompareAnswer, stack_a: Stack | None, stack_b: Stack | None) -> Markup:
    """What changed from `stack_a` to `stack_b` (`answer` is `compare.compare` of the two); a note instead when
    a stack is missing or the two are one."""
    if stack_a is None or stack_b is None:
        return Markup('<p class="summary">No data loaded. See the notice above.</p>')
    if stack_a.ref == stack_b.ref:
        return Markup(
            '<p class="summary">A and B are the same stack: nothing changes. Pick another stack for A or B.</p>'
        )
    counts = join(
        Markup('<span class="compare-count compare-{}"><b>{:,}</b> {}</span>').format(
            name, len(answer[name]), formatting.noun(len(answer[name]), *COUNTED[name])
        )
        for name, _, _ in SECTIONS
    )
    parts = [Markup('<div class="compare-counts" id="compare-counts">{}</div>').format(counts)]
    parts.append(causes.regressions_by_cause(answer["regressions"]))
    parts += [_section(answer[name], name, title, meaning, stack_a, stack_b) for name, title, meaning in SECTIONS]
    return join(parts)


def _section(
    entries: list[ComparedModel], name: str, title: str, meaning: str, stack_a: Stack, stack_b: Stack
) -> Markup:
    head = Markup('<h2 id="compare-{}-title">{} ({:,})</h2><p class="meaning">{}</p>').format(
        name, title, len(entries), meaning
    )
    if not entries:
        return Markup('<section class="compare-section" id="compare-{}">{}<p>None.</p></section>').format(name, head)
    opened_on = stack_a if name == "removed" else stack_b
    extra = Markup("<th>What moved</th>") if name == "changed" else ""
    rows = join(_row(e, opened_on, name == "changed") for e in entries[: settings.COMPARE_ROWS.value])
    more = (
        Markup("<p>… and {:,} more: the <code>/compare</code> API lists them all.</p>").format(
            len(entries) - settings.COMPARE_ROWS.value
        )
        if len(entries) > settings.COMPARE_ROWS.value
        else ""
    )
    return Markup(
        '<section class="compare-section" id="compare-{}">{}'
        '<table class="history-table compare-table"><thead><tr><th>Model</th><th>A</th><th>B</th><th>Cores</th>'
        "<th>Wall time</th><th>Peak memory</th>{}</tr></thead><tbody>{}</tbody></table>{}</section>"
    ).format(name, head, extra, rows, more)


def _row(e: ComparedModel, opened_on: Stack, changed: bool) -> Markup:
    # the model opens on the Models page, on the stack where it was run (its library named exactly)
    link = links.model_on_stack(e["model_id"], opened_on)
    cores = formatting.change(formatting.cores(e.get("tp_a")), formatting.cores(e.get("tp_b")))
    wall = formatting.change(formatting.duration(e.get("wall_s_a")), formatting.duration(e.get("wall_s_b")))
    memory = formatting.memory_change(
        e.get("hbm_peak_gb_a"), e.get("hbm_capacity_gb_a"), e.get("hbm_peak_gb_b"), e.get("hbm_capacity_gb_b")
    )
    moved = Markup('<td data-label="What moved">{}</td>').format(", ".join(e.get("reasons", []))) if changed else ""
    return Markup(
        '<tr><td class="model"><a href="./?{}" target="_self" class="model-link">{}</a></td>'
        '<td data-label="A">{}</td><td data-label="B">{}</td><td data-label="Cores">{}</td>'
        '<td data-label="Wall time">{}</td><td data-label="Peak memory">{}</td>{}</tr>'
    ).format(
        link, e["model_id"], badge(e.get("kind_a") or OTHER, e.get("result_a")),
        badge(e.get("kind_b") or OTHER, e.get("result_b")), cores, wall, memory, moved,
    )  # fmt: skip
