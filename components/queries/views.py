"""The views and the search box: which models a person sees, in which order.

Each view is declared once, at the end (`View`, `REGISTRY`): its rows, its own order, its wording, the tasks it
takes and the column it ranks by. Every other module asks it (`of(view_id)`) and never branches on a view's
name (`tests/queries/test_view_registry.py` reads the code for such a branch). `select()` is the one function
behind the table, the `/search` endpoint and the exports.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import pandas as pd

from components.domain.results import NOT_TESTED, NOT_TESTED_RESULT, PASS
from components.domain.stacks import names_stack
from components.queries import sizes, table_columns
from components.queries.answers import ModelOnStack, RankFields, RecentFields, RowAnswer, keys
from components.queries.formatting import noun, plain
from components.runtime import settings
from components.sources.rankings import TASKS, Rankings
from components.sources.records import Records, empty_records, hub_address, hub_id
from components.sources.snapshot import Snapshot, Stack, search_key

# The views' ids, as links, /search, /api/v1 and the export files write them; each is declared in `REGISTRY`.
SELECTED, TRENDING, DOWNLOADS, RECENT = "selected", "trending", "downloads", "recent"
DEFAULT = SELECTED  # the view a link without `view=` opens (links leave it out)
NO_RECORDS = empty_records()

# The fields of a row (the table's registry adds its own: `table_columns.OWN_FIELDS`) and of a ranking, in the
# order the answers declare them (`answers.RowAnswer`).
ROW_FIELDS = keys(ModelOnStack) + table_columns.OWN_FIELDS
RANK_FIELDS = keys(RankFields)
RECENT_FIELDS = keys(RecentFields)
ANSWER_FIELDS = ROW_FIELDS + RANK_FIELDS + RECENT_FIELDS  # what a row may carry, in the answer's order
# A Hub pipeline tag: any task a record may name, not only the ranked ones.
TASK_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+){0,8}$")
# Upper bounds, measured with tracemalloc: what one value of a row dict holds (a float, an int or a
# pointer to a shared string), and what making an answer's rows keeps beyond the rows themselves.
_VALUE_BYTES = 48
_ANSWER_BYTES = 8 * 1024


@dataclass(frozen=True)
class Query:
    """A normalised request: unknown values already replaced by defaults."""

    text: str = ""
    view: str = DEFAULT
    task: str = ""
    neuronx_cc: str = ""
    library_version: str = ""
    size: str = ""  # a size range in billions ("1-10", "100-"; `sizes`), "" for any size
    architecture: str = ""  # only models of this architecture (a Grid cell's link, `architecture=`), "" for all


@dataclass(frozen=True)
class ViewResult:
    """A view's answer: `stack` is the stack the query named (None when it named none), `stacks` the stacks its
    rows are on (the one named, else each library's newest: `Snapshot.newest_of_each_library`)."""

    stack: Stack | None
    frame: pd.DataFrame  # one row per model shown, in display order
    query: Query
    size_unknown: int = 0  # models left out because a size range was picked and their size is unknown
    stacks: tuple[Stack, ...] = ()
    _records: list[RowAnswer] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def total(self) -> int:
        return len(self.frame)

    @property
    def passed(self) -> int:
        return int((self.frame["kind"] == PASS).sum()) if len(self.frame) else 0

    def per_library(self) -> list[tuple[Stack, int, int]]:
        """(stack, models, passed) for each of `stacks`, in their order: what the summary line counts."""
        if not len(self.frame):
            return [(s, 0, 0) for s in self.stacks]
        on = self.frame["library"].astype(object).to_numpy()
        version = self.frame["library_version"].astype(object).to_numpy()
        passed = (self.frame["kind"] == PASS).to_numpy()
        counts = []
        for s in self.stacks:
            here = (on == s.library) & (version == s.library_version)
            counts.append((s, int(here.sum()), int((here & passed).sum())))
        return counts

    def records(self, limit: int | None = None) -> list[RowAnswer]:
        """Rows as plain JSON dicts (NaN → None); fresh dicts on every call, worked out once."""
        records = self._records
        if records is None:
            fields = [c for c in ANSWER_FIELDS if c in self.frame.columns]
            columns = [_plain_values(self.frame[c]) for c in fields]
            # `fields` are RowAnswer's keys that the frame has (a ranked view's rank fields among them)
            records = [cast(RowAnswer, dict(zip(fields, values))) for values in zip(*columns)]
            object.__setattr__(self, "_records", records)  # the frame never changes: keep the answer
        return [cast(RowAnswer, dict(r)) for r in (records if limit is None else records[:limit])]

    def __sizeof__(self) -> int:
        """What this answer may hold, its rows as dicts included (`records()` keeps them once made):
        the memo weighs an answer once, when it is stored."""
        per_record = sys.getsizeof(dict.fromkeys(self.frame.columns)) + _VALUE_BYTES * len(self.frame.columns)
        frame = int(self.frame.memory_usage(deep=True).sum())
        return object.__sizeof__(self) + _ANSWER_BYTES + frame + len(self.frame) * per_record


def _plain_values(column: pd.Series) -> list:
    """A column as plain JSON values, what `plain` gives for each value, worked out per column."""
    if column.dtype == object or pd.api.types.is_datetime64_any_dtype(column.dtype):
        return [plain(v) for v in column]
    values = column.to_numpy(dtype=object)  # Python scalars; missing ones are NaN or NA
    missing = pd.isna(values)
    if missing.any():
        values[missing] = None
    return values.tolist()


def normalise(
    text: object = "",
    view: object = DEFAULT,
    task: object = "",
    neuronx_cc: object = "",
    library_version: object = "",
    size: object = "",
    architecture: object = "",
) -> Query:
    """Turn whatever arrived (a form, an API call, a URL) into a valid Query (an unreadable size: any size)."""
    view_text = str(view or "").strip().lower()
    task_text = str(task or "").strip().lower()
    # a pasted Hub address of a model searches for its id
    words = " ".join(str(text or "").split())
    return Query(
        text=((hub_id(words) if hub_address(words) else None) or words)[: settings.SEARCH_TEXT.value],
        view=view_text if view_text in VIEWS else DEFAULT,
        task=task_text if TASK_NAME.match(task_text) else "",
        neuronx_cc=str(neuronx_cc or "").strip()[: settings.SEARCH_TEXT.value],
        library_version=str(library_version or "").strip()[: settings.SEARCH_TEXT.value],
        size=sizes.normalise(size),
        architecture=str(architecture or "").strip()[: settings.SEARCH_TEXT.value],
    )


def query_words(text: str) -> tuple[str, ...]:
    """The words of a search, punctuation removed: `qwen3 0.6b` → (`qwen3`, `06b`)."""
    return tuple(w for w in (search_key(part) for part in re.split(r"\s+", text)) if w)


def matches(key: str, words: tuple[str, ...]) -> bool:
    return all(w in key for w in words)


def select(snapshot: Snapshot, rankings: Rankings, query: Query, records: Records | None = None) -> ViewResult:
    """The rows of one view, filtered by search text and task, in display order (the view's `rows`): on the stack
    the query names, else on each library's newest stack (Selected: their rows, a model once; Trending and
    Downloads: each ranked model on its own stack).
    A model's task and architecture come from its Hub record (`records`), else from the rankings.
    Raises UnknownStack when the query names a stack that is not in the data."""
    records = records if records is not None else NO_RECORDS
    return snapshot.memo(
        ("select", rankings.serial, records.serial, query), lambda: _select(snapshot, rankings, records, query)
    )


def task_choices(snapshot: Snapshot, rankings: Rankings, records: Records | None = None) -> list[str]:
    """The tasks to offer: the ranked ones first, then every task a tested model's record names."""
    records = records if records is not None else NO_RECORDS

    def compute():
        tasks, *_ = _model_columns(snapshot, rankings, records)
        ranked = [t for t in TASKS if any(rankings.ranked(t, v.ranking) for v in REGISTRY if v.ranking)]
        return tuple(ranked + sorted({t for t in tasks if t} - set(ranked)))

    # once per snapshot, rankings and records: a link's answer asks several times, each a pass over every model
    choices = snapshot.memo(("task-choices", rankings.serial, records.serial), compute)
    return list(choices)


def _select(snapshot: Snapshot, rankings: Rankings, records: Records, query: Query) -> ViewResult:
    named = names_stack(query.neuronx_cc, query.library_version)
    stack = snapshot.resolve_stack(query.neuronx_cc, query.library_version) if named else None
    # naming no stack, a search covers every library: each one's newest stack (a FLUX model is found from `/`)
    stacks = (stack,) if stack is not None else () if named else snapshot.newest_of_each_library
    asked = Asked(snapshot, rankings, records, stack, stacks, query_words(query.text), query.task, query.text)
    frame = of(query.view).rows(asked)
    keep, unknown = sizes.in_range(sizes.parameter_counts(frame["num_parameters"]), query.size)
    if query.size:
        frame = frame[keep].reset_index(drop=True)
    if query.architecture:  # compared as the Hub record writes it: a model of unknown architecture is left out
        frame = frame[(frame["architecture"] == query.architecture).to_numpy(dtype=bool)].reset_index(drop=True)
    frame = table_columns.derive(frame)  # the fields the table's columns make (`table_columns.Column.derive`)
    return ViewResult(stack, frame, query, int(unknown.sum()) if query.size else 0, stacks)


def _union_positions(snapshot: Snapshot, stacks: tuple[Stack, ...]) -> np.ndarray:
    """The rows of `stacks`, a model run with two of their libraries once: on its own stack
    (`Snapshot.model_stack`, where its lookup answers), else on the first of `stacks` that has it."""
    if len(stacks) == 1:
        return snapshot.stack_positions(stacks[0])
    positions = np.concatenate([snapshot.stack_positions(s) for s in stacks] or [np.empty(0, dtype=np.int64)])
    codes = snapshot.model_code[positions]
    _, first, counts = np.unique(codes, return_index=True, return_counts=True)
    keep = first.copy()
    for at in np.flatnonzero(counts > 1).tolist():  # rare: a model run with two of the libraries
        model = snapshot.model_ids[codes[first[at]]]
        own = snapshot.model_stack(model)
        mine = snapshot.row_for(model, own) if own is not None else None
        if mine is not None and mine in positions:
            keep[at] = int(np.flatnonzero(positions == mine)[0])
    return positions[np.sort(keep)]


def _stack_frame(snapshot: Snapshot, stack: Stack | None, positions: np.ndarray) -> pd.DataFrame:
    """The rows at `positions` (of `stack`, or of several stacks: `stack` is then any of them) with the columns a
    view shows; no stack (no data): none."""
    if stack is None:
        return pd.DataFrame(columns=list(ROW_FIELDS))
    frame = snapshot.rows.iloc[positions][[c for c in ROW_FIELDS if c in snapshot.rows.columns]]
    frame = frame.assign(kind=snapshot.kind[positions])
    return frame


def _model_columns(snapshot: Snapshot, rankings: Rankings, records: Records) -> tuple[np.ndarray, ...]:
    """Per model of the snapshot: its task (None if unknown), architecture (None if unknown), Hub
    downloads (-1 if unknown) and parameter count (None if unknown). The record says first; a ranked
    model's task is the ranking's."""

    def compute():
        found = [records.get(m) for m in snapshot.model_ids]
        tasks = np.array(
            [(r.task if r and r.task else None) or rankings.task_of(m) for m, r in zip(snapshot.model_ids, found)],
            dtype=object,
        )
        architectures = np.array([r.architecture if r else None for r in found], dtype=object)
        downloads = np.array(
            [rankings.downloads_of(m) or (r.downloads if r else None) or -1 for m, r in zip(snapshot.model_ids, found)],
            dtype=np.int64,
        )
        parameters = np.array([r.num_parameters if r else None for r in found], dtype=object)
        return tasks, architectures, downloads, parameters

    return snapshot.memo(("model-columns", rankings.serial, records.serial), compute)


@dataclass(frozen=True)
class Asked:
    """What a view's rows are chosen from: the sources, the stack named (None: none) and the stacks the rows are on
    (that one, else each library's newest), the search's words and text, and the task ("" for all)."""

    snapshot: Snapshot
    rankings: Rankings
    records: Records
    stack: Stack | None
    stacks: tuple[Stack, ...]
    words: tuple[str, ...]
    task: str
    text: str


def _tested(
    asked: Asked, order: Callable[[Asked, np.ndarray, np.ndarray], np.ndarray], columns: tuple[str, ...] = ()
) -> pd.DataFrame:
    """The tested models on the stacks asked (a model once), filtered by the search's words and the task, in
    `order(asked, positions, codes)`'s order (the rows' positions, their models' codes → a permutation), with the
    dataset's `columns` beside the row fields."""
    snapshot, rankings, records, stacks = asked.snapshot, asked.rankings, asked.records, asked.stacks
    words, task = asked.words, asked.task
    # Filter and order positions with arrays over models; build the frame only for what is shown.
    positions = _union_positions(snapshot, stacks) if stacks else np.empty(0, dtype=np.int64)
    codes = snapshot.model_code[positions]
    if words:
        keep = snapshot.matching_models(words)[codes]
        positions, codes = positions[keep], codes[keep]
    model_task, model_architecture, model_downloads, model_parameters = _model_columns(snapshot, rankings, records)
    tasks = model_task[codes]
    if task:
        # a model whose task is unknown is listed under "All tasks" only
        keep = tasks == task
        positions, codes, tasks = positions[keep], codes[keep], tasks[keep]
    at = order(asked, positions, codes)
    positions, codes, tasks = positions[at], codes[at], tasks[at]
    popularity = model_downloads[codes]
    frame = _stack_frame(snapshot, stacks[0] if stacks else None, positions).assign(
        task=tasks, architecture=model_architecture[codes], downloads=popularity
    )
    frame["num_parameters"] = pd.array(list(model_parameters[codes]), dtype="Int64")
    frame["downloads"] = pd.array([int(p) if p >= 0 else None for p in popularity], dtype="Int64")
    for column in columns:
        rows = snapshot.rows
        frame[column] = rows[column].array[positions] if column in rows.columns and stacks else pd.NaT
    return frame.reset_index(drop=True)


def _best_match_then_downloads(asked: Asked, positions: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Names whose words start as typed first (`qwen3` → Qwen3-8B before Qwen-32B), then the most downloaded,
    then by name (codes follow names)."""
    snapshot = asked.snapshot
    popularity = _model_columns(snapshot, asked.rankings, asked.records)[2][codes]
    aligned = (
        snapshot.aligned_words(tuple(asked.text.split()))[codes] if asked.words else np.zeros(len(codes), np.int64)
    )
    return np.lexsort((codes, -popularity, -aligned))


def _newest_first(asked: Asked, positions: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The newest run first (the dataset's `tested_at`), then by name; runs without a time (older files do not
    record it) last."""
    times = _run_times(asked.snapshot)[positions]
    return np.lexsort((codes, -times, np.isnan(times)))


def _run_times(snapshot: Snapshot) -> np.ndarray:
    """Each row's `tested_at` in seconds since 1970 (NaN where a file does not record it), once per snapshot."""

    def compute():
        if "tested_at" not in snapshot.rows.columns:
            return np.full(len(snapshot.rows), np.nan)
        tested = pd.to_datetime(snapshot.rows["tested_at"], utc=True, errors="coerce")
        return np.where(tested.isna().to_numpy(), np.nan, tested.array.asi8 / 1e9)

    return snapshot.memo(("run-times",), compute)


def _selected(asked: Asked) -> pd.DataFrame:
    """The tested models, the best match of a search first, else the most downloaded."""
    return _tested(asked, _best_match_then_downloads)


def _recent(asked: Asked) -> pd.DataFrame:
    """The tested models, the newest run first, each row with its `tested_at`."""
    return _tested(asked, _newest_first, RECENT_FIELDS)


def _recent_note(result: ViewResult) -> str:
    """Under the summary of Recently tested: its order, and how many runs have no time (older files)."""
    undated = int(result.frame["tested_at"].isna().sum()) if len(result.frame) else 0
    later = (
        f"; {undated:,} {noun(undated, 'run')} from older files, which do not record when a run was made, come last"
        if undated
        else ""
    )
    return f"Recently tested lists the newest runs first, by when each was run (the dataset's tested_at){later}."


def view_tasks(snapshot: Snapshot, rankings: Rankings, records: Records | None, view: str) -> list[str]:
    """The tasks `view` offers (its `tasks`), "" (all tasks) first where it offers it."""
    return of(view).tasks(of(view), snapshot, rankings, records if records is not None else NO_RECORDS)


def _any_task(view: View, snapshot: Snapshot, rankings: Rankings, records: Records) -> list[str]:
    """Every task a tested model has, after "" (all tasks)."""
    return ["", *task_choices(snapshot, rankings, records)]


def _ranked_tasks(view: View, snapshot: Snapshot, rankings: Rankings, records: Records) -> list[str]:
    """The tasks the view's ranking ranks: the Hub ranks one task at a time, so no "all tasks"."""
    return [t for t in TASKS if rankings.ranked(t, view.ranking)] or list(TASKS[:1])


def ranked_task(rankings: Rankings, ranking: str, task: str = "") -> str:
    """The task a ranking shows: the Hub ranks one task at a time, so "" means the first task it
    ranks (text-generation)."""
    return task or next((t for t in TASKS if rankings.ranked(t, ranking)), TASKS[0])


def _ranking(name: str) -> Callable[[Asked], pd.DataFrame]:
    """The rows of the Hub's ranking `name`, in rank order (`_ranked`)."""
    return lambda asked: _ranked(asked, name)


def _ranked(asked: Asked, ranking: str) -> pd.DataFrame:
    """A ranking's models on the stack named; with none named (data loaded), each on its own stack
    (`Snapshot.model_stack`), as its lookup answers."""
    snapshot, rankings, records, stack, words = asked.snapshot, asked.rankings, asked.records, asked.stack, asked.words
    entries = list(rankings.ranked(ranked_task(rankings, ranking, asked.task), ranking))
    if words:
        entries = [e for e in entries if matches(search_key(e.model_id), words)]
    ids = [snapshot.canonical_model_id(e.model_id) or e.model_id for e in entries]
    on = [stack if stack is not None else snapshot.model_stack(m) for m in ids]
    found = [snapshot.row_for(m, s) if s else None for m, s in zip(ids, on)]
    tested_positions = np.array([p for p in found if p is not None], dtype=np.int64)
    tested = _stack_frame(snapshot, stack or snapshot.newest, tested_positions).drop(columns=["task"], errors="ignore")
    by_position = dict(zip(tested_positions.tolist(), range(len(tested))))
    rows = []
    for e, position, own in zip(entries, found, on):
        if position is not None:
            row = tested.iloc[by_position[position]].to_dict()
        else:
            row = {
                "model_id": e.model_id,
                "result": NOT_TESTED_RESULT,
                "kind": NOT_TESTED,
                "neuronx_cc": own.neuronx_cc if own else None,
                "library": own.library if own else None,
                "library_version": own.library_version if own else None,
            }
        record = records.get(e.model_id)
        row.update(architecture=record.architecture if record else None)
        row.update(num_parameters=record.num_parameters if record else None)
        row.update(task=e.task, rank=e.rank, downloads=e.downloads, likes=e.likes, trending_score=e.trending_score)
        rows.append(row)
    columns = list(ROW_FIELDS + RANK_FIELDS)
    frame = pd.DataFrame(rows, columns=columns)
    return _whole_numbers(frame.replace({np.nan: None}) if len(frame) else frame)


# Counts stay integers in every view: a column with a missing value would otherwise turn 536 into 536.0.
WHOLE_NUMBERS = ("tp", "wall_s", "rank", "downloads", "likes", "num_parameters")


def _whole_numbers(frame: pd.DataFrame) -> pd.DataFrame:
    for column in WHOLE_NUMBERS:
        if column in frame.columns:
            frame[column] = pd.array([None if v is None or pd.isna(v) else int(v) for v in frame[column]], "Int64")
    return frame


def _ranked_note(result: ViewResult) -> str:
    """Under the summary of a ranked view: the task shown, and why only one."""
    return (
        f"{of(result.query.view).label} shows {result.query.task} models: the Hub ranks one task at a time, "
        "so pick another under Task."
    )


@dataclass(frozen=True)
class View:
    """One view of the Models table, declared once: what the picker, the links, the table, the summary, the
    snippets, `/search`'s description and the export files say of it and do with it."""

    id: str  # as links (`view=`), /search, /api/v1 and the export files write it
    label: str  # the picker's word, and the summary's and the title's
    lists: str  # what it lists, in which order: `/search`'s `view` description
    rows: Callable[[Asked], pd.DataFrame]  # its rows, filtered by search words and task, in its own order
    tasks: Callable[[View, Snapshot, Rankings, Records], list[str]]  # the tasks it takes ("" first: all tasks)
    task_rule: str  # what its tasks are, and what "" means: `/search`'s `task` description
    unnamed: str  # where its rows are when no stack is named, as a snippet's comment says it
    unnamed_about: str  # the same for `/search`'s description, with what each row says
    order: str  # the column (`ordering.COLUMNS` key) its own order follows, high to low; "" for none
    figure: str = "downloads"  # the column it ranks by, the table's last (`ordering.COLUMNS` key)
    search_reorders: bool = False  # a search puts the names that match best first: no column is then followed
    ranking: str = ""  # the Hub ranking it shows (its rows carry the rank fields and show the rank); "" for none
    note: Callable[[ViewResult], str] | None = None  # a line under the summary, in words
    needs: str = ""  # what its rows depend on that the dataset lacks: a snippet then lists the ids shown
    dataset_order: str = ""  # the dataset column its own order follows, newest first: a snippet sorts by it


REGISTRY: tuple[View, ...] = (
    View(
        SELECTED, "Selected", "the tested models, the most downloaded first (a search: the names that match best first)",
        _selected, _any_task,
        '"" means all tasks and a model whose task is unknown is listed under all tasks only',
        "on each library's newest stack",
        "each library's newest stack (every row says its library and stack; a model run with two libraries is "
        "listed once, on its own stack)",
        order="downloads", search_reorders=True,
    ),
    View(
        TRENDING, "Trending", "the Hub's trending ranking, in rank order, tested or not", _ranking(TRENDING),
        _ranked_tasks, 'the Hub ranks one task at a time, and "" means text-generation',
        "each model on its own stack", "each ranked model on its own stack, as /lookup answers it",
        order="trending", figure="trending", ranking=TRENDING, note=_ranked_note,
        needs="the Hub's Trending ranking (not in the dataset; untested ranked models have no row)",
    ),
    View(
        DOWNLOADS, "Downloads", "the Hub's downloads ranking, in rank order, tested or not", _ranking(DOWNLOADS),
        _ranked_tasks, 'the Hub ranks one task at a time, and "" means text-generation',
        "each model on its own stack", "each ranked model on its own stack, as /lookup answers it",
        order="downloads", ranking=DOWNLOADS, note=_ranked_note,
        needs="the Hub's Downloads ranking (not in the dataset; untested ranked models have no row)",
    ),
    View(
        RECENT, "Recently tested", "the tested models, the newest run first (runs whose file does not record a time "
        "last)", _recent, _any_task,
        '"" means all tasks and a model whose task is unknown is listed under all tasks only',
        "on each library's newest stack",
        "each library's newest stack (every row says its library and stack; a model run with two libraries is "
        "listed once, on its own stack)",
        order="tested", figure="tested", note=_recent_note, dataset_order="tested_at",
    ),
)  # fmt: skip
_BY_ID = {v.id: v for v in REGISTRY}
VIEWS: tuple[str, ...] = tuple(_BY_ID)  # the ids, in the picker's order (the default first)


def of(view_id: str) -> View:
    """The view `view_id` names; any other text (never from a checked query): the default view."""
    return _BY_ID.get(view_id, _BY_ID[DEFAULT])


def choices() -> list[tuple[str, str]]:
    """(label, id) of every view, in the picker's order."""
    return [(v.label, v.id) for v in REGISTRY]


def grouped(words: Callable[[View], str]) -> list[tuple[str, str]]:
    """(ids, text) for each distinct `words(view)`, in the registry's order, ids quoted and joined
    (`"trending" and "downloads"`): how a description says once what several views share."""
    texts: dict[str, list[str]] = {}
    for v in REGISTRY:
        texts.setdefault(words(v), []).append(f'"{v.id}"')
    return [(" and ".join(ids) if len(ids) < 3 else ", ".join(ids[:-1]) + " and " + ids[-1], text)
            for text, ids in texts.items()]  # fmt: skip
