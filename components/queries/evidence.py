"""What the data says about a model nobody ran on a stack: its base model's result, how its
architecture fares there, and a run.py adapted from the closest tested script (labelled untested)."""

from __future__ import annotations

import re

from components.domain.hardware import hardware
from components.domain.results import EXCLUDED, PASS, as_kind
from components.queries.answers import ArchitectureEvidence, BaseModelEvidence, Suggestion
from components.queries.architectures import StackModel, architecture_model, by_architecture, closest_by_size, counts
from components.queries.formatting import core_count, parameter_count, plain
from components.runtime import settings
from components.sources.records import ModelRecord, Records, base_chain
from components.sources.snapshot import Snapshot, Stack

_TP_LINE = re.compile(r"^TP = \d+\b", re.MULTILINE)


def base_model_evidence(snapshot: Snapshot, records: Records, stack: Stack, model_id: str) -> BaseModelEvidence | None:
    """The nearest base model (following `base_model` up to BASE_HOPS steps) with a row on `stack`:
    {model_id, result, tp, hops}; None when no base model within reach was run there."""
    for base, hops in base_chain(records, model_id, settings.BASE_HOPS.value):
        canonical = snapshot.canonical_model_id(base)
        if not canonical:
            continue
        position = snapshot.row_for(canonical, stack)
        if position is not None:
            row = snapshot.record(position)
            result = plain(row["result"])
            kind = as_kind(snapshot.kind[position])
            return {"model_id": canonical, "result": result, "kind": kind, "tp": core_count(row["tp"]), "hops": hops}
    return None


def architecture_evidence(
    snapshot: Snapshot, records: Records, stack: Stack, record: ModelRecord | None
) -> ArchitectureEvidence | None:
    """The architecture's record on `stack`: {name, tested, passed, closest} (closest: up to three tested
    models nearest in size); None when the architecture is unknown."""
    if record is None or not record.architecture:
        return None
    models = by_architecture(snapshot, records, stack).get(record.architecture, [])
    tested, passed = counts(models)
    run = [m for m in models if m["kind"] != EXCLUDED]
    closest = closest_by_size(run, record.num_parameters)
    return {
        "name": record.architecture,
        "tested": tested,
        "passed": passed,
        "closest": [architecture_model(m) for m in closest],
    }


def suggest_run_py(
    snapshot: Snapshot,
    records: Records,
    stack: Stack,
    model_id: str,
    record: ModelRecord | None,
    prefer: str | None = None,
) -> Suggestion:
    """A run.py for `model_id` adapted from the closest passing script of its architecture on `stack`
    (`prefer`, its tested base model, first when it qualifies).

    Returns {suggested_run_py, suggested_from, suggested_tp} or, when none can be adapted, {suggested_note}
    saying why. The cores come from the parameter count against the HBM per core, rounded up to a
    degree the harness uses; a single-core script is never stretched over several cores or back."""
    if record is None or not record.architecture:
        return {"suggested_note": "no run.py suggested: the model's architecture is unknown"}
    hw = hardware()
    need = hw.cores_for(record.num_parameters)
    if record.num_parameters and need is None:
        return {
            "suggested_note": f"no run.py suggested: {parameter_count(record.num_parameters)} parameters do not fit on "
            f"{hw.core_degrees[-1]} cores at about {hw.hbm_per_core_gb:g} GB each"
        }
    models = by_architecture(snapshot, records, stack).get(record.architecture, [])
    passing = [m for m in models if m["kind"] == PASS and m["tp"]]
    if need is not None:
        # a single-core script has no sharding code, so it cannot be turned into a sharded one (or back)
        passing = [m for m in passing if (m["tp"] == 1) == (need == 1)]
    ordered = closest_by_size(passing, record.num_parameters, limit=len(passing)) or passing
    ordered.sort(key=lambda m: m["model_id"] != prefer)  # stable: the rest stay closest first
    for source in ordered:
        position = snapshot.row_for(source["model_id"], stack)
        script = snapshot.record(position).get("run_py") if position is not None else None
        if not isinstance(script, str) or source["model_id"] not in script:
            continue
        tp = need or int(source["tp"] or 0)  # `passing` holds only models with their cores
        if tp != source["tp"] and not _TP_LINE.search(script):
            continue
        return {
            "suggested_run_py": _adapt(script, source, model_id, tp, record, stack),
            "suggested_from": source["model_id"],
            "suggested_tp": tp,
        }
    return {"suggested_note": f"no run.py suggested: no passing {record.architecture} script on this stack fits"}


def _adapt(script: str, source: StackModel, model_id: str, tp: int, record: ModelRecord, stack: Stack) -> str:
    hw = hardware()
    if record.num_parameters:
        why = (
            f"TP = {tp}: {parameter_count(record.num_parameters)} parameters x {hw.bytes_per_parameter:g} bytes (bf16) "
            f"with headroom, at about {hw.hbm_per_core_gb:g} GB per core"
        )
    else:
        why = f"TP = {tp} as in that script: the parameter count is unknown"
    header = (
        f"# UNTESTED: no run of {model_id} on this stack is in the dataset. Adapted from the tested (PASS)\n"
        f"# script of {source['model_id']} on {stack.long_label}:\n"
        f"# the model id was replaced and {why}. It may not run as it is.\n"
    )
    body = _TP_LINE.sub(f"TP = {tp}", script.replace(source["model_id"], model_id))
    if body.startswith("#!"):
        first, _, rest = body.partition("\n")
        return f"{first}\n{header}{rest}"
    return header + body
