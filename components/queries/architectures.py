"""Architectures on one stack: how many models of each were tested and passed, and the headline figure.

A model's architecture is the model class its Hub record names (`config.architectures[0]`, or a
diffusers pipeline's class); models without a record are left out and counted as unknown.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from typing_extensions import TypedDict

from components.domain.results import EXCLUDED, PASS, as_kind
from components.queries.answers import ArchitectureAnswer, ArchitectureModel
from components.queries.formatting import core_count, plain
from components.sources.rankings import Rankings
from components.sources.records import Records
from components.sources.snapshot import Snapshot, Stack

HEADLINE_TASK, HEADLINE_RANKING, HEADLINE_TOP = "text-generation", "trending", 100
HEADLINE_DEFINITION = (
    "Of the architectures of the Hub's top 100 trending text-generation models, the share with at least "
    "one model that passes on this stack (any tested model of that architecture counts, not only the "
    "ranked ones). Ranked models whose architecture is unknown are left out."
)


class StackModel(ArchitectureModel):
    """A model's row on a stack as the architecture views read it: the answer's fields, and what they group
    and filter by."""

    architecture: str | None
    task: str | None


class HeadlineRow(TypedDict):
    """An architecture of the ranked models: how many of them have it, and whether one of it passes."""

    architecture: str
    ranked_models: int
    passing: bool


class Headline(TypedDict):
    """The headline figure of the Architectures page (see `headline`)."""

    share: float | None
    passing: int
    architectures: int
    ranked: int
    unknown: int
    definition: str
    rows: list[HeadlineRow]


def architecture_model(model: StackModel) -> ArchitectureModel:
    """What an answer says of a model of an architecture (`ArchitectureModel`, its fields in their order)."""
    return {
        "model_id": model["model_id"],
        "result": model["result"],
        "kind": model["kind"],
        "tp": model["tp"],
        "num_parameters": model["num_parameters"],
    }


def _stack_models(snapshot: Snapshot, records: Records, stack: Stack) -> list[StackModel]:
    """Each row of the stack as {model_id, architecture, task, result, kind, tp, num_parameters}."""
    positions = snapshot.stack_positions(stack)
    ids = snapshot.rows["model_id"].to_numpy()[positions]
    results = snapshot.rows["result"].to_numpy()[positions]
    tps = snapshot.rows["tp"].to_numpy()[positions]
    kinds = snapshot.kind[positions]
    models: list[StackModel] = []
    for model_id, result, tp, kind in zip(ids, results, tps, kinds):
        record = records.get(model_id)
        models.append(
            {
                "model_id": model_id,
                "architecture": record.architecture if record else None,
                "task": record.task if record else None,
                "result": plain(result),
                "kind": as_kind(kind),
                "tp": core_count(tp),
                "num_parameters": record.num_parameters if record else None,
            }
        )
    return models


def by_architecture(snapshot: Snapshot, records: Records, stack: Stack | None) -> Mapping[str, list[StackModel]]:
    """The stack's models grouped by architecture (models with an unknown architecture left out)."""
    if stack is None:
        return {}

    def compute() -> dict[str, list[StackModel]]:
        groups: dict[str, list[StackModel]] = {}
        for model in _stack_models(snapshot, records, stack):
            architecture = model["architecture"]
            if architecture:
                groups.setdefault(architecture, []).append(model)
        return groups

    return snapshot.memo(("architectures", records.serial, stack.ref), compute)


def counts(models: list[StackModel]) -> tuple[int, int]:
    """(tested, passed): an excluded model was deliberately not tested."""
    return sum(m["kind"] != EXCLUDED for m in models), sum(m["kind"] == PASS for m in models)


def architectures(
    snapshot: Snapshot, records: Records, stack: Stack | None, task: str = ""
) -> list[ArchitectureAnswer]:
    """Each architecture on `stack` as {architecture, tested, passed, models}, most tested first;
    `task` keeps only models of that task. `models` lists {model_id, result, tp, num_parameters}."""
    answer: list[ArchitectureAnswer] = []
    for name, models in by_architecture(snapshot, records, stack).items():
        if task:
            models = [m for m in models if m["task"] == task]
        if not models:
            continue
        tested, passed = counts(models)
        answer.append(
            {
                "architecture": name,
                "tested": tested,
                "passed": passed,
                "models": [
                    architecture_model(m)
                    for m in sorted(models, key=lambda m: (m["num_parameters"] or 0, m["model_id"]))
                ],
            }
        )
    answer.sort(key=lambda a: (-a["tested"], -a["passed"], a["architecture"]))
    return answer


def headline(snapshot: Snapshot, rankings: Rankings, records: Records, stack: Stack | None) -> Headline:
    """The share of the top trending text-generation models' architectures with a passing model on `stack`.

    Returns {share (0..1, None when no architecture is known), passing, architectures, ranked, unknown,
    definition, rows}: rows lists each architecture with `passing` and how many ranked models have it."""
    ranked = rankings.ranked(HEADLINE_TASK, HEADLINE_RANKING)[:HEADLINE_TOP]
    groups = by_architecture(snapshot, records, stack)
    passing = {name for name, models in groups.items() if any(m["kind"] == PASS for m in models)}
    per_architecture: dict[str, int] = {}
    unknown = 0
    for entry in ranked:
        name = records.architecture_of(entry.model_id)
        if name:
            per_architecture[name] = per_architecture.get(name, 0) + 1
        else:
            unknown += 1
    rows = sorted(
        (HeadlineRow(architecture=n, ranked_models=c, passing=n in passing) for n, c in per_architecture.items()),
        key=lambda r: (-r["ranked_models"], r["architecture"]),
    )
    hits = sum(r["passing"] for r in rows)
    return {
        "share": hits / len(rows) if rows else None,
        "passing": hits,
        "architectures": len(rows),
        "ranked": len(ranked),
        "unknown": unknown,
        "definition": HEADLINE_DEFINITION,
        "rows": rows,
    }


def closest_by_size(models: list[StackModel], num_parameters: int | None, limit: int = 3) -> list[StackModel]:
    """The `limit` models nearest in parameter count (by ratio); all models when the count is unknown."""
    if not num_parameters:
        return models[:limit]
    sized = [m for m in models if m["num_parameters"]]
    sized.sort(key=lambda m: (abs(np.log((m["num_parameters"] or 0) / num_parameters)), m["model_id"]))
    return sized[:limit]
