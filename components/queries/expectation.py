"""What to expect from a model nobody ran on a stack: a verdict drawn from the evidence, never a result.

The rules, in order (the About page states the same):
1. Its weights (bf16, with headroom) do not fit on the most cores the harness uses: `likely fails`.
2. Its nearest base model with a run on the stack (see `evidence.base_model_evidence`) FAILED there:
   `likely fails`, naming the base model and its failure.
3. That base model PASSED, has the same architecture and a parameter count within SIZE_RATIO of the
   model's: `likely runs`, naming the base model.
4. Otherwise the architecture's record on the stack, once at least MIN_TESTED of its models were run:
   at least RUNS_SHARE of them passed, `likely runs`; at most FAILS_SHARE, `likely fails`.
5. Otherwise `unknown`.
The verdict is an expectation: the model's result stays `not tested`. `basis` names the rule that
decided: "size", "base model", "architecture" or "none".
"""

from __future__ import annotations

from components.domain.hardware import hardware
from components.domain.results import FAIL, PASS, result_kind
from components.queries import causes, failures
from components.queries.answers import ArchitectureEvidence, Evidence, Expectation
from components.queries.formatting import parameter_count
from components.sources.records import ModelRecord, Records
from components.sources.snapshot import Snapshot, Stack

LIKELY_RUNS, LIKELY_FAILS, UNKNOWN = "likely runs", "likely fails", "unknown"
VERDICTS = (LIKELY_RUNS, LIKELY_FAILS, UNKNOWN)
BASES = ("size", "base model", "architecture", "library", "none")
SIZE_RATIO = 1.5  # a fine-tune keeps its base model's size; a distillation or an upscale does not
MIN_TESTED = 3  # fewer runs of an architecture say little about the next model of it
RUNS_SHARE, FAILS_SHARE = 0.8, 0.2


def failure_summary(snapshot: Snapshot, stack: Stack, model_id: str) -> str:
    """How `model_id` failed on `stack`, in one short line: its result and its cause (as /failures reduces
    it); "" when it has no row."""
    position = snapshot.row_for(model_id, stack)
    if position is None:
        return ""
    result = snapshot.record(position).get("result")
    result = result if isinstance(result, str) else FAIL
    cause = failures.cause_on_stack(snapshot, stack, model_id)
    if cause is None:  # not a FAIL: its result says it all
        return result
    if cause["summary"] == causes.NO_ERROR_TEXT:
        return f"{result} (no error recorded)"
    return f"{result}: {cause['example']}"


def expectation(
    snapshot: Snapshot, records: Records, stack: Stack, record: ModelRecord | None, found: Evidence
) -> Expectation:
    """{verdict, basis, reason} for a model with no row on `stack`, from its Hub `record` and `found` (its
    `evidence`: base_model and architecture, as `details.lookup` builds them). verdict is one of VERDICTS,
    basis one of BASES; reason names the evidence."""
    base = found.get("base_model")
    hw = hardware()
    size = record.num_parameters if record else None
    if size and hw.cores_for(size) is None:
        return {
            "verdict": LIKELY_FAILS,
            "basis": "size",
            "reason": f"{parameter_count(size)} parameters do not fit on {hw.core_degrees[-1]} cores at about "
            f"{hw.hbm_per_core_gb:g} GB each, the most the harness shards a model over",
        }
    clauses = []
    if base is None:
        clauses.append("no base model has a run on this stack")
    else:
        kind = result_kind(base.get("result"))
        name = base["model_id"]
        hops = base.get("hops") or 1
        who = f"its base model {name}" + (f" ({hops} steps up)" if hops > 1 else "")
        if kind == FAIL:
            summary = failure_summary(snapshot, stack, name) or str(base.get("result"))
            return {"verdict": LIKELY_FAILS, "basis": "base model", "reason": f"{who} fails on this stack ({summary})"}
        if kind != PASS:
            clauses.append(f"{who} has no pass or fail on this stack ({base.get('result')})")
        else:
            similar, why = _same_kind(record, records.get(name))
            if similar:
                return {"verdict": LIKELY_RUNS, "basis": "base model", "reason": f"{who} passes on this stack, {why}"}
            clauses.append(f"{who} passes on this stack, but {why}")
    verdict, text = _architecture_verdict(found.get("architecture"))
    basis = "none" if verdict == UNKNOWN else "architecture"
    return {"verdict": verdict, "basis": basis, "reason": "; ".join([*clauses, text])}


def _same_kind(record: ModelRecord | None, base: ModelRecord | None) -> tuple[bool, str]:
    """Whether a model and its passing base model share the architecture and a similar size, and why."""
    own_arch, base_arch = (record.architecture if record else None), (base.architecture if base else None)
    own_size, base_size = (record.num_parameters if record else None), (base.num_parameters if base else None)
    if not own_arch:
        return False, "the architectures cannot be compared"
    if not base_arch:
        return False, "the base model's architecture is unknown"
    if own_arch != base_arch:
        return False, f"its architecture differs ({base_arch}, this model {own_arch})"
    if not own_size or not base_size:
        return False, "a parameter count is unknown"
    sizes = f"{parameter_count(own_size)} parameters, the base model {parameter_count(base_size)}"
    if max(own_size, base_size) / min(own_size, base_size) > SIZE_RATIO:
        return False, f"its size differs ({sizes})"
    return True, f"with the same architecture ({own_arch}) and a similar size ({sizes})"


def _architecture_verdict(architecture: ArchitectureEvidence | None) -> tuple[str, str]:
    """The verdict of the architecture's record on the stack (rule 4), and the clause that states it."""
    if not architecture:
        return UNKNOWN, "the model's architecture is unknown"
    tested, passed, name = architecture["tested"], architecture["passed"], architecture["name"]
    if not tested:
        return UNKNOWN, f"no {name} model was tested on this stack"
    text = f"{passed} of {tested} tested {name} models pass on this stack"
    if tested < MIN_TESTED:
        return UNKNOWN, f"{text}, too few to go by (fewer than {MIN_TESTED})"
    if passed >= RUNS_SHARE * tested:
        return LIKELY_RUNS, text
    if passed <= FAILS_SHARE * tested:
        return LIKELY_FAILS, text
    return UNKNOWN, f"{text}, neither mostly passing nor mostly failing"
