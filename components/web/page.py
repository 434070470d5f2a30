"""What the page's events do: read the stores once, select, and render. `app.py` wires these."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import gradio as gr
from markupsafe import Markup

from components.queries import details, links, views
from components.sources.rankings import RankingsStore
from components.sources.records import empty_records, hub_id
from components.sources.records_store import RecordsStore
from components.sources.snapshot import Snapshot
from components.sources.stacks import library_spec
from components.sources.store import DatasetStore
from components.sources.versions import short_version
from components.web import evidence, render

PAGE_SIZE = 100
MAX_ROWS = 2000
_LINK_TEXT = re.compile(r">([^<]*)</a>")


@dataclass
class DetailsOutputs:
    html: str
    history: str
    install: str
    cache_sync: str
    run_py: str
    model: str

    def values(self) -> tuple:
        return (self.html, self.history, self.install, self.cache_sync, self.run_py, self.model)


class Page:
    def __init__(self, datasets: DatasetStore, rankings: RankingsStore, records: RecordsStore | None = None):
        self.datasets = datasets
        self.rankings = rankings
        self.records = records or RecordsStore(empty_records(), live=False)

    # ---- pickers --------------------------------------------------------------------------

    @staticmethod
    def compiler_choices(snapshot: Snapshot) -> list[tuple[str, str]]:
        ccs = snapshot.compilers()
        return [(short_version(cc) + (" (newest)" if i == 0 else ""), cc) for i, cc in enumerate(ccs)]

    @staticmethod
    def library_choices(snapshot: Snapshot, neuronx_cc: str) -> list[tuple[str, str]]:
        stacks = snapshot.library_versions(neuronx_cc)
        # the value names the library too, so a diffusers and a Transformers version never collide
        return [
            (s.library_version if s.library == "transformers" else f"{s.library} {s.library_version}", library_spec(s))
            for s in stacks
        ]

    def on_compiler(self, neuronx_cc: str, library_version: str):
        """New compiler: the Transformers choices follow it, keeping the version when it exists there."""
        snapshot = self.datasets.current()
        stack = snapshot.stack_or_default(neuronx_cc, library_version)
        choices = self.library_choices(snapshot, stack.neuronx_cc) if stack else []
        return gr.update(choices=choices, value=library_spec(stack) if stack else None)

    # ---- table ----------------------------------------------------------------------------

    def table(self, text, view, task, neuronx_cc, library_version, limit=PAGE_SIZE):
        """The table, its summary, the model ids shown (in order) and whether there are more."""
        return self._table(
            self.datasets.current(), self.rankings.current(), text, view, task, neuronx_cc, library_version, limit,
            self.records.current(),
        )  # fmt: skip

    @staticmethod
    def _table(snapshot, rankings, text, view, task, neuronx_cc, library_version, limit=PAGE_SIZE, records=None):
        # a person's choice no longer in the data (a refresh dropped it) shows the default stack
        stack = snapshot.stack_or_default(neuronx_cc, library_version)
        if stack is not None:
            neuronx_cc, library_version = stack.neuronx_cc, library_spec(stack)
        query = views.normalise(text, view, task, neuronx_cc, library_version)
        result = views.select(snapshot, rankings, query, records)
        limit = max(PAGE_SIZE, min(int(limit or PAGE_SIZE), MAX_ROWS))
        shown = result.frame.head(limit)
        summary = render.summary_line(
            result.total, len(shown), result.passed, result.stack, views.VIEW_LABELS[query.view]
        )
        if not result.total and hub_id(query.text):
            summary = Markup(summary) + evidence.lookup_offer(
                query.text, links.build(links.PageState(query, hub_id(query.text)))
            )
        more = gr.update(visible=result.total > len(shown))
        return render.table_frame(shown), summary, list(shown["model_id"]), more

    def more(self, text, view, task, neuronx_cc, library_version, limit):
        limit = min(int(limit or PAGE_SIZE) + PAGE_SIZE, MAX_ROWS)
        return (*self.table(text, view, task, neuronx_cc, library_version, limit), limit)

    # ---- details --------------------------------------------------------------------------

    def _details(self, snapshot: Snapshot, model_id: str, neuronx_cc: str, library_version: str) -> DetailsOutputs:
        if not model_id:
            return DetailsOutputs(render.details({}), "", "", "", "", "")
        record = self.records.lookup(model_id)  # never waits: a missing record is asked for in the background
        unknown = None if record else self.records.why_unknown(model_id)
        answer = details.lookup(snapshot, model_id, neuronx_cc, library_version, self.records.current(), unknown)
        return DetailsOutputs(
            html=Markup(render.details(answer)) + evidence.evidence_html(answer),  # render escapes its values
            history=render.history_table(answer.get("history", [])),
            install=answer.get("install_command", ""),
            cache_sync=answer.get("cache_sync_command", ""),
            run_py=answer.get("run_py") or answer.get("suggested_run_py") or "",
            model=answer["model_id"],
        )

    def on_select(self, shown: list[str], neuronx_cc: str, library_version: str, evt: gr.SelectData):
        model_id = _model_from_event(evt, shown)
        return self._details(self.datasets.current(), model_id, neuronx_cc, library_version).values()

    def on_stack(self, text, view, task, neuronx_cc, library_version, model_id):
        """The chosen stack changed: the table, and the open model, are shown on the new stack."""
        snapshot = self.datasets.current()  # one snapshot for both halves of the answer
        table = self._table(
            snapshot, self.rankings.current(), text, view, task, neuronx_cc, library_version,
            records=self.records.current(),
        )  # fmt: skip
        return (*table, *self._details(snapshot, model_id, neuronx_cc, library_version).values())

    # ---- page load ------------------------------------------------------------------------

    def on_load(self, request: gr.Request | None):
        """Open the state a deep link asks for; unknown values fall back to the defaults."""
        snapshot = self.datasets.current()
        rankings = self.rankings.current()
        self.records.cover(snapshot.model_ids, snapshot)
        records = self.records.current()
        tasks = views.task_choices(snapshot, rankings, records)
        params = dict(request.query_params) if request is not None else {}
        state = links.parse(params, snapshot, tasks)
        q = state.query
        cc_choices = self.compiler_choices(snapshot)
        tf_choices = self.library_choices(snapshot, q.neuronx_cc) if q.neuronx_cc else []
        table, summary, shown, more = self._table(
            snapshot, rankings, q.text, q.view, q.task, q.neuronx_cc, q.library_version, records=records
        )
        panel = self._details(snapshot, state.model, q.neuronx_cc, q.library_version)
        return (
            render.header(snapshot.provenance, snapshot.skipped, rankings.label(), self.datasets.last_error),
            q.text,
            q.view,
            gr.update(choices=[("All tasks", "")] + [(t, t) for t in tasks], value=q.task),
            gr.update(choices=cc_choices, value=q.neuronx_cc or None),
            gr.update(choices=tf_choices, value=q.library_version or None),
            table,
            summary,
            shown,
            more,
            PAGE_SIZE,
            *panel.values(),
        )

    @staticmethod
    def link(text, view, task, neuronx_cc, library_version, model) -> str:
        query = views.normalise(text, view, task, neuronx_cc, library_version)
        return links.build(links.PageState(query, model or ""))


def _model_from_event(evt: gr.SelectData, shown: list[str]) -> str:
    """The model of the clicked row: read from the row itself (robust to client-side sorting)."""
    row = getattr(evt, "row_value", None) or []
    for cell in row:
        found = _LINK_TEXT.search(str(cell)) if "model-link" in str(cell) else None
        if found:
            return html.unescape(found.group(1))
    index = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
    if isinstance(index, int) and 0 <= index < len(shown):
        return shown[index]
    return ""
