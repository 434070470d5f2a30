"""Write the bundled sample dataset, the bundled rankings snapshot, or a large synthetic dataset.

    python data/make_sample.py                          # data/sample/*.parquet + data/rankings_snapshot.json
    python data/make_sample.py --rows 200000 --out DIR  # synthetic benchmark dataset, Parquet files only

Everything is deterministic: fixed seeds, fixed dates, no network. Two runs write identical bytes.
All of it is made up (the README calls it sample data, and the page labels it so); what it is made of
lives in `data/sample_source/`: the model catalogue (`catalogue.csv`), the stacks and the story the
tests rely on (`story.json`), the ranking lists (`rankings.json`), run.py templates (`run_py/`) and
traceback templates with the values they are filled with (`tracebacks/`, `harness.json`).

The sample mirrors the published dataset `aws-neuron/torch-neuronx-model-support`: one Parquet file
per neuronx-cc × library pair, its column names and types, and its schema drift (the two oldest files
have no `exclusion` column). Its Transformers stacks, oldest first, are `SAMPLE_STACKS`; note that
`2.26.10342.0` is newer than `2.26.9117.0` although it sorts first as a string.

What the sample guarantees, for tests of comparisons and de-duplication (from `story.json`):

- `COMPARE_NEWEST` = (2.26.10342.0+9f31b6d0, 4.57.1) -> (2.28.7631.0+82129205, 4.57.1):
  regressions (PASS -> FAIL) are exactly `REGRESSIONS_NEWEST`, fixes (FAIL -> PASS) exactly
  `FIXES_NEWEST`, models only on the newer stack `ADDED_NEWEST`, only on the older `REMOVED_NEWEST`.
  No other model changes result between those two stacks.
- `COMPARE_TF5` = (2.28.7631.0+82129205, 4.57.1) -> (2.28.7631.0+82129205, 5.0.0): regressions
  `REGRESSIONS_TF5`, fixes `FIXES_TF5`, same model set.
- `EXPECTED_CHANGES` holds both of the above keyed by (cc_a, tf_a, cc_b, tf_b).
- `RERUN` names one model with two rows in the newest file (2.28.7631.0, 5.0.0): a FAIL and a later
  PASS. The PASS (newer `tested_at`) is the one that counts; it is written *first* in the file, so a
  reader that keeps the last row by position gets it wrong.
- Excluded models have result "EXCLUDED", the `exclusion` reason, and null tp/wall_s/hbm columns;
  they appear only in files that have the `exclusion` column.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "sample_source"
SAMPLE_DIR = HERE / "sample"
RANKINGS_SNAPSHOT = HERE / "rankings_snapshot.json"
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


def _json(name: str) -> Any:
    return json.loads((SOURCE / name).read_text(encoding="utf-8"))


@cache
def _template(name: str) -> Template:
    """A template from `sample_source/`; traceback templates lose the file's final newline."""
    text = (SOURCE / name).read_text(encoding="utf-8")
    return Template(text.removesuffix("\n") if name.startswith("tracebacks/") else text)


STORY = _json("story.json")
HARNESS = _json("harness.json")
RANKINGS = _json("rankings.json")

# ---------------------------------------------------------------------------------------------
# Schema of the published files (oldest lack `exclusion`). A library other than Transformers adds a
# column named after it (`diffusers`, `sentence_transformers`) holding its version.

COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("model_id", pa.string()),
    ("library", pa.string()),
    ("tp", pa.int32()),
    ("runner", pa.string()),
    ("result", pa.string()),
    ("notes", pa.string()),
    ("error", pa.string()),
    ("exclusion", pa.string()),
    ("wall_s", pa.int32()),
    ("hbm_peak_gb", pa.float64()),
    ("hbm_capacity_gb", pa.float64()),
    ("cpu_match", pa.string()),
    ("english", pa.string()),
    ("neuronx_cc", pa.string()),
    ("library_version", pa.string()),
    ("transformers", pa.string()),
    ("accelerate", pa.string()),
    ("torch_neuronx", pa.string()),
    ("torch", pa.string()),
    ("nki", pa.string()),
    ("python", pa.string()),
    ("neuron_driver", pa.string()),
    ("tested_at", pa.timestamp("ms", tz="UTC")),
    ("run_py", pa.string()),
)
PACKAGE_COLUMNS = ("transformers", "accelerate", "torch_neuronx", "torch", "nki", "python", "neuron_driver")


@dataclass(frozen=True)
class Stack:
    """One neuronx-cc × library pair and the rest of its software stack."""

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


def _stack(entry: dict[str, Any]) -> Stack:
    return Stack(
        entry["neuronx_cc"],
        entry["library"],
        entry["library_version"],
        tuple(entry["packages"].items()),
        datetime.fromisoformat(entry["tested_from"]),
        entry.get("has_exclusion", True),
        entry.get("cores_column", "tp"),
    )


# Oldest first.
SAMPLE_STACKS: tuple[Stack, ...] = tuple(_stack(s) for s in STORY["stacks"])
STACK_INDEX = {s["name"]: i for i, s in enumerate(STORY["stacks"])}
NEWEST_STACK = SAMPLE_STACKS[-1].key
# Libraries beyond Transformers (diffusers, sentence-transformers): a few models each, on the newest compiler.
LIBRARY_STACKS: tuple[Stack, ...] = tuple(_stack(s) for s in STORY["library_stacks"])
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


def _failure_kind(model: Model, rng: random.Random) -> str:
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
    kind = _failure_kind(model, rng)
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


# ---------------------------------------------------------------------------------------------
# run.py, from the templates in run_py/

CHECKPOINT_CLASSES = {
    TEXT: ("AutoModelForCausalLM", "AutoTokenizer"),
    VISION: ("AutoModelForImageTextToText", "AutoProcessor"),
}
PIXEL_VALUES = '    inputs["pixel_values"] = inputs["pixel_values"].to(torch.bfloat16)\n'


@cache
def make_run_py(model_id: str, tp: int, task: str = TEXT, runner: str = "", instruct: bool = True) -> str:
    """The run.py the harness wrote for `model_id` on `tp` cores (same inputs, same script)."""
    model_class, processor_class = CHECKPOINT_CLASSES[task]
    runner = runner or ("single-core" if tp == 1 else "tensor-parallel")
    vision = task == VISION
    expert_parallel = runner == "expert-parallel"
    inputs = "image" if vision else ("chat" if instruct else "plain")
    sharding = 'tp_plan="auto", device_mesh=mesh'
    if expert_parallel:
        sharding += ", distributed_config=DistributedConfig(enable_expert_parallel=True)"
    return _template(f"run_py/transformers_{'one_core' if tp == 1 else 'sharded'}.py.tmpl").substitute(
        model_id=model_id,
        tp=tp,
        runner=runner,
        model_class=model_class,
        processor_class=processor_class,
        processor="processor" if vision else "tokenizer",
        inputs=_template(f"run_py/inputs_{inputs}.py.tmpl").template.rstrip("\n"),
        pixel_values=PIXEL_VALUES if vision else "",
        expert_parallel_import="from transformers.distributed import DistributedConfig\n" if expert_parallel else "",
        sharding=sharding,
    )


# ---------------------------------------------------------------------------------------------
# Errors, from the templates in tracebacks/


def _fill(name: str, **values: Any) -> str:
    return _template(f"tracebacks/{name}.txt").substitute(site=HARNESS["site_packages"], **values)


def _model_class(model: Model) -> str:
    return HARNESS["model_classes"].get(model.arch, "".join(p.title() for p in model.arch.split("_")))


def _modeling_file(model: Model) -> str:
    return f"{HARNESS['site_packages']}/transformers/models/{model.arch}/modeling_{model.arch}.py"


def _hidden_size(params_b: float) -> int:
    for limit, hidden in ((0.2, 576), (0.6, 1024), (1.6, 2048), (4.5, 3072), (9.5, 4096), (16, 5120), (40, 6144)):
        if params_b < limit:
            return hidden
    return 8192


def _vocab(model: Model) -> int:
    if "Smol" in model.model_id:
        return 49152
    if model.arch.startswith("qwen"):
        return 151936
    if model.arch.startswith("gemma") or model.arch == "paligemma":
        return 262144 if "3" in model.arch else 256000
    if model.arch in ("mllama", "llama4") or "Llama-3" in model.model_id:
        return 128256
    if model.arch.startswith("phi"):
        return 32064
    if model.arch == "gpt_oss":
        return 201088
    return 32000


def _script_frame(run_py: str, needle: str, function: str) -> str:
    """The two traceback lines for the first line of run.py containing `needle`."""
    for number, text in enumerate(run_py.splitlines(), start=1):
        if needle in text:
            path = HARNESS["run_py_path"]
            return _fill("script_frame", run_py_path=path, line=number, function=function, code=text.strip())
    raise ValueError(f"run.py has no line containing {needle!r}")


def _traceback_head(stack: Stack, tp: int, run_py: str) -> str:
    """The frames from run.py down to the compiled forward of the model."""
    lines = HARNESS["generate_lines"]
    generate_line, sample_line = lines.get(stack.transformers, lines["default"])
    call = "result = decoding_method(" if stack.transformers.startswith("5") else "result = self._sample("
    generate = _fill("generate", generate_line=generate_line, sample_line=sample_line, generate_call=call)
    if tp == 1:
        module_frame = _script_frame(run_py, "    main()", "<module>")
        return _fill(
            "head_one_core",
            module_frame=module_frame,
            main_frame=_script_frame(run_py, "model.generate(", "main"),
            generate=generate,
        )
    return _fill("head_sharded", worker_frame=_script_frame(run_py, "model.generate(", "worker"), generate=generate)


def _spawn_wrap(error: str, tp: int, rank: int, run_py: str) -> str:
    """How torch.multiprocessing reports a failed rank: its traceback inside ProcessRaisedException."""
    if tp == 1:
        return error
    return _fill("spawn", spawn_frame=_script_frame(run_py, "mp.spawn(", "<module>"), rank=rank, error=error)


def _log_time(at: datetime) -> str:
    return f"{at:%Y-%b-%d %H:%M:%S}.{at.microsecond // 100:04d}"


def make_error(kind: str, model: Model, stack: Stack, tested_at: datetime, rng: random.Random, run_py: str) -> str:
    """A failure message of `kind` (a template in tracebacks/) as the harness recorded it for `model` on `stack`."""
    tp = model.tp or MAX_CORES
    cls = _model_class(model)
    hidden = _hidden_size(model.params_b)
    rank = rng.randrange(tp)
    pid = 10000 + rng.randrange(50000)
    graph = rng.choice(("model_forward_1", "model_forward_2"))
    cc = stack.neuronx_cc
    if kind == "eoom":
        need = HBM_PER_CORE_GB * rng.uniform(1.04, 1.35)
        vocab = _vocab(model)
        layers = 24 + int(model.params_b) % 56
        error = _fill(
            "eoom",
            head=_traceback_head(stack, tp, run_py),
            compiler=cc.split("+")[0],
            graph=graph,
            neuronx_cc=cc,
            module=f"{rng.getrandbits(64):016x}",
            pid=pid,
            need_gb=f"{need:.2f}",
            tp=tp,
            hbm_gb=f"{HBM_PER_CORE_GB:.2f}",
            embedding_rows=vocab // tp,
            hidden=hidden,
            embedding_gb=f"{vocab * hidden * 2 / tp / 1e9:.2f}",
            kv_heads=max(1, 8 // tp),
            cache_tensors=2 * layers,
            layers=layers,
        )
        return _spawn_wrap(error, tp, rank, run_py)
    if kind == "unsupported_op":
        ops = HARNESS["unsupported_ops"]["moe" if model.is_moe else "dense"]
        op = rng.choice(ops["ops"])
        line = ops["first_line"] + rng.randrange(ops["lines"])
        where = Template(ops["where"]).substitute(model_class=cls, arch=model.arch, line=line)
        error = _fill(
            "unsupported_op", head=_traceback_head(stack, tp, run_py), op=op, reason=ops["reason"], where=where
        )
        return _spawn_wrap(error, tp, rank, run_py)
    if kind in ("nrt", "nrt_timeout"):
        failure = HARNESS["runtime_timeout"] if kind == "nrt_timeout" else rng.choice(HARNESS["runtime_failures"])
        detail = Template(failure["detail"]).substitute(gb=f"{rng.uniform(0.5, 3.5):.2f}")
        error = _fill(
            "nrt",
            log_time=_log_time(tested_at),
            pid=pid,
            thread=pid + 57,
            rank=rank,
            detail=detail,
            graph=graph,
            status=failure["status"],
            head=_traceback_head(stack, tp, run_py),
            phase="prefill" if graph.endswith("1") else "decode step 1",
        )
        return _spawn_wrap(error, tp, rank, run_py)
    if kind == "cpu_mismatch":
        pos = rng.choice((3, 7, 11, 14, 19, 26))
        ids = [rng.randrange(200, 30000) for _ in range(pos + 2)]
        other = rng.randrange(200, 30000)
        diff = rng.choice((0.125, 0.25, 0.375, 0.5, 0.75))
        return _fill(
            "cpu_mismatch",
            position=pos,
            neuron_tokens=ids,
            cpu_tokens=ids[:pos] + [other] + ids[pos + 1 :],
            neuron_token=ids[pos],
            cpu_token=other,
            gap=f"{diff / 4:.4f}",
            diff=f"{diff:.4f}",
        )
    if kind == "not_fluent":
        output = rng.choice(HARNESS["not_fluent_outputs"])
        return _fill("not_fluent", score=f"{rng.uniform(0.05, 0.4):.2f}", tp=tp, output=output)
    if kind == "collective_timeout":
        seq = 300 + rng.randrange(3000)
        numel = hidden * rng.choice((1, 4, 8, 16))
        micros = f"{rng.randrange(10**6):06d}"
        when = f"{tested_at:%m%d %H:%M:%S}"
        return _fill(
            "collective_timeout",
            rank=rank,
            when=when,
            micros=micros,
            pid=pid,
            seq=seq,
            numel=numel,
            last_completed=seq - 1,
        )
    if kind == "tf5_cache":
        error = _fill(
            "tf5_cache",
            head=_traceback_head(stack, tp, run_py),
            modeling_file=_modeling_file(model),
            line=300 + rng.randrange(400),
            model_class=cls,
        )
        return _spawn_wrap(error, tp, rank, run_py)
    if kind != "python_error":
        raise ValueError(f"unknown error kind {kind!r}")
    chosen = rng.choice(HARNESS["python_errors"])
    message = Template(chosen["message"]).substitute(heads=max(1, 32 // tp), size=hidden * 17 // tp)
    error = _fill(
        "python_error",
        head=_traceback_head(stack, tp, run_py),
        modeling_file=_modeling_file(model),
        line=150 + rng.randrange(500),
        code=chosen["code"],
        message=message,
    )
    return _spawn_wrap(error, tp, rank, run_py)


# ---------------------------------------------------------------------------------------------
# Rows


def _runner(model: Model, tp: int) -> str:
    if tp == 1:
        return "single-core"
    return "expert-parallel" if model.model_id in EXPERT_PARALLEL else "tensor-parallel"


def _notes(model: Model, tp: int, outcome: str, rng: random.Random) -> str | None:
    notes = []
    if model.task == VISION:
        notes.append("prompt includes one 640x480 image")
    if model.arch in ("gemma2", "gemma3", "gemma3_text", "mistral"):
        notes.append("sliding-window layers run with a full static cache")
    if model.model_id in EXPERT_PARALLEL:
        notes.append(f"{tp}-way expert parallel; attention replicated")
    if outcome == "eoom":
        notes.append(f"the largest shard tried ({tp} cores) still exceeds HBM")
    if not notes and rng.random() < 0.15:
        notes.append(rng.choice(HARNESS["chance_notes"]))
    return "; ".join(notes) or None


def _new_columns() -> dict[str, list[Any]]:
    return {name: [] for name, _ in COLUMNS}


def _append_row(
    cols: dict[str, list[Any]],
    model: Model,
    stack: Stack,
    outcome: str,
    tested_at: datetime,
    rng: random.Random,
    exclusion: str | None = None,
    scale: float = 1.0,
    error_cache: dict[tuple[Any, ...], str] | None = None,
) -> int:
    """Append one row to `cols` (outcome: PASS, EXCLUDED or an error kind); return its wall time in seconds.

    With `error_cache`, errors are reused: per model and compiler, and across models for the kinds
    whose text does not name the model, so that a large dataset repeats them as the real one does.
    """
    for name, value in (
        ("model_id", model.model_id),
        ("library", stack.library),
        ("neuronx_cc", stack.neuronx_cc),
        ("library_version", stack.library_version),
        *stack.packages,
        ("tested_at", tested_at),
    ):
        cols.setdefault(name, []).append(value)
    tp = model.tp
    if outcome == EXCLUDED or tp is None:
        for name in (
            "tp",
            "runner",
            "wall_s",
            "hbm_peak_gb",
            "hbm_capacity_gb",
            "cpu_match",
            "english",
            "error",
            "notes",
            "run_py",
        ):
            cols[name].append(None)
        cols["result"].append(EXCLUDED)
        cols["exclusion"].append(
            exclusion or EXCLUSIONS.get(model.model_id) or (TOO_BIG if tp is None else NOT_PRIORITIZED)
        )
        return 0
    runner = _runner(model, tp)
    run_py = make_run_py(model.model_id, tp, model.task, runner, model.chat)
    capacity = tp * HBM_PER_CORE_GB
    # Compilation dominates: it grows with the model, and a sharded run also loads every shard.
    full = (260 + 55 * model.params_b + 45 * math.log2(tp) + rng.uniform(0, 260)) * scale
    if tp > 1:
        full = 300 + full * (1.6 - 0.06 * tp)
    compile_failure = outcome in ("eoom", "unsupported_op", "python_error", "tf5_cache")
    if compile_failure:
        wall = full * rng.uniform(0.25, 0.7)
    elif outcome in ("nrt_timeout", "collective_timeout"):
        wall = full * 0.6 + 600
    else:
        wall = full
    peak = None
    if not compile_failure:
        peak = model.params_b * 2 * rng.uniform(1.06, 1.24) + 0.55 * tp + rng.uniform(0.1, 0.6)
        peak = round(min(peak, capacity * rng.uniform(0.93, 0.985)), 2)
    generated = not compile_failure and outcome not in ("nrt", "nrt_timeout", "collective_timeout")
    passed = outcome == PASS
    cols["tp"].append(tp)
    cols["runner"].append(runner)
    cols["result"].append(PASS if passed else FAIL)
    cols["exclusion"].append(None)
    cols["wall_s"].append(int(wall))
    cols["hbm_peak_gb"].append(peak)
    cols["hbm_capacity_gb"].append(capacity)
    if tp == 1:
        cols["cpu_match"].append(("mismatch" if outcome == "cpu_mismatch" else "match") if generated else None)
        cols["english"].append(None)
    else:
        cols["cpu_match"].append(None)
        cols["english"].append(("not fluent" if outcome == "not_fluent" else "fluent") if generated else None)
    if passed:
        error = None
    elif error_cache is None:
        error = make_error(outcome, model, stack, tested_at, rng, run_py)
    else:
        generic = outcome in ("cpu_mismatch", "not_fluent", "collective_timeout")
        key = (outcome, tp, rng.randrange(40)) if generic else (outcome, model.model_id, stack.neuronx_cc)
        error = error_cache.get(key)
        if error is None:
            error = error_cache[key] = make_error(outcome, model, stack, tested_at, rng, run_py)
    cols["error"].append(error)
    cols["notes"].append(_notes(model, tp, outcome, rng))
    cols["run_py"].append(run_py)
    return int(wall)


def _to_table(cols: dict[str, list[Any]], stack: Stack) -> pa.Table:
    sch = stack.schema()
    canonical = {stack.cores_column: "tp"}
    return pa.table({f.name: pa.array(cols[canonical.get(f.name, f.name)], type=f.type) for f in sch}, schema=sch)


def _write(table: pa.Table, path: Path) -> None:
    pq.write_table(table, path, compression="zstd")


def _clear(out_dir: Path) -> None:
    for old in out_dir.glob("neuronxcc-*.parquet"):
        old.unlink()


def sample_tables() -> dict[str, pa.Table]:
    """The sample dataset as {file name: table}, oldest stack first."""
    plans = {m.model_id: outcome_plan(m) for m in CATALOGUE}
    tables = {}
    for s, stack in enumerate(SAMPLE_STACKS):
        cols = _new_columns()
        rng = random.Random(f"{SEED}:stack:{s}")
        at = stack.tested_from
        for model in CATALOGUE:
            outcome = plans[model.model_id][s]
            if outcome is None:
                continue
            if model.model_id == RERUN["model_id"] and stack.key == (RERUN["neuronx_cc"], RERUN["library_version"]):
                # The re-run after a runtime timeout is written first; the timed-out run follows it.
                rerun_at = at + timedelta(hours=30)
                _append_row(cols, model, stack, PASS, rerun_at, rng, scale=0.985**s)
                cols["notes"][-1] = "re-run after an NRT timeout on this stack"
                wall = _append_row(cols, model, stack, "nrt_timeout", at, rng, scale=0.985**s)
            else:
                wall = _append_row(cols, model, stack, outcome, at, rng, scale=0.985**s)
            at += timedelta(seconds=wall + 40 + rng.randrange(120))
        tables[stack.file_name] = _to_table(cols, stack)
    return tables


def library_run_py(library: str, model_id: str, **values: Any) -> str:
    """The run.py for a model of a library beyond Transformers (a DiffusionPipeline, a SentenceTransformer)."""
    return _template(f"run_py/{library}.py.tmpl").substitute(model_id=model_id, **values)


def _library_error(kind: str, model_id: str, stack: Stack, run_py: str, rng: random.Random) -> str:
    """A failure of a library model (a template in tracebacks/), with frames pointing into its run.py."""
    frames = {"module_frame": _script_frame(run_py, "    main()", "<module>")}
    if "generate(pipe)" in run_py:
        frames["main_frame"] = _script_frame(run_py, "image = generate(pipe)", "main")
        frames["generate_frame"] = _script_frame(run_py, "return pipe(", "generate")
    else:
        frames["main_frame"] = _script_frame(run_py, 'device="neuron"', "main")
    return _fill(
        kind,
        model_id=model_id,
        run_py_path=HARNESS["run_py_path"],
        compiler=stack.neuronx_cc.split("+")[0],
        neuronx_cc=stack.neuronx_cc,
        module=f"{rng.getrandbits(64):016x}",
        pid=10000 + rng.randrange(50000),
        need_gb=f"{HBM_PER_CORE_GB * rng.uniform(1.3, 1.6):.2f}",
        **frames,
    )


def library_tables() -> dict[str, pa.Table]:
    """The made-up files of libraries beyond Transformers as {file name: table}: one core per model."""
    tables = {}
    for stack, entry in zip(LIBRARY_STACKS, STORY["library_stacks"]):
        rng = random.Random(f"{SEED}:library:{stack.library}")
        cols = _new_columns()
        at = stack.tested_from
        for model in entry["models"]:
            run_py = library_run_py(stack.library, model["model_id"], **model["run_py"])
            passed = model["result"] == PASS
            wall = (180 + 90 * model["params_b"] + rng.uniform(0, 120)) * (1 if passed else rng.uniform(0.3, 0.6))
            peak = round(model["params_b"] * 2 * rng.uniform(1.3, 1.6) + rng.uniform(0.3, 0.9), 2) if passed else None
            error = None if passed else _library_error(model["result"], model["model_id"], stack, run_py, rng)
            row = {
                "model_id": model["model_id"],
                "library": stack.library,
                "tp": 1,
                "runner": "single-core",
                "result": PASS if passed else FAIL,
                "notes": entry["note"],
                "error": error,
                "exclusion": None,
                "wall_s": int(wall),
                "hbm_peak_gb": peak,
                "hbm_capacity_gb": HBM_PER_CORE_GB,
                "cpu_match": "match" if passed else None,
                "english": None,
                "neuronx_cc": stack.neuronx_cc,
                "library_version": stack.library_version,
                **dict(stack.packages),
                "tested_at": at,
                "run_py": run_py,
            }
            for name, value in row.items():
                cols.setdefault(name, []).append(value)
            at += timedelta(seconds=int(wall) + 40 + rng.randrange(120))
        tables[stack.file_name] = _to_table(cols, stack)
    return tables


def write_sample(out_dir: str | Path = SAMPLE_DIR) -> list[Path]:
    """Write the sample dataset (one Parquet file per stack) to `out_dir`, replacing older sample files.

    Returns the paths written: the Transformers stacks oldest first, then the other libraries.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _clear(out_dir)
    paths = []
    for name, table in (sample_tables() | library_tables()).items():
        _write(table, out_dir / name)
        paths.append(out_dir / name)
    return paths


# ---------------------------------------------------------------------------------------------
# Rankings snapshot, from rankings.json


def rankings_snapshot() -> dict[str, Any]:
    """The bundled rankings snapshot, in the file format `components.sources.rankings.load_snapshot` reads."""
    tasks: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for task, plan in RANKINGS["tasks"].items():
        rng = random.Random(f"{SEED}:rankings:{task}")
        headliners = plan["headliners"]  # models that the Hub ranks near the top
        in_task = [m for m in CATALOGUE if m.task == task and m.model_id not in headliners]
        rng.shuffle(in_task)
        # Catalogue models ranked in this task (the rest of the catalogue is tested but not ranked).
        tested = [MODELS[h] for h in headliners] + in_task[: plan["tested"] - len(headliners)]
        pool: list[dict[str, Any]] = []
        for model in tested:
            pool.append({"model_id": model.model_id, "num_parameters": round(model.params_b * 1e9, -6)})
        for entry in plan["untested"]:
            pool.append({"model_id": entry["model_id"], "num_parameters": entry["num_parameters"]})
        for entry in pool:
            top = entry["model_id"] in headliners
            # Hub downloads are heavy-tailed; trending favours what is new and talked about.
            entry["downloads"] = int(math.exp(rng.gauss(15.0, 0.7) if top else rng.gauss(11.5, 1.5)))
            entry["likes"] = int(math.sqrt(entry["downloads"]) * rng.uniform(0.2, 3.0))
            entry["trending_score"] = round(math.exp(rng.gauss(4.0, 0.5) if top else rng.gauss(2.2, 1.0)), 1)
            if entry["num_parameters"] is not None:
                entry["num_parameters"] = int(entry["num_parameters"])
        by_ranking: dict[str, list[dict[str, Any]]] = {}
        for ranking, key in (("trending", "trending_score"), ("downloads", "downloads")):
            ordered = sorted(pool, key=lambda e: (-e[key], e["model_id"]))[: plan["length"]]
            by_ranking[ranking] = [
                {
                    "model_id": e["model_id"],
                    "rank": r,
                    "task": task,
                    "downloads": e["downloads"],
                    "likes": e["likes"],
                    "trending_score": e["trending_score"],
                    "num_parameters": e["num_parameters"],
                }
                for r, e in enumerate(ordered, start=1)
            ]
        tasks[task] = by_ranking
    return {"fetched_at": RANKINGS["fetched_at"], "note": RANKINGS["note"], "tasks": tasks}


def write_rankings_snapshot(path: str | Path = RANKINGS_SNAPSHOT) -> Path:
    """Write the bundled rankings snapshot JSON to `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rankings_snapshot(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------
# Synthetic benchmark dataset

SYNTHETIC_COMPILER_MINORS = (9, 10, 13, 16, 19, 21, 24, 26, 27, 28)  # 2.9 < 2.10: a string-sort trap
SYNTHETIC_TRANSFORMERS = ("4.48.3", "4.49.0", "4.50.3", "4.51.3", "4.52.4", "4.53.3", "4.54.1", "4.55.4", "4.56.2",
                          "4.57.1", "5.0.0")  # fmt: skip
SYNTHETIC_SIZES = (0.5, 1, 1.5, 3, 4, 7, 8, 9, 14, 24, 32, 70)
SYNTHETIC_EXCLUSIONS = (NOT_PRIORITIZED, NOT_PRIORITIZED, REMOTE_CODE, FLASH_ATTN)
ROWS_PER_STACK_MIN = 100
MAX_SYNTHETIC_STACKS = 20


def synthetic_stacks(n: int = MAX_SYNTHETIC_STACKS) -> list[Stack]:
    """The newest `n` (at most 20) synthetic stacks, oldest first: two Transformers versions per compiler.

    Only the two oldest of all 20 lack the `exclusion` column.
    """
    rng = random.Random(f"{SEED}:synthetic-stacks")
    stacks: list[Stack] = []
    for k, minor in enumerate(SYNTHETIC_COMPILER_MINORS):
        cc = f"2.{minor}.{rng.randrange(1000, 20000)}.0+{rng.getrandbits(32):08x}"
        torch_v = "2.7.1" if minor < 20 else ("2.8.0" if minor < 26 else "2.9.1")
        torch_neuronx = f"{torch_v}.2.{minor // 3}.{rng.randrange(1000, 15000)}"
        driver = f"2.{minor - 3}.{rng.randrange(2, 9)}.0"
        for tf in SYNTHETIC_TRANSFORMERS[k : k + 2]:
            idx = len(stacks)
            versions = (tf, f"1.{7 + k // 2}.{idx % 2}", torch_neuronx, torch_v, f"0.{k // 3}.0", "3.11.13", driver)
            tested_from = datetime(2025, 1, 6, 8, tzinfo=UTC) + timedelta(days=21 * idx)
            packages = tuple(zip(PACKAGE_COLUMNS, versions))
            stacks.append(Stack(cc, "transformers", tf, packages, tested_from, has_exclusion=idx >= 2))
    return stacks[len(stacks) - min(n, len(stacks)) :]


def synthetic_models(count: int) -> list[Model]:
    """`count` models: real ones from the catalogue (at most half), then synthetic ones like `org-17/model-3421-7B`."""
    models = list(CATALOGUE[: count // 2])
    rng = random.Random(f"{SEED}:synthetic-models")
    for i in range(count - len(models)):
        size = float(SYNTHETIC_SIZES[rng.randrange(len(SYNTHETIC_SIZES))])
        moe = rng.random() < 0.06
        label = f"8x{size:g}B" if moe else f"{size:g}B"
        arch = rng.choice(("llama", "qwen2", "mistral", "qwen3", "gemma2", "phi3"))
        models.append(
            Model(f"org-{rng.randrange(1, 700)}/model-{i}-{label}", TEXT, size * (7 if moe else 1), moe, arch)
        )
    return models


def write_synthetic(out_dir: str | Path, rows: int) -> list[Path]:
    """Write a synthetic dataset of about `rows` rows to `out_dir`: one Parquet file per stack, nothing else.

    Up to 20 stacks of equal size (at least 100 rows each); the same models on every stack except a
    rotating 5% left out. run_py is the same for the same (model_id, tp); errors come from templates.
    Returns the paths written, oldest stack first. Raises ValueError if `rows` < 1.
    """
    if rows < 1:
        raise ValueError(f"rows must be at least 1, got {rows}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _clear(out_dir)
    n_stacks = max(1, min(MAX_SYNTHETIC_STACKS, rows // ROWS_PER_STACK_MIN))
    stacks = synthetic_stacks(n_stacks)
    per_stack = [rows // n_stacks + (1 if s < rows % n_stacks else 0) for s in range(n_stacks)]
    width = max(per_stack)
    models = synthetic_models(width + max(1, width // 20))
    pool_rng = random.Random(f"{SEED}:synthetic-pool")
    quality = [pool_rng.random() for _ in models]
    kinds = [_failure_kind(m, pool_rng) for m in models]
    exclusions = [pool_rng.choice(SYNTHETIC_EXCLUSIONS) for _ in models]
    error_cache: dict[tuple[Any, ...], str] = {}
    paths = []
    for s, stack in enumerate(stacks):
        rng = random.Random(f"{SEED}:synthetic:{s}")
        cols = _new_columns()
        left_out = len(models) - per_stack[s]
        first_out = (s * left_out) % len(models)
        out = {(first_out + j) % len(models) for j in range(left_out)}
        pass_below = 0.5 + 0.15 * s / max(1, n_stacks - 1)  # newer compilers pass more models
        at = stack.tested_from
        for i, model in enumerate(models):
            if i in out:
                continue
            exclusion = None
            if model.model_id in EXCLUSIONS or quality[i] > 0.92 or model.tp is None:
                outcome, exclusion = EXCLUDED, EXCLUSIONS.get(model.model_id) or exclusions[i]
                if model.tp is None:
                    exclusion = TOO_BIG
            elif quality[i] < pass_below and rng.random() > 0.02:
                outcome = PASS
            else:
                outcome = kinds[i]
            if outcome == EXCLUDED and not stack.has_exclusion:
                continue
            _append_row(
                cols, model, stack, outcome, at, rng, exclusion=exclusion, scale=0.99**s, error_cache=error_cache
            )
            at += timedelta(seconds=61)
        path = out_dir / stack.file_name
        _write(_to_table(cols, stack), path)
        paths.append(path)
    return paths


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, help="write a synthetic dataset of about this many rows instead")
    parser.add_argument("--out", type=Path, help="output folder (default: data/sample; required with --rows)")
    parser.add_argument(
        "--rankings",
        type=Path,
        default=RANKINGS_SNAPSHOT,
        help="rankings snapshot to write with the sample (default: data/rankings_snapshot.json)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if args.rows is not None:
        if args.out is None:
            parser.error("--rows needs --out")
        if args.rows < 1:
            parser.error("--rows must be at least 1")
        paths = write_synthetic(args.out, args.rows)
    else:
        paths = write_sample(args.out or SAMPLE_DIR)
        paths.append(write_rankings_snapshot(args.rankings))
    print(f"wrote {len(paths)} files in {time.perf_counter() - started:.1f} s")
    for p in paths:
        print(f"  {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
