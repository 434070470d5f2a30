"""The figures' data: pass rate across stacks, the runs of one stack, results by organisation. Pure pandas
over a snapshot, computed once per snapshot and memoised; `web/figures` only draws them (the causes across
stacks are `failures.across_stacks`).

Figures across stacks read the stacks library by library (`library_stacks`): a Diffusers stack is not the
next point of a Transformers line, so each library is a series of its own.
"""

from __future__ import annotations

import pandas as pd

from components.domain.results import EXCLUDED, FAIL, OTHER, PASS
from components.domain.stacks import library_order
from components.runtime import settings
from components.sources.snapshot import Snapshot, Stack

NO_ORG = "(no organisation)"
KINDS = (PASS, FAIL, EXCLUDED, OTHER)


def organisation(model_id: str) -> str:
    """`Qwen/Qwen3-0.6B` → `Qwen`; an id without an owner (`gpt2`) has none."""
    return model_id.split("/", 1)[0] if "/" in model_id else NO_ORG


def library_stacks(snapshot: Snapshot) -> list[tuple[str, list[Stack]]]:
    """[(library, its stacks oldest first)], Transformers first and the other libraries by name (the
    pickers' order)."""
    grouped: dict[str, list[Stack]] = {}
    for stack in reversed(snapshot.stacks):  # newest first, reversed: each library's oldest first
        grouped.setdefault(stack.library, []).append(stack)
    return sorted(grouped.items(), key=lambda item: library_order(item[0]))


def stack_trend(snapshot: Snapshot) -> pd.DataFrame:
    """One row per stack, library by library (`library_stacks`), each library's oldest first: label,
    neuronx_cc, library, library_version, run (not excluded), passed, failed, excluded, pass_rate (passed /
    run, None when nothing ran), newest tested_at."""
    return snapshot.memo(("chart-data", "trend"), lambda: _stack_trend(snapshot))


def _stack_trend(snapshot: Snapshot) -> pd.DataFrame:
    stacks = [s for _, of_library in library_stacks(snapshot) for s in of_library]
    labels = [s.label for s in stacks]
    if len(set(labels)) < len(labels):  # two compilers that differ only after "+": keep them apart
        labels = [s.long_label for s in stacks]
    tested_at = snapshot.rows["tested_at"]
    records = []
    for stack, label in zip(stacks, labels):
        positions = snapshot.stack_positions(stack)
        kinds = snapshot.kind[positions]
        excluded = int((kinds == EXCLUDED).sum())
        run = len(positions) - excluded
        passed = int((kinds == PASS).sum())
        newest = tested_at.iloc[positions].max() if len(positions) else None
        records.append(
            {
                "label": label,
                "neuronx_cc": stack.neuronx_cc,
                "library": stack.library,
                "library_version": stack.library_version,
                "run": run,
                "passed": passed,
                "failed": int((kinds == FAIL).sum()),
                "excluded": excluded,
                "pass_rate": passed / run if run else None,
                "newest_tested_at": None if newest is None or pd.isna(newest) else newest,
            }
        )
    return pd.DataFrame.from_records(
        records,
        columns=["label", "neuronx_cc", "library", "library_version", "run", "passed", "failed", "excluded",
                 "pass_rate", "newest_tested_at"],
    )  # fmt: skip


def stack_points(snapshot: Snapshot, stack: Stack) -> pd.DataFrame:
    """The runs of one stack with their figures: model_id, kind, result, tp, wall_s, hbm_peak_gb,
    hbm_capacity_gb (missing figures stay missing; each figure filters what it needs)."""
    positions = snapshot.stack_positions(stack)
    fields = ["model_id", "result", "tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb"]
    frame = snapshot.rows.iloc[positions][fields].astype({"result": object})
    return frame.assign(kind=snapshot.kind[positions]).reset_index(drop=True)


def org_counts(snapshot: Snapshot, stack: Stack, top: int = settings.CHART_ORGS.value) -> pd.DataFrame:
    """Results per organisation on one stack: org, pass, fail, excluded, other, total; the `top`
    organisations with the most models, most first (ties by name)."""
    points = stack_points(snapshot, stack)
    if not len(points):
        return pd.DataFrame(columns=["org", *KINDS, "total"])
    frame = pd.DataFrame({"org": [organisation(m) for m in points["model_id"]], "kind": points["kind"]})
    counts = pd.crosstab(frame["org"], frame["kind"]).reindex(columns=list(KINDS), fill_value=0)
    counts = counts.assign(total=counts.sum(axis=1)).reset_index()
    counts.columns.name = None
    counts = counts.assign(_name=[o.casefold() for o in counts["org"]])
    counts = counts.sort_values(["total", "_name"], ascending=[False, True], kind="stable").drop(columns="_name")
    return counts.head(top).reset_index(drop=True)
