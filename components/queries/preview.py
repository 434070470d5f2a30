"""What a page's first response says before any script runs: its title, its description, the fields of its
link-preview card, and the first rows of the default view. Plain text over one `Moment`; the web layer
escapes it into tags, a card and a painted block.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from components.domain.results import EXCLUDED, FAIL, KIND_LABELS, NOT_TESTED, OTHER
from components.domain.stacks import StackRef, names_stack
from components.domain.versions import short_version
from components.queries import details, formatting, links, ordering, sizes, views
from components.runtime import settings
from components.sources.app_sources import Moment

APP_NAME = "torch-neuronx model support"
SAMPLE_LABEL = "Sample data (made up, not real results)"
# each page's path -> (its name, what it shows)
PAGES = {
    "": ("Models", "Search the models tested on AWS Trainium and see which run unmodified with torch-neuronx"),
    "compare": ("Compare stacks", "What changed between two Neuron SDK stacks: models fixed, broken and still failing"),
    "charts": ("Charts", "Pass rates of Hub models on AWS Trainium, stack by stack"),
    "architectures": ("Architectures", "Which model architectures run on AWS Trainium with torch-neuronx"),
    "grid": ("Grid", "Which model architectures run on each Neuron SDK stack, and since when"),
    "failures": ("Failures", "Why models fail on AWS Trainium: failures grouped by cause, with fixes"),
    "about": ("About", "How models are tested on AWS Trainium and what a result means"),
    "wanted": ("Wanted", "The untested models people look up most, for the dataset's maintainers to test next"),
    "endpoints": ("API endpoints", "The named JSON endpoints of the app"),
}


@dataclass(frozen=True)
class Preview:
    """One page's first response, as text: `title`, `description`, `query` (the card's and canonical link's
    query string, without `?`), and for a model, its card fields."""

    page: str
    title: str
    description: str
    query: str = ""
    model: str = ""
    verdict: str = ""  # PASS, FAIL, "not tested (likely runs)", ...
    kind: str = ""
    stack: str = ""
    cores: str = ""
    wall_time: str = ""
    detail: str = ""  # a FAIL's first error line, an untested model's reason
    sample: bool = False
    # what a model link's reader came to copy (the painted block carries them; the card does not)
    install: str = ""
    cache_sync: str = ""
    cache_notes: tuple[str, ...] = ()
    run_py: str = ""
    run_py_from: str = ""  # an untested model's script: the tested model it was adapted from
    unknown_stack: str = ""  # the link asked for a stack the data lacks: that stack and the known ones
    table_query: str = ""  # a model link's table, the way back to it: its query string without the model
    # a model link's whole answer, which its painted page leads with as the live page does (`first_paint.model_block`)
    answer: Mapping[str, object] | None = field(default=None, compare=False, repr=False)

    @property
    def figures(self) -> str:
        """The figures the run has, in words ("1 Trainium core · wall time 14 min 42 s"); "" for a model that
        never ran (an excluded one said "cores unknown · wall time —")."""
        return " · ".join([self.cores] * bool(self.cores) + [f"wall time {self.wall_time}"] * bool(self.wall_time))


@dataclass(frozen=True)
class SearchForm:
    """The painted block's GET form (works with scripts off): the link's search text, view and stack, and
    the choices on offer (`(value, label)`; "" is the default, the newest)."""

    text: str
    view: str
    neuronx_cc: str
    library_version: str
    views: tuple[tuple[str, str], ...]
    compilers: tuple[tuple[str, str], ...]
    libraries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class FirstRows:
    """The rows painted before any script: the first of a link's view, in the order the link asks for (its
    `sort=`, else the view's own), as the live table shows them (`html/table.results_table`)."""

    frame: pd.DataFrame  # at most FIRST_ROWS rows
    result: views.ViewResult  # the whole view (its total, passes and stack)
    state: links.PageState  # the link as opened (its query and order)


def preview(moment: Moment, page: str, params: Mapping[str, str]) -> Preview:
    """The first response of `page` (a key of PAGES) for a link's `params`: a model's answer when the Models
    page is opened with a well-formed `model=ID`, else the page and the data's state."""
    snapshot = moment.snapshot
    sample = snapshot.provenance.is_sample
    name, what = PAGES.get(page, PAGES[""])
    state = links.PageState(views.Query())
    if page == "":
        state = links.opened(params, snapshot, moment.rankings, moment.records)
    if state.model:
        return _model(moment, state, sample)
    stack = snapshot.newest
    data = f"{len(snapshot.model_ids):,} models tested" + (f", newest stack {stack.label}" if stack else "")
    if stack is None:
        data = "no data loaded"
    description = f"{what}. {data}." + (f" {SAMPLE_LABEL}." if sample else "")
    shown = view_words(state.query) if page == "" else ""
    title = f"{shown} · {APP_NAME}" if shown else APP_NAME if page == "" else f"{name} · {APP_NAME}"
    query_string = links.build(state) if shown else ""
    return Preview(page, title, description, query_string, sample=sample)


def view_words(query: views.Query) -> str:
    """What a Models page link asks for beyond the default view, in words ("Trending · text-generation ·
    “qwen”"); "" for the default (the Selected view of every task, any size, no search)."""
    words = [views.of(query.view).label] if query.view != views.DEFAULT else []
    words += [query.task] if query.task else []
    words += [f"“{query.text}”"] if query.text else []
    words += [sizes.label(query.size)] if query.size else []
    words += [query.architecture] if query.architecture else []
    return " · ".join(words)


def _model(moment: Moment, state: links.PageState, sample: bool) -> Preview:
    query = state.query
    answer = details.lookup(moment.snapshot, state.model, query.neuronx_cc, query.library_version, moment.records)
    model, kind = answer["model_id"], answer.get("kind") or OTHER
    stack = StackRef.of(answer).label if answer.get("neuronx_cc") else "no stack"
    # only the figures a run has ("" for the others)
    cores = formatting.cores_words(answer.get("tp")) if answer.get("tp") is not None else ""
    wall = formatting.duration(answer.get("wall_s")) if answer.get("wall_s") is not None else ""
    detail = ""
    if kind == NOT_TESTED:
        expectation = answer.get("expectation")
        expected = expectation["verdict"] if expectation else ""
        verdict = f"not tested (expected: {expected})" if expected else KIND_LABELS[NOT_TESTED]
        detail = (expectation["reason"] if expectation else "") or answer.get("unknown_stack", "")
        description = f"{model}: {verdict} on {stack}." + (f" {detail}." if detail else "")
    else:
        verdict = KIND_LABELS[kind] if kind != OTHER else " ".join(str(answer.get("result") or "").split())
        if kind == FAIL:
            # a traceback's last line names the exception
            lines = [line.strip() for line in str(answer.get("error") or "").splitlines() if line.strip()]
            detail = lines[-1][: settings.PREVIEW_ERROR.value] if lines else ""
        figures = [cores] * bool(cores) + [f"wall time {wall}"] * bool(wall)
        description = f"{model}: {verdict} on {stack}" + "".join(f", {f}" for f in figures) + "."
        if kind == EXCLUDED and answer.get("exclusion"):
            description += f" Excluded because: {' '.join(str(answer['exclusion']).split())}."
        if detail:  # its own sentence: what follows (the sample's label) must not run into the error line
            description += f" Error: {detail}" + ("" if detail.endswith(".") else ".")
    detail = detail[: settings.PREVIEW_ERROR.value]
    if sample:
        description += f" {SAMPLE_LABEL}."
    title = f"{model}: {verdict} on Trainium · {APP_NAME}"
    query_string = links.build(links.PageState(query, model))
    return Preview(
        "", title, description, query_string, model, verdict, kind, stack, cores, wall, detail, sample,
        install=answer.get("install_command") or "",
        cache_sync=answer.get("cache_sync_command") or "",
        cache_notes=tuple(answer.get("cache_sync_notes") or ()) if answer.get("cache_sync_command") else (),
        run_py=answer.get("run_py") or answer.get("suggested_run_py") or "",
        run_py_from="" if answer.get("run_py") else answer.get("suggested_from") or "",
        unknown_stack=state.unknown_stack, table_query=links.build(links.PageState(query, "", sort=state.sort)),
        answer=answer,
    )  # fmt: skip


def search_form(moment: Moment, params: Mapping[str, str]) -> SearchForm:
    """The form for a Models page link's `params`: its state as the page opens it, every view and stack ("" for
    both: no stack named, every library's newest)."""
    snapshot = moment.snapshot
    query = links.opened(params, snapshot, moment.rankings, moment.records).query
    named = names_stack(query.neuronx_cc, query.library_version)
    stack = snapshot.stack_or_default(query.neuronx_cc, query.library_version) if named else None
    default = stack is None  # no stack named: every library's newest
    specs = {s.spec: s.library_label for s in snapshot.stacks}  # one value a library version: its words
    return SearchForm(
        query.text, query.view,
        "" if default or stack is None else short_version(stack.neuronx_cc),
        "" if default or stack is None else stack.spec,
        tuple((v, label) for label, v in views.choices()),
        # a compiler without its +local tag matches the stack that has it: the shorter value keeps `/` light
        (("", "newest"), *((short_version(cc), short_version(cc)) for cc in snapshot.compilers())),
        (("", "all libraries, each one's newest"), *specs.items()),
    )  # fmt: skip


def first_rows(
    moment: Moment, params: Mapping[str, str] | None = None, limit: int = settings.FIRST_ROWS.value
) -> FirstRows:
    """The first rows the Models page shows for a link's `params` (its view, task, search, size, stack and
    order; the default view without them), from `moment`."""
    state = links.opened(params or {}, moment.snapshot, moment.rankings, moment.records)
    result = views.select(moment.snapshot, moment.rankings, state.query, moment.records)
    frame = ordering.apply(result.frame, ordering.parse(state.sort)).head(limit)
    return FirstRows(frame, result, state)
