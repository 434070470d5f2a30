"""The "Models" tab: the filters, the results table, one model's details, and the link to what is shown.

`ModelsPage.layout()` places the components and `wire()` connects them. Handlers take their inputs by
component name and answer by name (`{"summary": ..., "install": ...}`), as `wiring.py` describes.
The filters travel as one `Filters` value (`filters.py`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

import anyio
import gradio as gr
from markupsafe import Markup

from components.domain.columns import NAMES
from components.domain.results import EXCLUDED
from components.domain.stacks import library_name, library_order, names_stack
from components.domain.versions import short_version
from components.queries import config_check, details, links, ordering, sizes, views, wanted
from components.runtime import settings
from components.sources import wanted_store
from components.sources.app_sources import Moment, Sources
from components.sources.moment_cache import MomentCache
from components.sources.rankings import Rankings
from components.sources.records import OTHER_REPOS, hub_address
from components.sources.snapshot import Snapshot, Stack
from components.sources.wanted_counts import Wanted
from components.web.gradio import page_config
from components.web.gradio.endpoints import address_of
from components.web.gradio.pages.filters import Filters
from components.web.gradio.pages.wiring import ADDRESS_JS, PAGE_EVENT, answering, as_sent, by_name, components
from components.web.html import causes, evidence, follow, notice, table
from components.web.html import details as html_details
from components.web.html.config_check import config_check_html, config_error_html
from components.web.html.history import history_table
from components.web.html.markup import command_block
from components.web.html.table_rows import TableRows, table_rows
from components.web.middleware import first_html

ALL_TASKS = ("All tasks", "")
ALL_LIBRARIES = ("All libraries", "")  # the library picker's default: no stack named, each library's newest
EACH_NEWEST = ("Each library's newest", "")  # the compiler and version pickers with "All libraries"
RUN_COMMAND = details.RUN_COMMAND
INSTALL_LABEL, CACHE_LABEL, RUN_LABEL = html_details.INSTALL_LABEL, html_details.CACHE_LABEL, html_details.RUN_LABEL
# An open model is a page of its own (style.css: `.model-page`, which the address script sets from the link):
# the filters and the table are one step back, behind this link. It goes back in the tab's history where the
# table opened the model, else to the table's address (`html/head.py`).
BACK_TO_TABLE = Markup('<p class="back-to-table"><a href="./?{}" target="_self">← Back to the table</a></p>')


# What each event may change, by name (the outputs Gradio marks as pending while it runs).
TABLE = ("results", "summary", "rows", "more", "snippets")
PANEL = ("details", "install", "cache_sync", "run_py", "run_command", "facts", "history")
PICKERS = ("task", "cc", "library", "version")
FILTERS = ("search", "view", "task", "size", "cc", "library", "version")
CHECKED = ("config_answer",)


@dataclass
class Widgets:
    """The tab's components, by the names the handlers answer with."""

    header: gr.HTML
    search: gr.Textbox
    view: gr.Radio
    task: gr.Dropdown
    size: gr.Dropdown
    cc: gr.Dropdown
    library: gr.Dropdown
    version: gr.Dropdown
    summary: gr.HTML
    results: gr.HTML
    more: gr.Button
    details: gr.HTML
    install: gr.HTML
    cache_sync: gr.HTML
    run_py: gr.HTML
    run_command: gr.HTML
    facts: gr.HTML
    history: gr.HTML
    snippets: gr.HTML
    config_json: gr.Textbox
    config_button: gr.Button
    config_answer: gr.HTML
    link: gr.Textbox
    rows: gr.Textbox

    def named(self, names: Iterable[str]) -> list:
        return components(self, names)


class ModelsPage:
    """The Models page: the search, the pickers, the results table and a model's details. `layout()` places its
    components, `wire()` connects their events to the handlers below (`on_load`, `on_search`, `on_select`, ...),
    each reading one `sources.now()`; what a link loads is worked out once per data moment (`loaded`)."""

    def __init__(self, sources: Sources, wanted: Wanted | None = None):
        self.sources = sources
        self.wanted = wanted if wanted is not None else wanted_store.shared()  # untested models opened count
        self.loaded = MomentCache(max_entries=settings.LOAD_ANSWERS.value, ttl=settings.LOAD_ANSWER_AGE.value)
        self.tables = MomentCache(
            max_entries=settings.TABLES.value, max_bytes=settings.TABLES_BYTES.value, weigh=TableRows.weight
        )
        self.widgets: Widgets | None = None

    # ---- pickers --------------------------------------------------------------------------

    @staticmethod
    def compiler_choices(snapshot: Snapshot) -> list[tuple[str, str]]:
        ccs = snapshot.compilers()
        return [(short_version(cc) + (" (newest)" if i == 0 else ""), cc) for i, cc in enumerate(ccs)]

    @staticmethod
    def library_choices(snapshot: Snapshot, neuronx_cc: str) -> list[tuple[str, str]]:
        names = sorted({s.library for s in snapshot.library_versions(neuronx_cc)}, key=library_order)
        return [(library_name(n), n) for n in names]

    @staticmethod
    def version_choices(snapshot: Snapshot, neuronx_cc: str, library: str) -> list[tuple[str, str]]:
        stacks = [s for s in snapshot.library_versions(neuronx_cc) if s.library == library]
        return [(s.library_version, s.library_version) for s in stacks]

    @staticmethod
    def task_choices(snapshot: Snapshot, rankings: Rankings, records, view: str) -> list[tuple[str, str]]:
        """The task picker's choices for `view` (`views.view_tasks`), "" as "All tasks"."""
        return [ALL_TASKS if t == "" else (t, t) for t in views.view_tasks(snapshot, rankings, records, view)]

    def _pickers(self, now: Moment, query: views.Query, stack: Stack | None):
        """The pickers for `query` on `stack`; no stack (none named): "All libraries", no compiler or version."""
        snapshot = now.snapshot
        query, choices = self._task_for_view(now, query)
        task = query.task
        if stack is None:
            none = gr.update(choices=[], value=None)
            if snapshot.newest is None:
                return {"task": gr.update(choices=choices, value=task), "cc": none, "library": none, "version": none}
            libraries = [ALL_LIBRARIES, *self.library_choices(snapshot, snapshot.newest.neuronx_cc)]
            # the compiler and version say what is shown (an empty picker is also unreadable in the dark theme)
            return {
                "task": gr.update(choices=choices, value=task),
                "cc": gr.update(choices=[EACH_NEWEST, *self.compiler_choices(snapshot)], value=""),
                "library": gr.update(choices=libraries, value=""),
                "version": gr.update(choices=[EACH_NEWEST], value=""),
            }
        return {
            "task": gr.update(choices=choices, value=task),
            "cc": gr.update(choices=self.compiler_choices(snapshot), value=stack.neuronx_cc),
            "library": gr.update(
                choices=[ALL_LIBRARIES, *self.library_choices(snapshot, stack.neuronx_cc)], value=stack.library
            ),
            "version": gr.update(
                choices=self.version_choices(snapshot, stack.neuronx_cc, stack.library), value=stack.library_version
            ),
        }

    # ---- handlers (inputs and answers by name) ---------------------------------------------
    # Each answer carries the `link` of the state it applied: the address bar then shows what is on
    # screen, fallbacks included, and no listener has to read the pickers while they change.

    def table(self, **values: Any) -> dict[str, Any]:
        """The table for the filters, from its first page."""
        now = self.sources.now()
        return self._table(
            now, Filters.of(values).query(), settings.MODELS_PAGE.value, opened_model(now, values), sort_of(values)
        )

    def more(self, **values: Any) -> dict[str, Any]:
        now, limit = (
            self.sources.now(),
            min(rows_shown(values) + settings.MODELS_PAGE.value, settings.MODELS_ROWS.value),
        )
        return self._table(now, Filters.of(values).query(), limit, opened_model(now, values), sort_of(values))

    def on_sort(self, evt: gr.EventData, **values: Any) -> dict[str, Any]:
        """A header clicked: the rows in the order it asks for (`ordering.Order.after_click`), from the first
        page."""
        now, query = self.sources.now(), Filters.of(values).query()
        key = event_text(evt, "sort")
        shown = ordering.shown(ordering.parse(sort_of(values)), query.view, bool(query.text.strip()))
        return self._table(
            now, query, settings.MODELS_PAGE.value, opened_model(now, values), shown.after_click(key).param
        )

    def on_view(self, **values: Any) -> dict[str, Any]:
        """Another view: the task picker offers what that view can show, then the table."""
        now = self.sources.now()
        query, choices = self._task_for_view(now, Filters.of(values).query())
        shown = self._table(now, query, settings.MODELS_PAGE.value, opened_model(now, values), sort_of(values))
        return {**shown, "task": gr.update(choices=choices, value=query.task)}

    def on_stack(self, **values: Any) -> dict[str, Any]:
        """A picker of the stack changed: the others follow it, then the table and the open model are
        shown on the new stack. A choice no longer on offer (another compiler, a refresh) falls back as
        `stacks.resolve_or_default` says."""
        now, f = self.sources.now(), Filters.of(values)
        stack = None if f.all_libraries else now.snapshot.stack_or_default(f.neuronx_cc, f.library_version)
        query = views.normalise(
            f.text, f.view, f.task, stack.neuronx_cc if stack else "", stack.spec if stack else "", f.size
        )
        model, panel = self._panel(now, opened_model(now, values), query, sort_of(values))
        table_part = self._table(now, query, settings.MODELS_PAGE.value, model, sort_of(values))
        return {**self._pickers(now, query, stack), **table_part, **panel}

    def on_library(self, **values: Any) -> dict[str, Any]:
        """Another library: its newest version on the compiler (the old version is another library's); "All
        libraries": no stack named, each library's newest."""
        compiler = values.get("cc") if values.get("library") else ""
        return self.on_stack(**{**values, "version": "", "cc": compiler})

    def on_select(self, evt: gr.EventData, request: gr.Request | None = None, **values: Any) -> dict[str, Any]:
        """A row opened: its model's answer (the event names the model, the browser's text, read as a link's
        `model=` is); or a header clicked (the event names its column): `on_sort`. One event for both keeps
        the page's config small."""
        if event_text(evt, "sort"):
            return self.on_sort(evt, **values)
        query = Filters.of(values).query()
        now = self.sources.now()
        model_id = links.model_in_data(now.snapshot, event_text(evt, "value"))
        self._count(now, model_id, request)
        model, panel = self._panel(now, model_id, query, sort_of(values))
        return {**panel, "link": links.build(links.PageState(query, model, sort=sort_of(values)))}

    async def on_load(self, request: gr.Request | None) -> dict[str, Any]:
        """Open the state a deep link asks for; unknown values fall back to the defaults. A burst on one
        link works its answer out once per data moment (`LOAD_ANSWERS`); each visitor after that takes the
        kept answer on the event loop, with no thread to wait for. A new link whose view's rows are kept
        (`TABLES`) costs one model's answer, a few ms: it is made on the event loop too, since handing it
        to a worker thread made a crowd of new links wait longer (issue 48). One whose rows must be worked
        out (a search over the whole data) goes to a worker thread."""
        now = self.sources.now()
        self.sources.records.cover(now.snapshot.model_ids, now.snapshot)
        params = dict(request.query_params) if request is not None else {}
        served = (now.snapshot, now.rankings, now.records)
        key = (tuple(sorted(params.items())), self.sources.datasets.source_status().last_error)
        kept = self.loaded.peek(served, key)  # the model the link opens, and the page's answer
        if kept is None and self._rows_kept(now, params):

            async def made_here() -> tuple[str, dict[str, Any]]:
                return self._on_load(now, params)

            kept = await self.loaded.get_async(served, key, made_here)  # another caller's work awaited, not waited on
        elif kept is None:
            kept = await anyio.to_thread.run_sync(
                lambda: self.loaded.get(served, key, lambda: self._on_load(now, params))
            )
        model, answer = cast(tuple[str, dict[str, Any]], kept)
        self._count(now, model, request)  # each visitor counts, a kept answer or not
        return {
            name: dict(value) if isinstance(value, dict) else value for name, value in answer.items()
        }  # Gradio pops an update's "value"

    def first_answer(self, now: Moment, params: dict[str, str]) -> first_html.Answered | None:
        """A model link's load answer, for its first HTML to carry in the page's config
        (`page_config.with_answer`): the live page then mounts filled and sends no load event, so a crowd
        spread over many model links never waits in the queue for its first screen (issue 48). For a model in
        the data that a visit does not count (a tested one: `wanted.untested`); every other link keeps its load
        event, which counts the visitor (`_count`) or may work out a search. Made once per link and data moment
        by the page cache (`middleware/first_html.py`), so it is not kept here as well."""
        model = links.model_in_data(now.snapshot, params.get("model", ""))
        if not model or wanted.untested(now.snapshot, model, now.records) or self.widgets is None:
            return None
        widgets = self.widgets

        def fill(html: str) -> str | None:
            self.sources.records.cover(now.snapshot.model_ids, now.snapshot)
            _, answer = self._on_load(now, params)
            return page_config.with_answer(html, {getattr(widgets, n).elem_id: v for n, v in answer.items()})

        return first_html.Answered(fill=fill, on_loop=self._rows_kept(now, params))

    def _rows_kept(self, now: Moment, params: dict[str, str]) -> bool:
        """Whether the table rows a link's answer shows are kept already (what `_table` would ask `TABLES`)."""
        state = links.opened(params, now.snapshot, now.rankings, now.records)
        served = (now.snapshot, now.rankings, now.records)
        return self.tables.peek(served, _table_key(state.query, settings.MODELS_PAGE.value, state.sort)) is not None

    def _on_load(self, now: Moment, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """The model a link opens, and the page's answer for it in the form Gradio sends (`as_sent`)."""
        state = links.opened(params, now.snapshot, now.rankings, now.records)
        query = state.query
        named = names_stack(query.neuronx_cc, query.library_version)
        stack = now.snapshot.stack_or_default(query.neuronx_cc, query.library_version) if named else None
        model, panel = self._panel(now, state.model, query, state.sort)
        if state.unknown_stack:  # the link asked for a stack the data lacks: say so beside what is shown
            panel["details"] = notice.unknown_stack(state.unknown_stack, stack) + panel["details"]
        answer = {
            "header": notice.page_header(self.sources, now),
            "search": query.text,
            "view": query.view,
            "size": gr.update(choices=self.size_choices(query.size), value=query.size),
            **self._pickers(now, query, stack),
            **self._table(now, query, settings.MODELS_PAGE.value, model, state.sort),
            **panel,
        }
        address = hub_address(params.get("model", ""))
        if address is not None and address.kind in OTHER_REPOS:  # a Space's or dataset's address given as a model
            answer["header"] += table.not_a_model(OTHER_REPOS[address.kind])  # under the notice, in sight
        return model, as_sent(self.widgets, answer)

    # ---- what the handlers share -----------------------------------------------------------

    def _count(self, now: Moment, model_id: str, request: gr.Request | None) -> None:
        """A model opened on the page counts towards /wanted when it is untested (queries/wanted.py)."""
        if model_id and request is not None:
            wanted.note_lookup(self.wanted, now.snapshot, model_id, address_of(request), now.records)

    def _task_for_view(self, now: Moment, query: views.Query):
        """The query with a task its view offers (a ranked view has no "All tasks"), and the choices."""
        choices = self.task_choices(now.snapshot, now.rankings, now.records, query.view)
        task = query.task if query.task in {v for _, v in choices} else choices[0][1]
        return replace(query, task=task), choices

    def _table(self, now: Moment, query: views.Query, limit: int, model: str | None, sort: str = "") -> dict[str, Any]:
        """The table's part of an answer: the rows of `query` in the `sort=` order, its first `limit`, with the
        lines around them; `model` is the one open. What does not depend on the model open is made once per
        query, order, limit and data moment (`html/table_rows.py`): a crowd opening many models of one view shares it."""
        limit = _bounded(limit)
        rows = self.tables.get(
            (now.snapshot, now.rankings, now.records), _table_key(query, limit, sort),
            lambda: table_rows(now, query, limit, sort),
        )  # fmt: skip
        query, order = rows.query, rows.order
        html = table.results_table(
            rows.frame, query.view, order, ordering.shown(order, query.view, bool(query.text.strip())),
            lambda opened, asked: links.build(links.PageState(query, opened, sort=asked)), model or "", rows=rows.rows,
        )  # fmt: skip
        return {
            "results": html,
            "summary": rows.summary,
            "rows": str(len(rows.frame)),
            "more": gr.update(visible=rows.more),
            "link": links.build(links.PageState(query, model or "", sort=order.param)),
            "snippets": rows.snippets,
        }

    @staticmethod
    def size_choices(size: str) -> list[tuple[str, str]]:
        """The size picker's ranges, and a deep link's own range where it is another one."""
        choices = list(sizes.CHOICES)
        if size and size not in {v for _, v in choices}:
            choices.append((sizes.label(size), size))
        return choices

    def on_config(self, **values: Any) -> dict[str, Any]:
        """The pasted config.json checked on the stack picked (as /check_config answers)."""
        now, f = self.sources.now(), Filters.of(values)
        stack = now.snapshot.stack_or_default(f.neuronx_cc, f.library_version)
        try:
            answer = config_check.check_config(now.snapshot, stack, values.get("config_json"), now.records)
        except config_check.ConfigError as error:
            return {"config_answer": config_error_html(str(error))}
        return {"config_answer": config_check_html(answer)}

    def _panel(self, now: Moment, model_id: str, query: views.Query, sort: str = "") -> tuple[str, dict[str, Any]]:
        """The model opened (its id in the data, "" for none) and its page: the answer, the three commands,
        run.py, then the evidence and the history (`sort`: the table's order, for the way back to it); with no
        model, a short guide and no empty boxes."""
        if not model_id:
            hidden = gr.update(value="", visible=False)
            return "", {
                "details": html_details.GUIDE,
                "install": hidden,
                "cache_sync": hidden,
                "run_py": hidden,
                "run_command": hidden,
                "facts": hidden,
                "history": "",
            }
        records = self.sources.records
        record = records.lookup(model_id)  # never waits: a missing record is asked for in the background
        unknown = None if record else records.why_unknown(model_id)
        answer = details.lookup(now.snapshot, model_id, query.neuronx_cc, query.library_version, now.records, unknown)
        # columns a newer dataset added, which the app does not know yet: shown as text
        row: Mapping[str, object] = answer
        other_fields = {c: row[c] for c in now.snapshot.rows.columns if c not in NAMES and row.get(c) is not None}
        install = answer.get("install_command", "")
        # graphs exist only for a model that ran: an excluded row never compiled any
        cache_sync = answer.get("cache_sync_command", "") if answer.get("kind") != EXCLUDED else ""
        run_py = answer.get("run_py") or answer.get("suggested_run_py") or ""
        table_link = links.build(links.PageState(query, "", sort=sort))
        # all escaped (markupsafe): the answer first, an untested model's evidence with it (what to expect)
        head = BACK_TO_TABLE.format(table_link) + html_details.head(answer) + evidence.evidence_html(answer)
        facts = html_details.body(answer, other_fields) + causes.cause_panel(answer)
        # what the cache command needs to work as pasted, sent with it (the first page stays light)
        cache_notes = tuple(answer.get("cache_sync_notes") or ())
        return answer["model_id"], {
            "details": head,
            "install": gr.update(value=command_block("install-command", install, INSTALL_LABEL), visible=bool(install)),
            "cache_sync": gr.update(
                value=command_block("cache-sync-command", cache_sync, CACHE_LABEL, cache_notes),
                visible=bool(cache_sync),
            ),
            "run_py": gr.update(value=html_details.run_py(answer), visible=bool(run_py)),
            "run_command": gr.update(
                value=command_block("run-command-text", RUN_COMMAND, RUN_LABEL), visible=bool(run_py)
            ),
            "facts": gr.update(value=facts, visible=True),
            # under the history: the badge for its model card, and its own feed
            "history": history_table(answer.get("history", [])) + follow.panel_html(answer),
        }

    # ---- layout and wiring -------------------------------------------------------------------

    def layout(self, header: gr.HTML) -> Widgets:
        """Place the tab's components (inside `with gr.Tab(...)`); values arrive on load, or in the page's config
        for a tested model's link (`first_answer`)."""
        # The search box first: on a phone it is on the first screen, above the pickers. An open model's page
        # (`.model-page`, style.css) shows none of the filters, the table or the tools under it: its answer
        # leads.
        with gr.Row(equal_height=True, elem_id="filters-search"):
            search = gr.Textbox(
                label="Search", placeholder="Part of a model name, e.g. qwen3 0.6b", elem_id="search",
                scale=2, min_width=240, max_lines=1, autofocus=True,
            )  # fmt: skip
            view = gr.Radio(
                views.choices(), value=views.DEFAULT, label="View",
                elem_id="view", scale=2, min_width=260,
            )  # fmt: skip
        with gr.Row(equal_height=True, elem_id="filters-stack"):
            task = gr.Dropdown([ALL_TASKS], value="", label="Task", elem_id="task", scale=1, min_width=180)
            size = gr.Dropdown(label="Size (parameters)", elem_id="size", scale=1, min_width=150)  # filled on load
            cc = gr.Dropdown(label="neuronx-cc", elem_id="stack-cc", scale=1, min_width=240)  # "2.28.7631.0 (newest)"
            # wide enough for the longest library's name whole ("Sentence Transformers", `stacks.library_name`)
            library = gr.Dropdown(label="Library", elem_id="stack-lib", scale=1, min_width=250)
            version = gr.Dropdown(label="Version", elem_id="stack-tf", scale=1, min_width=120)
        summary = gr.HTML(elem_id="summary")
        with gr.Row():
            # The table takes the width its figures need (one line each); the guide sits beside it where there
            # is room for both, else below. An open model's page hides the table: the panel is the page, full width.
            with gr.Column(scale=3, min_width=760, elem_id="table-column"):
                # a plain table of links, every value escaped (table.results_table), run in place by its script
                results = gr.HTML(elem_id="results", js_on_load=table.TABLE_JS)
                more = gr.Button("Show more", visible=False, size="sm", elem_id="more")
            with gr.Column(scale=1, min_width=380, elem_id="details"):
                details_html = gr.HTML(html_details.GUIDE, elem_id="details-summary")
                # The commands, each under its heading with its own Copy button (markup.command_block): the app's
                # markup, not Gradio's textbox, whose label lay over its copy icon. Side by side where there is
                # room, so that run.py starts on the first screen.
                with gr.Row(elem_id="commands"):
                    with gr.Column(min_width=320):
                        install = gr.HTML(elem_id="install", visible=False)
                        run_command = gr.HTML(elem_id="run-command", visible=False)
                    with gr.Column(min_width=320):
                        cache_sync = gr.HTML(elem_id="cache-sync", visible=False)
                # whole, numbered, with Copy and Download (markup.code_block): plain HTML, so the page loads no
                # code editor (~390 KB of scripts) for a script that is only read
                run_py = gr.HTML(elem_id="run-py", visible=False)
                with gr.Row(elem_id="evidence-and-history"):
                    facts = gr.HTML(elem_id="details-body", visible=False, min_width=320)
                    history = gr.HTML(elem_id="history", min_width=320)
        # closed until asked for: the first page stays light
        with gr.Accordion("Query it yourself: the pandas and DuckDB query for the rows shown", open=False,
                          elem_id="query-yourself"):  # fmt: skip
            snippets_box = gr.HTML(elem_id="snippets")
        with gr.Accordion("Check a config.json: a model that is not on the Hub", open=False, elem_id="check-config"):
            config_json = gr.Textbox(label="config.json", elem_id="config-json", lines=6, max_lines=20,
                                     placeholder='{"architectures": ["LlamaForCausalLM"], ...}')  # fmt: skip
            config_button = gr.Button("Check it on this stack", size="sm", elem_id="config-button")
            config_answer = gr.HTML(elem_id="config-answer")
        # How many rows the table shows, for "Show more". No gr.State: a page with one holds a heartbeat
        # connection open for as long as the tab stays open (docs/limits.md); the open model is the link's.
        rows = gr.Textbox(str(settings.MODELS_PAGE.value), visible=False, elem_id="rows")
        # Not empty before the load: the default view's link is "" (no stack named), and only a change runs the
        # address-bar script that turns the answer into the whole address.
        link = gr.Textbox("./", label="Link to this view", elem_id="link", buttons=["copy"], interactive=False)
        self.widgets = Widgets(
            header=header, search=search, view=view, task=task, size=size, cc=cc, library=library, version=version,
            summary=summary, results=results, more=more, details=details_html, install=install,
            cache_sync=cache_sync, run_py=run_py, run_command=run_command, facts=facts, history=history,
            snippets=snippets_box, config_json=config_json, config_button=config_button, config_answer=config_answer,
            link=link, rows=rows,
        )  # fmt: skip
        return self.widgets

    def wire(self, demo: gr.Blocks) -> None:
        """Connect the tab's events (after `layout`)."""
        w = self.widgets
        if w is None:
            raise RuntimeError("wire() needs the widgets layout() makes")

        def event(handler, inputs, outputs, **options) -> dict:
            return dict(fn=answering(w, handler), inputs_kwargs=by_name(w, inputs), outputs=w.named(outputs),
                        **options, **PAGE_EVENT)  # fmt: skip

        every = ("header", "search", "view", "size", *PICKERS, *TABLE, *PANEL, "link")
        # postprocess=False: the kept answer is already in the form Gradio sends (`as_sent`)
        # No pending look on load: Gradio would show every output at 20% opacity and fade it in, so the
        # live rows would be faint in the frame the painted rows leave (html/first_paint.py swaps them).
        demo.load(answering(w, self.on_load), outputs=w.named(every), postprocess=False,
                  show_progress="hidden", **PAGE_EVENT)  # fmt: skip
        page_config.answered_by(demo, self.first_answer)  # a tested model's link needs no load event
        # The pickers use `.input` (a person's change only), so a deep link's values set on load don't
        # recompute; the search box uses `.change`, which also fires on paste (`.input` does not).
        table_in, table_out = (*FILTERS, "link"), (*TABLE, "link")
        gr.on([w.search.change, w.search.submit, w.task.input, w.size.input],
              **event(self.table, table_in, table_out, trigger_mode="always_last"))  # fmt: skip
        w.view.input(**event(self.on_view, table_in, (*table_out, "task"), trigger_mode="always_last"))
        stack_out = (*PICKERS, *TABLE, *PANEL, "link")
        gr.on([w.cc.input, w.version.input], **event(self.on_stack, table_in, stack_out))
        w.library.input(**event(self.on_library, table_in, stack_out))
        # a row opens a model (the panel shows progress), a header sorts the table
        w.results.select(**event(self.on_select, table_in, (*PANEL, *TABLE, "link"), show_progress_on=[w.details]))
        w.more.click(**event(self.more, (*table_in, "rows"), table_out))
        w.link.change(None, w.link, w.link, js=ADDRESS_JS, **PAGE_EVENT)
        w.config_button.click(**event(self.on_config, ("config_json", "cc", "library", "version"), CHECKED))


def opened_model(now: Moment, values: Mapping[str, Any]) -> str:
    """The model open on the page: the one its link (the `link` box) names, "" for none."""
    return links.model_in_data(now.snapshot, links.model_of(str(values.get("link") or "")))


def rows_shown(values: Mapping[str, Any]) -> int:
    """How many rows the table shows (the hidden `rows` box), within bounds; the first page's for nonsense."""
    try:
        return _bounded(int(str(values.get("rows") or settings.MODELS_PAGE.value)[:6]))
    except ValueError:
        return settings.MODELS_PAGE.value


def _table_key(query: views.Query, limit: int | None, sort: str) -> tuple[views.Query, int, str]:
    """What the table's rows are kept by in `TABLES`: one place, for `_table` and `_rows_kept` alike."""
    return (query, _bounded(limit), sort)


def _bounded(limit: int | None) -> int:
    return max(settings.MODELS_PAGE.value, min(int(limit or settings.MODELS_PAGE.value), settings.MODELS_ROWS.value))


def sort_of(values: Mapping[str, Any]) -> str:
    """The table's order on the page: the `sort=` of its link (the `link` box), "" for the view's own."""
    return links.sort_of(str(values.get("link") or ""))


def event_text(evt: gr.EventData, name: str) -> str:
    """A text value the table's script sent with its event (`table.TABLE_JS`); "" when it sent none or
    something else. It is the browser's text: the caller reads it as it reads a link."""
    # EventData answers each key of the event's data as an attribute (its public interface); `target` is its own
    try:
        value = getattr(evt, name, None) if name != "target" else None
    except TypeError:  # an event sent without data (`"event_data": null`): nothing to read
        value = None
    return value[: settings.EVENT_TEXT.value] if isinstance(value, str) else ""
