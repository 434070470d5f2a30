"""The history table of the details panel: one model on every stack, newest first."""

from __future__ import annotations

from markupsafe import Markup

from components.domain.results import OTHER
from components.domain.stacks import StackRef
from components.queries import formatting
from components.queries.answers import HistoryEntry
from components.web.html.markup import badge, join


def history_table(entries: list[HistoryEntry]) -> Markup:
    """The model on every stack, newest first, marking its last pass and the first failure after it.
    Four columns, figures on one line each: it reads at the details column's width."""
    if not entries:
        return Markup("")
    body = []
    for e in entries:
        stack = StackRef.of(e)
        mark = Markup("")
        if e.get("last_pass"):
            mark = Markup('<br><span class="mark mark-pass">last pass</span>')
        elif e.get("first_fail_after_pass"):
            mark = Markup('<br><span class="mark mark-fail">first failure since</span>')
        body.append(
            Markup(
                '<tr><td><code>{}</code><br><span class="library">{}</span></td><td>{}{}</td>'
                '<td class="figure">{}</td><td class="figure">{}<br>{}</td></tr>'
            ).format(
                stack.compiler,
                stack.library_label,
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
