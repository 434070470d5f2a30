"""The three views and the search box: which models a person sees, in which order.

`select()` is the one function behind the table, the `/search` endpoint and the exports.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import pandas as pd

from components.domain.results import NOT_TESTED, NOT_TESTED_RESULT, PASS
from components.domain.stacks import names_stack
from components.queries import sizes
from components.queries.answers import ModelOnStack, RankFields, RowAnswer, keys
from components.queries.formatting import plain
from components.runtime import settings
from components.sources.rankings import TASKS, Rankings
from components.sources.records import Records, empty_records, hub_address, hub_id
from components.sources.snapshot import Snapshot, Stack, search_key

SELECTED, TRENDING, DOWNLOADS = "selected", "trending", "downloads"
VIEWS: tuple[str, ...] = (SELECTED, TRENDING, DOWNLOADS)
VIEW_LABELS = {SELECTED: "Selected", TRENDING: "Trending", DOWNLOADS: "Downloads"}
NO_RECORDS = empty_records()

# The fields of a row and of a ranking, in the order the answers declare them (`answers.RowAnswer`).
ROW_FIELDS = keys(ModelOnStack)
RANK_FIELDS = keys(RankFields)
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
    view: str = SELECTED
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
            fields = [c for c in ROW_FIELDS + RANK_FIELDS if c in self.frame.columns]
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
    view: object = SELECTED,
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
        view=view_text if view_text in VIEWS else SELECTED,
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
    """The rows of one view, filtered by search text and task, in display order: on the stack the query names,
    else on each library's newest stack (Selected: their rows, a model once; Trending and Downloads: each
    ranked model on its own stack).
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
        ranked = [t for t in TASKS if any(rankings.ranked(t, r) for r in (TRENDING, DOWNLOADS))]
        return tuple(ranked + sorted({t for t in tasks if t} - set(ranked)))

    # once per snapshot, rankings and records: a link's answer asks several times, each a pass over every model
    choices = snapshot.memo(("task-choices", rankings.serial, records.serial), compute)
    return list(choices)


def _select(snapshot: Snapshot, rankings: Rankings, records: Records, query: Query) -> ViewResult:
    named = names_stack(query.neuronx_cc, query.library_version)
    stack = snapshot.resolve_stack(query.neuronx_cc, query.library_version) if named else None
    # naming no stack, a search covers every library: each one's newest stack (a FLUX model is found from `/`)
    stacks = (stack,) if stack is not None else () if named else snapshot.newest_of_each_library
    words = query_words(query.text)
    if query.view == SELECTED:
        frame = _selected(snapshot, rankings, records, stacks, words, query.task, query.text)
    else:
        frame = _ranked(snapshot, rankings, records, stack if named else None, words, query.task, query.view)
    keep, unknown = sizes.in_range(sizes.parameter_counts(frame["num_parameters"]), query.size)
    if query.size:
        frame = frame[keep].reset_index(drop=True)
    if query.architecture:  # compared as the Hub record writes it: a model of unknown architecture is left out
        frame = frame[(frame["architecture"] == query.architecture).to_numpy(dtype=bool)].reset_index(drop=True)
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


def _selected(snapshot, rankings, records, stacks, words, task, text) -> pd.DataFrame:
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
    popularity = model_downloads[codes]
    # Names whose words start as typed first (`qwen3` → Qwen3-8B before Qwen-32B), then the most
    # downloaded, then by name (codes follow names).
    aligned = snapshot.aligned_words(tuple(text.split()))[codes] if words else np.zeros(len(codes), dtype=np.int64)
    order = np.lexsort((codes, -popularity, -aligned))
    positions, codes, tasks, popularity = positions[order], codes[order], tasks[order], popularity[order]
    frame = _stack_frame(snapshot, stacks[0] if stacks else None, positions).assign(
        task=tasks, architecture=model_architecture[codes], downloads=popularity
    )
    frame["num_parameters"] = pd.array(list(model_parameters[codes]), dtype="Int64")
    frame["downloads"] = pd.array([int(p) if p >= 0 else None for p in popularity], dtype="Int64")
    return frame.reset_index(drop=True)


def view_tasks(snapshot: Snapshot, rankings: Rankings, records: Records | None, view: str) -> list[str]:
    """The tasks `view` offers, "" (all tasks) first where it offers it. Selected offers every task a
    tested model has; the Hub ranks one task at a time, so the ranked views offer the ranked tasks and
    no "all tasks"."""
    if view == SELECTED:
        return ["", *task_choices(snapshot, rankings, records)]
    return [t for t in TASKS if rankings.ranked(t, view)] or list(TASKS[:1])


def ranked_task(rankings: Rankings, view: str, task: str = "") -> str:
    """The task a ranked view shows: the Hub ranks one task at a time, so "" means the first task it
    ranks (text-generation)."""
    return task or next((t for t in TASKS if rankings.ranked(t, view)), TASKS[0])


def _ranked(snapshot, rankings, records, stack, words, task, view) -> pd.DataFrame:
    """A ranking's models on `stack`; with none named (None, data loaded), each on its own stack
    (`Snapshot.model_stack`), as its lookup answers."""
    entries = list(rankings.ranked(ranked_task(rankings, view, task), view))
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
