"""The support grid: every architecture of one library down, the library's stacks across (oldest first), one cell
per pair, and when each architecture started working or last regressed.

`grid()` is the one function behind `GET /api/v1/grid`, the named `/grid`, the Grid page, its downloads and
`/grid.atom`. A model counts once per stack, by its newest run there; its architecture comes from its Hub record
(as the Architectures page reads it). Computed once per snapshot, library, task and records.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, get_args

import numpy as np
import pandas as pd
import pyarrow as pa

from components.domain.results import EXCLUDED, FAIL, PASS
from components.domain.stacks import FIRST_LIBRARY, Stack, library_order, normalise_library
from components.queries.answers import GridAnswer, GridCell, GridRow, GridStack, GridStatus
from components.queries.arguments import quoted
from components.queries.errors import ArgumentRefused
from components.runtime import settings
from components.sources.records import Records
from components.sources.snapshot import Snapshot

# A model's run on a stack, as the grid reads it (NONE: no run there). A cell counts each model by this code.
RUNS = ("no run", PASS, FAIL, EXCLUDED, "other")
NONE, PASSED, FAILED, EXCLUDED_RUN, OTHER_RUN = range(len(RUNS))  # codes, not values: a run's place in RUNS
UNTESTED: Final = "untested"
PARTIAL: Final = "partial"
STATUSES: tuple[GridStatus, ...] = get_args(GridStatus)  # what a cell's status can be, in the legend's order


def libraries(snapshot: Snapshot) -> list[str]:
    """The libraries with a stack in the data, Transformers first (pip's spelling)."""
    return sorted({normalise_library(s.library) for s in snapshot.stacks}, key=library_order)


def library_asked(snapshot: Snapshot, value: object) -> str:
    """The library asked for ("" is Transformers), in pip's spelling; raises ArgumentRefused naming the libraries in the data
    for any other."""
    text = normalise_library(str(value or "")) or FIRST_LIBRARY
    known = libraries(snapshot)
    if text not in known:
        raise ArgumentRefused(f"parameter 'library' is {quoted(value)}; the data has the libraries {', '.join(known)}")
    return text


def stacks_of(snapshot: Snapshot, library: str) -> list[Stack]:
    """The stacks of `library`, oldest first: the app's own stack order reversed."""
    wanted = normalise_library(library) or FIRST_LIBRARY
    return [s for s in reversed(snapshot.stacks) if normalise_library(s.library) == wanted]


def grid(snapshot: Snapshot, records: Records, library: str = FIRST_LIBRARY, task: str = "") -> GridAnswer:
    """The grid of `library` (a library in the data, see `libraries`), counting only models of `task` ("" for all).
    Memoised per snapshot: treat the answer as read-only."""
    library = normalise_library(library) or FIRST_LIBRARY

    return snapshot.memo(("grid", library, task, records.serial), lambda: _grid(snapshot, records, library, task))


def _newest_runs(snapshot: Snapshot, stacks: Sequence[Stack]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(model codes, stack indexes, run codes): each model's newest run (by tested_at) on each of `stacks`."""
    positions = [snapshot.stack_positions(s) for s in stacks]
    at = np.concatenate(positions) if positions else np.empty(0, dtype=np.int64)
    stack_index = np.repeat(np.arange(len(stacks)), [len(p) for p in positions])
    models = snapshot.model_code[at]
    # The loader keeps one run per model and stack already; a snapshot made otherwise may hold re-runs.
    if len(at) and np.bincount(models * len(stacks) + stack_index).max() > 1:
        order = np.lexsort((_run_times(snapshot)[at], stack_index, models))
        models, stack_index, at = models[order], stack_index[order], at[order]
        last = np.ones(len(order), dtype=bool)  # the last of each (model, stack) in that order is its newest
        last[:-1] = (models[1:] != models[:-1]) | (stack_index[1:] != stack_index[:-1])
        models, stack_index, at = models[last], stack_index[last], at[last]
    kinds = snapshot.kind[at]
    runs = np.full(len(kinds), OTHER_RUN, dtype=np.int8)
    runs[kinds == PASS] = PASSED
    runs[kinds == FAIL] = FAILED
    runs[kinds == EXCLUDED] = EXCLUDED_RUN
    return models, stack_index, runs


def _run_times(snapshot: Snapshot) -> np.ndarray:
    """Each row's tested_at as int64 nanoseconds, an unknown time the oldest (read as numbers, not Timestamps)."""
    tested = pd.to_datetime(snapshot.rows["tested_at"], utc=True, errors="coerce")
    return np.where(tested.isna().to_numpy(), np.iinfo(np.int64).min, tested.array.asi8)


def _grid(snapshot: Snapshot, records: Records, library: str, task: str) -> GridAnswer:
    stacks = stacks_of(snapshot, library)
    codes, stack_index, runs = _newest_runs(snapshot, stacks)
    ran = np.zeros(len(snapshot.model_ids), dtype=bool)  # numbered by counting, not `np.unique`: ~20× faster here
    ran[codes] = True
    model_codes, local = np.flatnonzero(ran), (np.cumsum(ran) - 1)[codes]
    found = [records.get(snapshot.model_ids[c]) for c in model_codes]
    # with a task, a model without a record is of no known task: it is left out, not counted as unknown
    kept = np.array([not task or (r is not None and r.task == task) for r in found], dtype=bool)
    names = [r.architecture if r is not None else None for r in found]
    known = kept & np.array([bool(n) for n in names], dtype=bool)
    unknown_architecture = int((kept & ~known).sum())

    # One row of runs per model (NONE where it has none), then, stack by stack from the oldest, what its last
    # PASS-or-FAIL before that stack was, and where its unbroken run of FAILs began.
    matrix = np.zeros((len(model_codes), len(stacks)), dtype=np.int8)
    matrix[local, stack_index] = runs
    matrix = matrix[known]
    architectures = sorted({n for n, k in zip(names, known) if k and n})
    arch_index = {n: i for i, n in enumerate(architectures)}
    arch_of = np.array([arch_index[n] for n, k in zip(names, known) if k and n], dtype=np.int64)

    regressed = np.zeros(matrix.shape, dtype=bool)
    fail_run_from = np.full(matrix.shape, -1, dtype=np.int64)
    passed_before = np.zeros(matrix.shape, dtype=bool)
    last_decisive = np.full(len(matrix), NONE, dtype=np.int8)
    run_from = np.full(len(matrix), -1, dtype=np.int64)
    ever_passed = np.zeros(len(matrix), dtype=bool)
    for j in range(len(stacks)):
        run = matrix[:, j]
        fails = run == FAILED
        regressed[:, j] = fails & (last_decisive == PASSED)
        passed_before[:, j] = ever_passed
        run_from = np.where(fails & (last_decisive != FAILED), j, run_from)
        run_from = np.where(run == PASSED, -1, run_from)
        fail_run_from[:, j] = np.where(fails, run_from, -1)
        decisive = (run == PASSED) | fails
        last_decisive = np.where(decisive, run, last_decisive)
        ever_passed |= run == PASSED

    shape = (len(architectures), len(stacks))
    counts = {
        code: _per_architecture(arch_of, matrix == code, shape) for code in (PASSED, FAILED, EXCLUDED_RUN, OTHER_RUN)
    }
    regressions = _per_architecture(arch_of, regressed, shape)
    models = np.bincount(arch_of, minlength=len(architectures)) if len(arch_of) else np.zeros(0, dtype=np.int64)
    rows: list[GridRow] = []
    for a, name in enumerate(architectures):
        cells = [
            _cell(int(counts[PASSED][a, j]), int(counts[FAILED][a, j]), int(counts[EXCLUDED_RUN][a, j]),
                  int(counts[OTHER_RUN][a, j]), int(regressions[a, j]))
            for j in range(len(stacks))
        ]  # fmt: skip
        mine = arch_of == a
        since = _regressed_since(cells, matrix[mine], fail_run_from[mine], passed_before[mine])
        rows.append(
            {
                "architecture": name,
                "models": int(models[a]),
                "cells": cells,
                "works_since": _stack(stacks, _works_since(cells)),
                "regressed_since": _stack(stacks, since),
            }
        )
    rows.sort(key=lambda r: (-r["models"], r["architecture"]))
    return {
        "library": library,
        "task": task,
        "stacks": [_stack_answer(s) for s in stacks],
        "unknown_architecture_models": unknown_architecture,
        "rows": rows,
    }


def _per_architecture(arch_of: np.ndarray, mask: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """How many models of each architecture are set in `mask` (models × stacks), per stack."""
    out = np.zeros(shape, dtype=np.int64)
    if mask.size:
        np.add.at(out, arch_of, mask.astype(np.int64))
    return out


def _cell(passed: int, failed: int, excluded: int, other: int, regressed: int) -> GridCell:
    status: GridStatus = PARTIAL if passed and failed else PASS if passed else FAIL if failed else UNTESTED
    return {
        "status": status,
        "passed": passed,
        "failed": failed,
        "excluded": excluded,
        "other": other,
        "regressed": regressed,
    }


def newest_tested(cells: Sequence[GridCell]) -> int | None:
    """The index of the newest stack whose cell is not untested, or None."""
    return next((j for j in range(len(cells) - 1, -1, -1) if cells[j]["status"] != UNTESTED), None)


def _works_since(cells: Sequence[GridCell]) -> int | None:
    newest = newest_tested(cells)
    if newest is None or cells[newest]["status"] != PASS:
        return None
    since = newest
    for j in range(newest - 1, -1, -1):
        status = cells[j]["status"]
        if status == UNTESTED:
            continue
        if status != PASS:
            break
        since = j
    return since


def _regressed_since(
    cells: Sequence[GridCell], matrix: np.ndarray, fail_run_from: np.ndarray, passed_before: np.ndarray
) -> int | None:
    newest = newest_tested(cells)
    if newest is None:
        return None
    broke = (matrix[:, newest] == FAILED) & passed_before[:, newest]
    return int(fail_run_from[broke, newest].min()) if broke.any() else None


def _stack_answer(stack: Stack) -> GridStack:
    return {"neuronx_cc": stack.neuronx_cc, "library_version": stack.library_version}


def _stack(stacks: Sequence[Stack], index: int | None) -> GridStack | None:
    return None if index is None else _stack_answer(stacks[index])


# ---- the Grid page's state: what a link to it asks for ----------------------------------------------------

# the page's orders (`sort=`), the first the default
SORTS = {"models": "most models first", "name": "by name", "regressed": "regressed first"}
GRID_PARAMS = ("library", "task", "q", "sort")  # the parameters of a link to the Grid page
PATH = "grid"  # the page's path, and the `page=` of its downloads


@dataclass(frozen=True)
class GridView:
    """What the Grid page shows: a library, a task ("" for all), a search of architecture names, an order."""

    library: str = FIRST_LIBRARY
    task: str = ""
    text: str = ""
    sort: str = "models"

    def params(self) -> list[tuple[str, str]]:
        """The link's parameters, defaults left out."""
        pairs = [("library", "" if self.library == FIRST_LIBRARY else self.library), ("task", self.task),
                 ("q", self.text), ("sort", "" if self.sort == "models" else self.sort)]  # fmt: skip
        return [(k, v) for k, v in pairs if v]


def grid_view(params: Mapping[str, str], snapshot: Snapshot, tasks: Sequence[str]) -> GridView:
    """The view a link to the Grid page opens; a missing, unknown or huge value falls back to its default (a page
    never refuses: the endpoint does). `tasks`: the tasks on offer."""

    def get(name: str) -> str:
        value = params.get(name)
        return " ".join(value.split())[: settings.SEARCH_TEXT.value] if isinstance(value, str) else ""

    library = normalise_library(get("library"))
    task = get("task").lower()
    sort = get("sort").lower()
    return GridView(
        library if library in libraries(snapshot) else FIRST_LIBRARY,
        task if task in tasks else "",
        get("q"),
        sort if sort in SORTS else "models",
    )


def shown_rows(answer: GridAnswer, text: str = "", sort: str = "models") -> list[GridRow]:
    """The rows the page shows: those whose name holds every word of `text` (case ignored), in `sort` order
    (`SORTS`: most models first; by name; regressed first, then most models)."""
    words = text.casefold().split()
    rows = [r for r in answer["rows"] if all(w in r["architecture"].casefold() for w in words)]
    if sort == "name":
        return sorted(rows, key=lambda r: r["architecture"].casefold())
    if sort == "regressed":
        return sorted(rows, key=lambda r: (r["regressed_since"] is None, -r["models"], r["architecture"]))
    return rows


# ---- the grid as a file: one row per architecture and stack ------------------------------------------------

EXPORT_SCHEMA = pa.schema(
    [("architecture", pa.string()), ("models", pa.int64()), ("neuronx_cc", pa.string()), ("library", pa.string()),
     ("library_version", pa.string()), ("status", pa.string()), ("passed", pa.int64()), ("failed", pa.int64()),
     ("excluded", pa.int64()), ("other", pa.int64()), ("regressed", pa.int64()),
     ("works_since_neuronx_cc", pa.string()), ("works_since_library_version", pa.string()),
     ("regressed_since_neuronx_cc", pa.string()), ("regressed_since_library_version", pa.string())]
)  # fmt: skip


def export_table(answer: GridAnswer) -> pa.Table:
    """The grid as a typed table: one row per architecture and stack (stacks oldest first), each with its cell and
    its architecture's `models` and two "since" stacks (null when none)."""
    rows = []
    for row in answer["rows"]:
        works, broke = row["works_since"], row["regressed_since"]
        for stack, cell in zip(answer["stacks"], row["cells"]):
            rows.append({
                "architecture": row["architecture"], "models": row["models"], "neuronx_cc": stack["neuronx_cc"],
                "library": answer["library"], "library_version": stack["library_version"], **cell,
                "works_since_neuronx_cc": works["neuronx_cc"] if works else None,
                "works_since_library_version": works["library_version"] if works else None,
                "regressed_since_neuronx_cc": broke["neuronx_cc"] if broke else None,
                "regressed_since_library_version": broke["library_version"] if broke else None,
            })  # fmt: skip
    return pa.Table.from_pylist(rows, schema=EXPORT_SCHEMA)


def file_name(answer: GridAnswer, fmt: str) -> str:
    """`torch-neuronx-support_grid_transformers.csv` (`_text-generation` with a task): safe as a file name."""
    task = f"_{answer['task']}" if answer["task"] else ""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", f"torch-neuronx-support_grid_{answer['library']}{task}") + f".{fmt}"
