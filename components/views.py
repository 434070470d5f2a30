"""The three views and the search box: which models a person sees, in which order.

`select()` is the one function behind the table, the `/search` endpoint and the exports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from components.formatting import plain
from components.rankings import TASKS, Rankings
from components.results import NOT_TESTED, NOT_TESTED_RESULT
from components.snapshot import Snapshot, Stack, search_key

SELECTED, TRENDING, DOWNLOADS = "selected", "trending", "downloads"
VIEWS: tuple[str, ...] = (SELECTED, TRENDING, DOWNLOADS)
VIEW_LABELS = {SELECTED: "Selected", TRENDING: "Trending", DOWNLOADS: "Downloads"}

ROW_FIELDS = (
    "model_id", "result", "kind", "tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb", "exclusion",
    "neuronx_cc", "library", "library_version", "task",
)  # fmt: skip
RANK_FIELDS = ("rank", "downloads", "likes", "trending_score")
MAX_QUERY = 200


@dataclass(frozen=True)
class Query:
    """A normalised request: unknown values already replaced by defaults."""

    text: str = ""
    view: str = SELECTED
    task: str = ""
    neuronx_cc: str = ""
    library_version: str = ""


@dataclass(frozen=True)
class ViewResult:
    stack: Stack | None
    frame: pd.DataFrame  # one row per model shown, in display order
    query: Query

    @property
    def total(self) -> int:
        return len(self.frame)

    @property
    def passed(self) -> int:
        return int((self.frame["kind"] == "pass").sum()) if len(self.frame) else 0

    def records(self, limit: int | None = None) -> list[dict]:
        """Rows as plain JSON dicts (NaN → None)."""
        frame = self.frame if limit is None else self.frame.head(limit)
        fields = [c for c in ROW_FIELDS + RANK_FIELDS if c in frame.columns]
        return [{k: plain(v) for k, v in zip(fields, row)} for row in frame[fields].itertuples(index=False)]


def normalise(
    text: object = "", view: object = SELECTED, task: object = "", neuronx_cc: object = "", library_version: object = ""
) -> Query:
    """Turn whatever arrived (a form, an API call, a URL) into a valid Query."""
    view_text = str(view or "").strip().lower()
    task_text = str(task or "").strip().lower()
    return Query(
        text=" ".join(str(text or "").split())[:MAX_QUERY],
        view=view_text if view_text in VIEWS else SELECTED,
        task=task_text if task_text in TASKS else "",
        neuronx_cc=str(neuronx_cc or "").strip()[:MAX_QUERY],
        library_version=str(library_version or "").strip()[:MAX_QUERY],
    )


def query_words(text: str) -> tuple[str, ...]:
    """The words of a search, punctuation removed: `qwen3 0.6b` → (`qwen3`, `06b`)."""
    return tuple(w for w in (search_key(part) for part in re.split(r"\s+", text)) if w)


def matches(key: str, words: tuple[str, ...]) -> bool:
    return all(w in key for w in words)


def select(snapshot: Snapshot, rankings: Rankings, query: Query) -> ViewResult:
    """The rows of one view on one stack, filtered by search text and task, in display order."""
    # the rankings object is kept in the answer so its id cannot be reused while cached
    _, result = snapshot.memo(("select", id(rankings), query), lambda: (rankings, _select(snapshot, rankings, query)))
    return result


def _select(snapshot: Snapshot, rankings: Rankings, query: Query) -> ViewResult:
    stack = snapshot.resolve_stack(query.neuronx_cc, query.library_version)
    words = query_words(query.text)
    if query.view == SELECTED:
        frame = _selected(snapshot, rankings, stack, words, query.task)
    else:
        frame = _ranked(snapshot, rankings, stack, words, query.task, query.view)
    return ViewResult(stack, frame, query)


def _stack_frame(snapshot: Snapshot, stack: Stack | None) -> pd.DataFrame:
    if stack is None:
        return pd.DataFrame(columns=list(ROW_FIELDS))
    positions = snapshot.stack_positions(stack)
    frame = snapshot.rows.iloc[positions][[c for c in ROW_FIELDS if c in snapshot.rows.columns]]
    frame = frame.assign(kind=snapshot.kind[positions])
    return frame


def _selected(snapshot, rankings, stack, words, task) -> pd.DataFrame:
    frame = _stack_frame(snapshot, stack)
    if words:
        keys = snapshot.model_keys
        frame = frame[[matches(keys[m], words) for m in frame["model_id"]]]
    tasks = [rankings.task_of(m) for m in frame["model_id"]]
    frame = frame.assign(task=tasks)
    if task:
        frame = frame[[t in (task, None) for t in tasks]]
    popularity = [rankings.downloads_of(m) or -1 for m in frame["model_id"]]
    frame = frame.assign(downloads=popularity)
    frame = frame.sort_values(["downloads", "model_id"], ascending=[False, True], kind="stable")
    frame["downloads"] = frame["downloads"].where(frame["downloads"] >= 0, None)
    return frame.reset_index(drop=True)


def _ranked(snapshot, rankings, stack, words, task, view) -> pd.DataFrame:
    tasks = (task,) if task else TASKS
    entries = [e for t in tasks for e in rankings.ranked(t, view)]
    if words:
        entries = [e for e in entries if matches(search_key(e.model_id), words)]
    entries.sort(key=lambda e: (e.rank, TASKS.index(e.task) if e.task in TASKS else len(TASKS)))
    tested = _stack_frame(snapshot, stack).drop(columns=["task"], errors="ignore")
    by_id = dict(zip(tested["model_id"], range(len(tested))))
    rows = []
    for e in entries:
        canonical = snapshot.canonical_model_id(e.model_id) or e.model_id
        position = by_id.get(canonical)
        if position is not None:
            row = tested.iloc[position].to_dict()
        else:
            row = {
                "model_id": e.model_id,
                "result": NOT_TESTED_RESULT,
                "kind": NOT_TESTED,
                "neuronx_cc": stack.neuronx_cc if stack else None,
                "library": stack.library if stack else None,
                "library_version": stack.library_version if stack else None,
            }
        row.update(task=e.task, rank=e.rank, downloads=e.downloads, likes=e.likes, trending_score=e.trending_score)
        rows.append(row)
    columns = list(ROW_FIELDS + RANK_FIELDS)
    frame = pd.DataFrame(rows, columns=columns)
    return frame.replace({np.nan: None}) if len(frame) else frame
