"""What the made-up harness writes for one run: its run.py, its error text and its row.

Texts come from the templates in `data/sample_source/` (`run_py/`, `tracebacks/`, `harness.json`);
numbers (wall time, memory, token ids) from a seeded random generator, so every run writes the same bytes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from data.catalogue import (
    COLUMNS,
    EXCLUDED,
    EXCLUSIONS,
    EXPERT_PARALLEL,
    FAIL,
    HARNESS,
    HBM_PER_CORE_GB,
    MAX_CORES,
    NOT_PRIORITIZED,
    PASS,
    TEXT,
    TOO_BIG,
    VISION,
    Model,
    StackFile,
    template,
)

# ---------------------------------------------------------------------------------------------
# run.py, from the templates in run_py/

CHECKPOINT_CLASSES = {
    TEXT: ("AutoModelForCausalLM", "AutoTokenizer"),
    VISION: ("AutoModelForImageTextToText", "AutoProcessor"),
}
PIXEL_VALUES = '    inputs["pixel_values"] = inputs["pixel_values"].to(torch.bfloat16)\n'


@cache
def make_run_py(model_id: str, tp: int, task: str, runner: str, chat: bool) -> str:
    """The run.py the harness wrote for `model_id` on `tp` cores (same inputs, same script)."""
    model_class, processor_class = CHECKPOINT_CLASSES[task]
    vision = task == VISION
    expert_parallel = runner == "expert-parallel"
    inputs = "image" if vision else ("chat" if chat else "plain")
    sharding = 'tp_plan="auto", device_mesh=mesh'
    if expert_parallel:
        sharding += ", distributed_config=DistributedConfig(enable_expert_parallel=True)"
    return template(f"run_py/transformers_{'one_core' if tp == 1 else 'sharded'}.py.tmpl").substitute(
        model_id=model_id,
        tp=tp,
        runner=runner,
        model_class=model_class,
        processor_class=processor_class,
        processor="processor" if vision else "tokenizer",
        inputs=template(f"run_py/inputs_{inputs}.py.tmpl").template.rstrip("\n"),
        pixel_values=PIXEL_VALUES if vision else "",
        expert_parallel_import="from transformers.distributed import DistributedConfig\n" if expert_parallel else "",
        sharding=sharding,
    )


# ---------------------------------------------------------------------------------------------
# Errors, from the templates in tracebacks/


def fill(name: str, **values: Any) -> str:
    return template(f"tracebacks/{name}.txt").substitute(site=HARNESS["site_packages"], **values)


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


def script_frame(run_py: str, needle: str, function: str) -> str:
    """The two traceback lines for the first line of run.py containing `needle`."""
    for number, text in enumerate(run_py.splitlines(), start=1):
        if needle in text:
            path = HARNESS["run_py_path"]
            return fill("script_frame", run_py_path=path, line=number, function=function, code=text.strip())
    raise ValueError(f"run.py has no line containing {needle!r}")


def _traceback_head(stack: StackFile, tp: int, run_py: str) -> str:
    """The frames from run.py down to the compiled forward of the model."""
    lines = HARNESS["generate_lines"]
    generate_line, sample_line = lines.get(stack.transformers, lines["default"])
    call = "result = decoding_method(" if stack.transformers.startswith("5") else "result = self._sample("
    generate = fill("generate", generate_line=generate_line, sample_line=sample_line, generate_call=call)
    if tp == 1:
        module_frame = script_frame(run_py, "    main()", "<module>")
        return fill(
            "head_one_core",
            module_frame=module_frame,
            main_frame=script_frame(run_py, "model.generate(", "main"),
            generate=generate,
        )
    return fill("head_sharded", worker_frame=script_frame(run_py, "model.generate(", "worker"), generate=generate)


def _spawn_wrap(error: str, tp: int, rank: int, run_py: str) -> str:
    """How torch.multiprocessing reports a failed rank: its traceback inside ProcessRaisedException."""
    if tp == 1:
        return error
    return fill("spawn", spawn_frame=script_frame(run_py, "mp.spawn(", "<module>"), rank=rank, error=error)


def _log_time(at: datetime) -> str:
    return f"{at:%Y-%b-%d %H:%M:%S}.{at.microsecond // 100:04d}"


@dataclass(frozen=True)
class Failure:
    """One failing run, as the error templates see it: the model, its stack and the run's own details."""

    model: Model
    stack: StackFile
    tested_at: datetime
    rng: random.Random
    run_py: str
    tp: int
    rank: int
    pid: int
    graph: str

    @property
    def head(self) -> str:
        return _traceback_head(self.stack, self.tp, self.run_py)


def _eoom(f: Failure, kind: str) -> dict[str, Any]:
    need = HBM_PER_CORE_GB * f.rng.uniform(1.04, 1.35)
    vocab, hidden, layers = _vocab(f.model), _hidden_size(f.model.params_b), 24 + int(f.model.params_b) % 56
    return dict(
        head=f.head, compiler=f.stack.neuronx_cc.split("+")[0], graph=f.graph, neuronx_cc=f.stack.neuronx_cc,
        module=f"{f.rng.getrandbits(64):016x}", pid=f.pid, need_gb=f"{need:.2f}", tp=f.tp,
        hbm_gb=f"{HBM_PER_CORE_GB:.2f}", embedding_rows=vocab // f.tp, hidden=hidden,
        embedding_gb=f"{vocab * hidden * 2 / f.tp / 1e9:.2f}", kv_heads=max(1, 8 // f.tp), cache_tensors=2 * layers,
        layers=layers,
    )  # fmt: skip


def _unsupported_op(f: Failure, kind: str) -> dict[str, Any]:
    ops = HARNESS["unsupported_ops"]["moe" if f.model.is_moe else "dense"]
    op = f.rng.choice(ops["ops"])
    line = ops["first_line"] + f.rng.randrange(ops["lines"])
    where = Template(ops["where"]).substitute(model_class=_model_class(f.model), arch=f.model.arch, line=line)
    return dict(head=f.head, op=op, reason=ops["reason"], where=where)


def _nrt(f: Failure, kind: str) -> dict[str, Any]:
    failure = HARNESS["runtime_timeout"] if kind == "nrt_timeout" else f.rng.choice(HARNESS["runtime_failures"])
    detail = Template(failure["detail"]).substitute(gb=f"{f.rng.uniform(0.5, 3.5):.2f}")
    return dict(
        log_time=_log_time(f.tested_at), pid=f.pid, thread=f.pid + 57, rank=f.rank, detail=detail, graph=f.graph,
        status=failure["status"], head=f.head, phase="prefill" if f.graph.endswith("1") else "decode step 1",
    )  # fmt: skip


def _cpu_mismatch(f: Failure, kind: str) -> dict[str, Any]:
    pos = f.rng.choice((3, 7, 11, 14, 19, 26))
    ids = [f.rng.randrange(200, 30000) for _ in range(pos + 2)]
    other = f.rng.randrange(200, 30000)
    diff = f.rng.choice((0.125, 0.25, 0.375, 0.5, 0.75))
    return dict(
        position=pos, neuron_tokens=ids, cpu_tokens=ids[:pos] + [other] + ids[pos + 1 :], neuron_token=ids[pos],
        cpu_token=other, gap=f"{diff / 4:.4f}", diff=f"{diff:.4f}",
    )  # fmt: skip


def _not_fluent(f: Failure, kind: str) -> dict[str, Any]:
    output = f.rng.choice(HARNESS["not_fluent_outputs"])
    return dict(score=f"{f.rng.uniform(0.05, 0.4):.2f}", tp=f.tp, output=output)


def _collective_timeout(f: Failure, kind: str) -> dict[str, Any]:
    seq = 300 + f.rng.randrange(3000)
    numel = _hidden_size(f.model.params_b) * f.rng.choice((1, 4, 8, 16))
    micros = f"{f.rng.randrange(10**6):06d}"
    return dict(
        rank=f.rank, when=f"{f.tested_at:%m%d %H:%M:%S}", micros=micros, pid=f.pid, seq=seq, numel=numel,
        last_completed=seq - 1,
    )  # fmt: skip


def _tf5_cache(f: Failure, kind: str) -> dict[str, Any]:
    return dict(
        head=f.head, modeling_file=_modeling_file(f.model), line=300 + f.rng.randrange(400),
        model_class=_model_class(f.model),
    )  # fmt: skip


def _python_error(f: Failure, kind: str) -> dict[str, Any]:
    chosen = f.rng.choice(HARNESS["python_errors"])
    hidden = _hidden_size(f.model.params_b)
    message = Template(chosen["message"]).substitute(heads=max(1, 32 // f.tp), size=hidden * 17 // f.tp)
    return dict(
        head=f.head, modeling_file=_modeling_file(f.model), line=150 + f.rng.randrange(500), code=chosen["code"],
        message=message,
    )  # fmt: skip


# Each kind of failure: its template in tracebacks/, the values it is filled with, and whether the
# harness's spawned ranks wrap it (a failure inside the model run) or it is the harness's own check.
ERRORS: dict[str, tuple[str, Callable[[Failure, str], dict[str, Any]], bool]] = {
    "eoom": ("eoom", _eoom, True),
    "unsupported_op": ("unsupported_op", _unsupported_op, True),
    "nrt": ("nrt", _nrt, True),
    "nrt_timeout": ("nrt", _nrt, True),
    "cpu_mismatch": ("cpu_mismatch", _cpu_mismatch, False),
    "not_fluent": ("not_fluent", _not_fluent, False),
    "collective_timeout": ("collective_timeout", _collective_timeout, False),
    "tf5_cache": ("tf5_cache", _tf5_cache, True),
    "python_error": ("python_error", _python_error, True),
}


def make_error(kind: str, model: Model, stack: StackFile, tested_at: datetime, rng: random.Random, run_py: str) -> str:
    """A failure message of `kind` (a template in tracebacks/) as the harness recorded it for `model` on `stack`."""
    if kind not in ERRORS:
        raise ValueError(f"unknown error kind {kind!r}")
    template, values, spawned = ERRORS[kind]
    tp = model.tp or MAX_CORES
    # drawn in this order for every kind: the bundled sample is reproducible byte for byte
    rank, pid = rng.randrange(tp), 10000 + rng.randrange(50000)
    graph = rng.choice(("model_forward_1", "model_forward_2"))
    failure = Failure(model, stack, tested_at, rng, run_py, tp, rank, pid, graph)
    error = fill(template, **values(failure, kind))
    return _spawn_wrap(error, tp, rank, run_py) if spawned else error


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


def new_columns() -> dict[str, list[Any]]:
    return {name: [] for name, _ in COLUMNS}


def append_row(
    cols: dict[str, list[Any]],
    model: Model,
    stack: StackFile,
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


def to_table(cols: dict[str, list[Any]], stack: StackFile) -> pa.Table:
    sch = stack.schema()
    canonical = {stack.cores_column: "tp"}
    return pa.table({f.name: pa.array(cols[canonical.get(f.name, f.name)], type=f.type) for f in sch}, schema=sch)


def write_table(table: pa.Table, path: Path) -> None:
    pq.write_table(table, path, compression="zstd")


def clear_parquet(out_dir: Path) -> None:
    for old in out_dir.glob("neuronxcc-*.parquet"):
        old.unlink()


def library_run_py(library: str, model_id: str, **values: Any) -> str:
    """The run.py for a model of a library beyond Transformers (a DiffusionPipeline, a SentenceTransformer)."""
    return template(f"run_py/{library}.py.tmpl").substitute(model_id=model_id, **values)


def library_error(kind: str, model_id: str, stack: StackFile, run_py: str, rng: random.Random) -> str:
    """A failure of a library model (a template in tracebacks/), with frames pointing into its run.py."""
    frames = {"module_frame": script_frame(run_py, "    main()", "<module>")}
    if "generate(pipe)" in run_py:
        frames["main_frame"] = script_frame(run_py, "image = generate(pipe)", "main")
        frames["generate_frame"] = script_frame(run_py, "return pipe(", "generate")
    else:
        frames["main_frame"] = script_frame(run_py, 'device="neuron"', "main")
    return fill(
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
