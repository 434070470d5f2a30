"""Two stacks side by side: which models broke, which were fixed, what came and went, what moved.

`compare()` is the one function behind the Compare tab and the `/compare` endpoint.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal, cast

import numpy as np

from components.domain.results import FAIL, NOT_TESTED, NOT_TESTED_RESULT, OTHER, PASS
from components.queries import failures
from components.queries.answers import CompareAnswer, ComparedModel, ThresholdsAnswer, keys
from components.queries.formatting import plain
from components.sources.snapshot import Snapshot, Stack

# What each side of a compared model says (`answers.ComparedModel`: `result_a`, `tp_a`, ...), kind aside.
SIDE_FIELDS = tuple(k.removesuffix("_a") for k in keys(ComparedModel) if k.endswith("_a") and k != "kind_a")
ListName = Literal["regressions", "fixes", "added", "removed", "changed", "other_changes"]
LISTS: tuple[ListName, ...] = ("regressions", "fixes", "added", "removed", "changed", "other_changes")


@dataclass(frozen=True)
class Thresholds:
    """What counts as a notable change between two passing runs of one model.

    Wall time must move by at least `wall_change` (a fraction) *and* `wall_min_s` seconds;
    peak memory by at least `memory_change` *and* `memory_min_gb` GB. A change in the number of
    cores always counts. The floors keep small models (a 70 s run, a 2 GB peak) out of the list.
    """

    wall_change: float = 0.25
    wall_min_s: int = 60  # whole seconds, as wall_s is
    memory_change: float = 0.20
    memory_min_gb: float = 1.0

    def describe(self) -> str:
        return (
            f"wall time moved by at least {self.wall_change:.0%} and {self.wall_min_s:g} s, peak memory by at "
            f"least {self.memory_change:.0%} and {self.memory_min_gb:g} GB, or the number of cores changed"
        )


DEFAULT_THRESHOLDS = Thresholds()


def default_stacks(snapshot: Snapshot) -> tuple[Stack | None, Stack | None]:
    """(A, B) when nothing is asked: the stack before the newest, and the newest.
    With one stack both are that stack; with none, both are None."""
    if not snapshot.stacks:
        return None, None
    return snapshot.stacks[min(1, len(snapshot.stacks) - 1)], snapshot.stacks[0]


def resolve_pair(
    snapshot: Snapshot,
    neuronx_cc_a: str = "",
    library_version_a: str = "",
    neuronx_cc_b: str = "",
    library_version_b: str = "",
) -> tuple[Stack | None, Stack | None]:
    """The two stacks asked for. A side left empty gets its default (A: the stack before the newest,
    B: the newest); a side naming a stack that is not in the data raises UnknownStack."""
    default_a, default_b = default_stacks(snapshot)
    return (
        _resolve(snapshot, neuronx_cc_a, library_version_a, default_a),
        _resolve(snapshot, neuronx_cc_b, library_version_b, default_b),
    )


def _resolve(
    snapshot: Snapshot, neuronx_cc: str | None, library_version: str | None, default: Stack | None
) -> Stack | None:
    cc = (neuronx_cc or "").strip()
    lv = (library_version or "").strip()
    if not cc and not lv:
        return default
    return snapshot.resolve_stack(cc, lv)


def compare(
    snapshot: Snapshot, stack_a: Stack | None, stack_b: Stack | None, thresholds: Thresholds = DEFAULT_THRESHOLDS
) -> CompareAnswer:
    """How each model fared on stack B against stack A (A is the older one, as a rule).

    Returns a dict (memoised per snapshot: treat it as read-only) with `stack_a`, `stack_b`
    (`Stack.as_dict()` or None), `thresholds`, and six lists, each sorted by model id:

    - `regressions`: PASS on A, FAIL on B; `fixes`: FAIL on A, PASS on B.
    - `added`: run on B and not on A; `removed`: run on A and not on B (any result).
    - `changed`: PASS on both, with a notable change in wall time, peak memory or cores
      (see `Thresholds`); each entry adds `reasons`.
    - `other_changes`: every other change of result, e.g. PASS → EXCLUDED or FAIL → an unknown
      result. Being excluded is a decision, not a failure, so it is neither a regression nor a fix.

    Each entry has `model_id`, and `result_a`/`result_b`, `kind_a`/`kind_b`, `tp_*`, `wall_s_*`,
    `hbm_peak_gb_*`, `hbm_capacity_gb_*`, `exclusion_*` for both sides; the side without a run has
    result "not tested" and empty figures; a regression adds `cause` (its FAIL's cause on B, see
    `failures.py`). A stack compared with itself changes nothing.
    """
    key = ("compare", stack_a.ref if stack_a else None, stack_b.ref if stack_b else None, thresholds)
    return snapshot.memo(key, lambda: _compare(snapshot, stack_a, stack_b, thresholds))


def _compare(snapshot: Snapshot, stack_a: Stack | None, stack_b: Stack | None, thresholds: Thresholds) -> CompareAnswer:
    answer: CompareAnswer = {
        "stack_a": stack_a.as_dict() if stack_a else None,
        "stack_b": stack_b.as_dict() if stack_b else None,
        # asdict is untyped: Thresholds' fields and its description are ThresholdsAnswer's
        "thresholds": cast(ThresholdsAnswer, {**asdict(thresholds), "description": thresholds.describe()}),
        "regressions": [],
        "fixes": [],
        "added": [],
        "removed": [],
        "changed": [],
        "other_changes": [],
    }  # the lists in LISTS' order
    if stack_a is None or stack_b is None or stack_a.ref == stack_b.ref:
        return answer
    side_a, side_b = _side(snapshot, stack_a), _side(snapshot, stack_b)
    for model_id in sorted(side_a.keys() | side_b.keys(), key=lambda m: (m.casefold(), m)):
        a, b = side_a.get(model_id), side_b.get(model_id)
        # _suffixed gives each of ComparedModel's side fields, with its side's suffix
        entry = cast(ComparedModel, {"model_id": model_id, **_suffixed(a, "_a"), **_suffixed(b, "_b")})
        if a is None:
            answer["added"].append(entry)
        elif b is None:
            answer["removed"].append(entry)
        elif (a["kind"], b["kind"]) == (PASS, FAIL):
            answer["regressions"].append(entry)
        elif (a["kind"], b["kind"]) == (FAIL, PASS):
            answer["fixes"].append(entry)
        elif a["kind"] == b["kind"] == PASS:
            reasons = _notable(a, b, thresholds)
            if reasons:
                answer["changed"].append({**entry, "reasons": reasons})
        elif a["kind"] != b["kind"] or (a["kind"] == OTHER and a["result"] != b["result"]):
            answer["other_changes"].append(entry)
    causes = failures.causes_of(snapshot, stack_b, [e["model_id"] for e in answer["regressions"]])
    for regression in answer["regressions"]:
        cause = causes.get(regression["model_id"])
        if cause is not None:  # always, as a regression FAILs on B
            regression["cause"] = cause
    return answer


def _side(snapshot: Snapshot, stack: Stack) -> dict[str, dict]:
    """model_id → that model's row on one stack (the loader already kept the newest run)."""
    positions = snapshot.stack_positions(stack)
    rows = snapshot.rows.iloc[positions]
    values = {name: rows[name].to_numpy(dtype=object) for name in ("model_id", *SIDE_FIELDS)}
    kinds = np.asarray(snapshot.kind[positions])
    return {
        str(model_id): {
            "kind": str(kinds[i]),
            **{name: plain(values[name][i]) for name in SIDE_FIELDS},
        }
        for i, model_id in enumerate(values["model_id"])
    }


def _suffixed(side: dict | None, suffix: str) -> dict:
    if side is None:
        side = {"kind": NOT_TESTED, "result": NOT_TESTED_RESULT}
    return {f"{name}{suffix}": side.get(name) for name in ("result", "kind", *SIDE_FIELDS[1:])}


def _notable(a: dict, b: dict, t: Thresholds) -> list[str]:
    reasons = []
    if a["tp"] is not None and b["tp"] is not None and a["tp"] != b["tp"]:
        reasons.append("cores")
    if _moved(a["wall_s"], b["wall_s"], t.wall_change, t.wall_min_s):
        reasons.append("wall time")
    if _moved(a["hbm_peak_gb"], b["hbm_peak_gb"], t.memory_change, t.memory_min_gb):
        reasons.append("peak memory")
    return reasons


def _moved(before: float | None, after: float | None, fraction: float, floor: float) -> bool:
    """Both a relative and an absolute move: 10 s → 20 s is +100% but not worth a line."""
    if before is None or after is None:
        return False
    change = abs(float(after) - float(before))
    return change >= floor and (float(before) <= 0 or change / float(before) >= fraction)
