"""What the bundled sample is made of, read from `data/sample_source/`: stacks, models and the story tests rely on.

All of it is made up. `catalogue.csv` lists the models (task, size, architecture, whether run.py chats,
why a model is excluded, which MoE models are sharded by experts); `story.json` the stacks and what
happens to whom on which stack; `harness.json` and the templates the texts the harness writes.
"""

from __future__ import annotations

import csv
import json
import random
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import pyarrow as pa

from components.domain import columns

SOURCE = Path(__file__).resolve().parent / "sample_source"
SEED = 20261130

HBM_PER_CORE_GB = 24.0
MAX_CORES = 16
TP_CHOICES = (1, 2, 4, 8, 16)
BF16_OVERHEAD = 1.3  # activations, KV cache and runtime buffers on top of the bf16 weights

PASS, FAIL, EXCLUDED = "PASS", "FAIL", "EXCLUDED"
TEXT, VISION = "text-generation", "image-text-to-text"
NOT_PRIORITIZED = "not prioritized"
TOO_BIG = f"weights exceed {MAX_CORES} cores of HBM"
REMOTE_CODE = "custom code (trust_remote_code) not supported"
FLASH_ATTN = "requires flash-attn CUDA kernels"


def read_json(name: str) -> Any:
    return json.loads((SOURCE / name).read_text(encoding="utf-8"))


@cache
def template(name: str) -> Template:
    """A template from `sample_source/`; traceback templates lose the file's final newline."""
    text = (SOURCE / name).read_text(encoding="utf-8")
    return Template(text.removesuffix("\n") if name.startswith("tracebacks/") else text)


STORY = read_json("story.json")
HARNESS = read_json("harness.json")
RANKINGS = read_json("rankings.json")

# ---------------------------------------------------------------------------------------------
# Schema of the published files: the app's column registry (oldest files lack `exclusion`). A library other
# than Transformers adds a column named after it (`diffusers`, `sentence_transformers`) holding its version.

COLUMNS: tuple[tuple[str, pa.DataType], ...] = tuple((c.name, c.type) for c in columns.COLUMNS)
PACKAGE_COLUMNS = ("transformers", "accelerate", "torch_neuronx", "torch", "nki", "python", "neuron_driver")


@dataclass(frozen=True)
class StackFile:
    """One stack of the sample as a file is written for it: its neuronx-cc × library pair, the rest of its
    software stack, its file name and its Arrow schema (not the app's `components.domain.stacks.Stack`)."""

    neuronx_cc: str
    library: str
    library_version: str
    packages: tuple[tuple[str, str], ...]  # (column, version) for the package columns, in schema order
    tested_from: datetime
    has_exclusion: bool = True
    cores_column: str = "tp"  # the published files also use the documented alias `neuron_cores`

    @property
    def file_name(self) -> str:
        return f"neuronxcc-{self.neuronx_cc}_{self.library}-{self.library_version}.parquet"

    @property
    def key(self) -> tuple[str, str]:
        return (self.neuronx_cc, self.library_version)

    @property
    def transformers(self) -> str:
        return dict(self.packages)["transformers"]

    def schema(self) -> pa.Schema:
        """The Arrow schema of this stack's file."""
        types = dict(COLUMNS)
        names = [n for n, _ in COLUMNS if n not in PACKAGE_COLUMNS and (self.has_exclusion or n != "exclusion")]
        at = names.index("library_version") + 1
        names[at:at] = [column for column, _ in self.packages]
        return pa.schema([pa.field(self.cores_column if n == "tp" else n, types.get(n, pa.string())) for n in names])


def _stack(entry: dict[str, Any]) -> StackFile:
    return StackFile(
        entry["neuronx_cc"],
        entry["library"],
        entry["library_version"],
        tuple(entry["packages"].items()),
        datetime.fromisoformat(entry["tested_from"]),
        entry.get("has_exclusion", True),
        entry.get("cores_column", "tp"),
    )


# Oldest first.
SAMPLE_STACKS: tuple[StackFile, ...] = tuple(_stack(s) for s in STORY["stacks"])
STACK_INDEX = {s["name"]: i for i, s in enumerate(STORY["stacks"])}
NEWEST_STACK = SAMPLE_STACKS[-1].key
# Libraries beyond Transformers (diffusers, sentence-transformers): a few models each, on the newest compiler.
LIBRARY_STACKS: tuple[StackFile, ...] = tuple(_stack(s) for s in STORY["library_stacks"])
ALL_STACKS = SAMPLE_STACKS + LIBRARY_STACKS

# ---------------------------------------------------------------------------------------------
# The model catalogue shared by the sample and the rankings snapshot.


@dataclass(frozen=True)
class Model:
    model_id: str
    task: str
    params_b: float  # parameters, billions
    is_moe: bool
    arch: str  # transformers model_type, used to make errors look like the modeling code's
    chat: bool = False  # run.py prompts through the chat template rather than with plain text

    @property
    def tp(self) -> int | None:
        """Fewest cores whose HBM holds the bf16 weights with overhead; None beyond 16 cores."""
        return cores_for(self.params_b)


def cores_for(params_b: float) -> int | None:
    """Fewest Trainium cores (of 1, 2, 4, 8, 16) that hold a bf16 model of `params_b` billion parameters."""
    need_gb = params_b * 2 * BF16_OVERHEAD
    for tp in TP_CHOICES:
        if tp * HBM_PER_CORE_GB >= need_gb:
            return tp
    return None


def _catalogue() -> list[dict[str, str]]:
    with (SOURCE / "catalogue.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


_ENTRIES = _catalogue()
CATALOGUE: tuple[Model, ...] = tuple(
    Model(e["model_id"], e["task"], float(e["params_b"]), e["moe"] == "yes", e["arch"], e["chat"] == "yes")
    for e in _ENTRIES
)
MODELS: dict[str, Model] = {m.model_id: m for m in CATALOGUE}
EXCLUSIONS: dict[str, str] = {e["model_id"]: e["exclusion"] for e in _ENTRIES if e["exclusion"]}
# MoE models whose modeling code has no tensor-parallel plan: sharded by experts instead.
EXPERT_PARALLEL = frozenset(e["model_id"] for e in _ENTRIES if e["expert_parallel"] == "yes")

# First and last stack (index into SAMPLE_STACKS) a model was run on; others from the oldest to the newest.
ADDED_AT: dict[str, int] = {m: STACK_INDEX[s] for m, s in STORY["added_at"].items()}
REMOVED_AFTER: dict[str, int] = {m: STACK_INDEX[s] for m, s in STORY["removed_after"].items()}
# Explicit outcomes, one per stack, for the models whose story tests rely on; others follow a seeded plan.
OVERRIDES: dict[str, tuple[str, ...]] = {m: tuple(o) for m, o in STORY["outcomes"].items()}
RANDOM_FIXES_AT = tuple(STACK_INDEX[s] for s in STORY["random_fixes_at"])


def _expected(change: dict[str, Any]) -> tuple[tuple[str, str, str, str], dict[str, frozenset[str]]]:
    a, b = STACK_INDEX[change["from"]], STACK_INDEX[change["to"]]
    return SAMPLE_STACKS[a].key + SAMPLE_STACKS[b].key, {
        "regressions": frozenset(change["regressions"]),
        "fixes": frozenset(change["fixes"]),
        "added": frozenset(m for m, s in ADDED_AT.items() if s == b),
        "removed": frozenset(m for m, s in REMOVED_AFTER.items() if s == a),
    }


EXPECTED_CHANGES: dict[tuple[str, str, str, str], dict[str, frozenset[str]]] = dict(
    _expected(c) for c in STORY["compare"]
)
COMPARE_NEWEST, COMPARE_TF5 = EXPECTED_CHANGES
REGRESSIONS_NEWEST, FIXES_NEWEST, ADDED_NEWEST, REMOVED_NEWEST = EXPECTED_CHANGES[COMPARE_NEWEST].values()
REGRESSIONS_TF5, FIXES_TF5 = EXPECTED_CHANGES[COMPARE_TF5]["regressions"], EXPECTED_CHANGES[COMPARE_TF5]["fixes"]

_rerun_stack = SAMPLE_STACKS[STACK_INDEX[STORY["rerun"]["stack"]]]
RERUN = {
    "model_id": STORY["rerun"]["model_id"],
    "neuronx_cc": _rerun_stack.neuronx_cc,
    "library_version": _rerun_stack.library_version,
    "results": tuple(STORY["rerun"]["results"]),  # in tested_at order: the PASS is the newer row and wins
}

# ---------------------------------------------------------------------------------------------
# Per-model outcome plans. An outcome is "PASS" or a failure kind (a template in tracebacks/).


def failure_kind(model: Model, rng: random.Random) -> str:
    tp = model.tp or MAX_CORES
    kinds = ["nrt", "python_error"]
    kinds.append("cpu_mismatch" if tp == 1 else "not_fluent")
    if tp > 1:
        kinds.append("collective_timeout")
    if model.is_moe or model.task == VISION:
        kinds += ["unsupported_op", "unsupported_op"]
    if model.params_b > 20:
        kinds += ["eoom", "eoom"]
    return rng.choice(kinds)


def outcome_plan(model: Model) -> tuple[str | None, ...]:
    """The outcome of `model` on each sample stack: "PASS", a failure kind, "EXCLUDED" or None (not run).

    Random plans only change at `RANDOM_FIXES_AT`, so that the newest stacks differ exactly as
    EXPECTED_CHANGES says.
    """
    n = len(SAMPLE_STACKS)
    first = ADDED_AT.get(model.model_id, 0)
    last = REMOVED_AFTER.get(model.model_id, n - 1)
    if model.model_id in EXCLUSIONS:
        return tuple(EXCLUDED if SAMPLE_STACKS[s].has_exclusion else None for s in range(n))
    rng = random.Random(f"{SEED}:plan:{model.model_id}")
    kind = failure_kind(model, rng)
    u = rng.random()
    if model.model_id in OVERRIDES:
        seq = list(OVERRIDES[model.model_id])
    elif u < 0.5:
        seq = [PASS] * n
    elif u < 0.76:
        fixed_at = rng.choice(RANDOM_FIXES_AT)
        seq = [kind if s < fixed_at else PASS for s in range(n)]
    else:
        seq = [kind] * n
    return tuple(seq[s] if first <= s <= last else None for s in range(n))
