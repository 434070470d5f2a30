"""Failures by cause: the causes that block models on a stack (each FAIL's error text reduced by
`causes.cause_of`), where each was first seen and where it is fixed, and one failed model's cause.

Causes are worked out per stack on first use and kept with the snapshot (`Snapshot.memo`), keyed by the
reduction's version (`causes.ALGORITHM`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from components.domain.results import FAIL, PASS
from components.queries.answers import CauseAnswer, FailureCause, FailuresAnswer, FixedIn, ModelCause
from components.queries.causes import ALGORITHM, Cause, cause_of
from components.queries.charts import library_stacks
from components.sources.snapshot import Snapshot, Stack


@dataclass(frozen=True)
class StackCauses:
    """Every FAIL of one stack in exactly one cause: `models[i]` are the models `causes[i]` blocks (in
    name order), `by_model` each failed model's cause index. `causes[i]` is read from its first model's error,
    so its `example` is that model's line; `examples` holds each failed model's own."""

    causes: tuple[Cause, ...]
    models: tuple[tuple[str, ...], ...]
    by_model: dict[str, int]
    examples: dict[str, str]

    def __sizeof__(self) -> int:
        return 200 * len(self.by_model) + 600 * len(self.causes)


def stack_causes(snapshot: Snapshot, stack: Stack) -> StackCauses:
    """The causes of a stack's FAILs, worked out once per distinct error text on first use and kept with the
    snapshot. One stack at a time: a failed model's panel pays for its own stack only, never for all."""
    return snapshot.memo(("failure-causes", ALGORITHM, stack.ref), lambda: _stack_causes(snapshot, stack))


def _stack_causes(snapshot: Snapshot, stack: Stack) -> StackCauses:
    positions = snapshot.stack_positions(stack)
    failed = positions[snapshot.kind[positions] == FAIL]
    if not len(failed):
        return StackCauses((), (), {}, {})
    text_codes, texts = _error_texts(snapshot, failed)
    known = _text_causes(snapshot)  # a text on several stacks is reduced once
    distinct = np.unique(text_codes)
    text_causes: list[Cause] = []
    for code in distinct.tolist():
        cause = known.get(code)
        if cause is None:
            text = texts[code] if code >= 0 else None
            cause = known[code] = cause_of(text if isinstance(text, str) else None)
        text_causes.append(cause)
    own: dict[str, Cause] = {}
    ids = snapshot.rows["model_id"].to_numpy(dtype=object)[failed]
    for model_id, text in zip(ids, np.searchsorted(distinct, text_codes).tolist()):
        own[str(model_id)] = text_causes[text]
    groups: dict[str, list[str]] = {}
    for model_id in sorted(own, key=lambda m: (m.casefold(), m)):
        groups.setdefault(own[model_id].signature, []).append(model_id)
    # in order of first appearance over the texts, as before: the page sorts by count, ties kept stable
    order = list(dict.fromkeys(c.signature for c in text_causes))
    models = tuple(tuple(groups[sig]) for sig in order)
    by_model = {m: i for i, group in enumerate(models) for m in group}
    causes = tuple(own[group[0]] for group in models)
    return StackCauses(causes, models, by_model, {m: c.example for m, c in own.items()})


def _error_texts(snapshot: Snapshot, rows: np.ndarray) -> tuple[np.ndarray, pd.Index]:
    """(a code per row, the texts the codes index): the snapshot-wide dictionary codes of the error column
    (-1: no text), so that codes agree across stacks."""
    column = snapshot.rows["error"]
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy()[rows].astype(np.int64), column.cat.categories
    codes, texts = pd.factorize(column.iloc[rows], use_na_sentinel=True)  # not from the loader: no shared codes
    return np.asarray(codes, dtype=np.int64), texts


def _text_causes(snapshot: Snapshot) -> dict[int, Cause]:
    """The snapshot's reductions so far, by error text code (a cache: any thread may add the same entry).
    It grows to one small entry per distinct error text, which the memo's byte bound weighed when empty."""
    column = snapshot.rows["error"]
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return {}
    return snapshot.memo(("failure-text-causes", ALGORITHM), dict)


def _first_seen(snapshot: Snapshot, library: str) -> dict[str, Stack]:
    """signature → the oldest stack of `library` where it blocks a model."""

    def compute() -> dict[str, Stack]:
        seen: dict[str, Stack] = {}
        for s in snapshot.stacks:  # newest first: the last stack written is the oldest
            if s.library == library:
                for cause in stack_causes(snapshot, s).causes:
                    seen[cause.signature] = s
        return seen

    return snapshot.memo(("failure-first-seen", ALGORITHM, library), compute)


def _passing(snapshot: Snapshot, stack: Stack) -> set[str]:
    positions = snapshot.stack_positions(stack)
    passed = positions[snapshot.kind[positions] == PASS]
    return {str(m) for m in snapshot.rows["model_id"].to_numpy(dtype=object)[passed]}


def failures(snapshot: Snapshot, stack: Stack | None) -> FailuresAnswer:
    """The causes that block models on `stack`: {stack, failed, causes}, causes ordered by how many models
    they block (then by code). Each cause is {signature, code, summary, docs, count, models, first_seen,
    fixed_in}: `first_seen` the oldest stack of the same library where it blocks a model, `fixed_in` the
    newer stacks of that library where some of its models pass ({neuronx_cc, library, library_version,
    models}, newest first). Memoised per snapshot: treat it as read-only."""
    if stack is None:
        return {"stack": None, "failed": 0, "causes": []}
    return snapshot.memo(("failures", ALGORITHM, stack.ref), lambda: _failures(snapshot, stack))


def _failures(snapshot: Snapshot, stack: Stack) -> FailuresAnswer:
    found = stack_causes(snapshot, stack)
    first_seen = _first_seen(snapshot, stack.library)
    same_library = [s for s in snapshot.stacks if s.library == stack.library]
    newer = same_library[: [s.ref for s in same_library].index(stack.ref)]
    passing = {s.ref: _passing(snapshot, s) for s in newer}
    answer: list[FailureCause] = []
    for cause, models in zip(found.causes, found.models):
        fixed: list[FixedIn] = [
            {**s.ref.as_dict(), "models": [m for m in models if m in passing[s.ref]]}
            for s in newer
            if passing[s.ref].intersection(models)
        ]
        seen = first_seen.get(cause.signature, stack)
        answer.append(
            {**cause.as_dict(), "count": len(models), "models": list(models), "first_seen": seen.ref.as_dict(),
             "fixed_in": fixed}
        )  # fmt: skip
    answer.sort(key=lambda c: (-c["count"], c["code"] is None, c["code"] or "", c["summary"]))
    return {"stack": stack.as_dict(), "failed": sum(c["count"] for c in answer), "causes": answer}


def cause_on_stack(snapshot: Snapshot, stack: Stack, model_id: str) -> ModelCause | None:
    """The cause of a model's FAIL on `stack` with `shared_with` (the other models it blocks there), or None
    when the model did not fail there."""
    found = stack_causes(snapshot, stack)
    index = found.by_model.get(model_id)
    if index is None:
        return None
    shared = [m for m in found.models[index] if m != model_id]
    return {**found.causes[index].as_dict(), "example": found.examples[model_id], "shared_with": shared}


def causes_of(snapshot: Snapshot, stack: Stack, model_ids: Iterable[str]) -> dict[str, CauseAnswer]:
    """model_id → {signature, code, summary, example, docs} for those of `model_ids` that FAIL on `stack`,
    `example` each model's own error line."""
    found = stack_causes(snapshot, stack)
    return {
        m: {**found.causes[found.by_model[m]].as_dict(), "example": found.examples[m]}
        for m in model_ids
        if m in found.by_model
    }


def across_stacks(snapshot: Snapshot, top: int) -> list[dict]:
    """Models blocked by the top causes on each stack, library by library (a cause is counted only on the
    stacks of a library it blocks models in: a Diffusers stack is no zero of a Transformers cause):
    [{library, stacks: [stack, ...] oldest first, causes: [{signature, code, summary, example, docs, counts:
    [int per stack]}]}]. The `top` (cause, library) pairs by models blocked over all stacks are kept, and
    each library's first cause whatever its rank, so that every library with a FAIL shows one."""

    def compute() -> list[dict]:
        ranked: list[tuple[int, str, str]] = []  # (-models blocked, library, signature)
        per_library: list[tuple[str, list[Stack], dict[str, Cause], dict[str, list[int]]]] = []
        for library, stacks in library_stacks(snapshot):
            causes: dict[str, Cause] = {}
            counts: dict[str, list[int]] = {}
            for j, s in enumerate(stacks):
                found = stack_causes(snapshot, s)
                for cause, models in zip(found.causes, found.models):
                    causes.setdefault(cause.signature, cause)
                    counts.setdefault(cause.signature, [0] * len(stacks))[j] = len(models)
            per_library.append((library, stacks, causes, counts))
            ranked += [(-sum(n), library, sig) for sig, n in counts.items()]
        ranked.sort()
        kept = {(library, sig) for _, library, sig in ranked[:top]}
        for library, _, _, counts in per_library:
            if counts and not any(lib == library for lib, _ in kept):
                kept.add((library, min(counts, key=lambda sig: (-sum(counts[sig]), sig))))
        return [
            {
                "library": library,
                "stacks": [s.ref.as_dict() for s in stacks],
                "causes": [
                    {**causes[sig].as_dict(), "counts": counts[sig]}
                    for sig in sorted(counts, key=lambda sig: (-sum(counts[sig]), sig))
                    if (library, sig) in kept
                ],
            }
            for library, stacks, causes, counts in per_library
        ]

    return snapshot.memo(("failures-across", ALGORITHM, top), compute)
