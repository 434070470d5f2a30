"""Write the bundled sample dataset, the bundled rankings snapshot, or a large synthetic dataset.

    python data/make_sample.py                          # data/sample/*.parquet + data/rankings_snapshot.json
    python data/make_sample.py --rows 200000 --out DIR  # synthetic benchmark dataset, Parquet files only

Everything is deterministic: fixed seeds, fixed dates, no network. Two runs write identical bytes.
All of it is made up (the README calls it sample data, and the page labels it so); what it is made of
lives in `data/sample_source/`: the model catalogue (`catalogue.csv`), the stacks and the story the
tests rely on (`story.json`), the ranking lists (`rankings.json`), run.py templates (`run_py/`) and
traceback templates with the values they are filled with (`tracebacks/`, `harness.json`).
`data/catalogue.py` reads them; `data/harness.py` writes one run's script, error and row.

The sample mirrors the published dataset `aws-neuron/torch-neuronx-model-support`: one Parquet file
per neuronx-cc × library pair, its column names and types, and its schema drift (the two oldest files
have no `exclusion` column). Its Transformers stacks, oldest first, are `catalogue.SAMPLE_STACKS`; note that
`2.26.10342.0` is newer than `2.26.9117.0` although it sorts first as a string.

What the sample guarantees, for tests of comparisons and de-duplication (`story.json`, as names in
`data/catalogue.py`):

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
- `LIBRARY_STACKS`: made-up diffusers 0.36.0 and sentence-transformers 5.1.2 files on the newest
  compiler, five models each with one FAIL; the sentence-transformers file names its cores column
  `neuron_cores`, the alias the dataset's own documentation uses.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a plain script from any directory
    sys.path.insert(0, str(REPO_ROOT))

from data.catalogue import (  # noqa: E402
    CATALOGUE,
    EXCLUDED,
    EXCLUSIONS,
    FAIL,
    FLASH_ATTN,
    HBM_PER_CORE_GB,
    LIBRARY_STACKS,
    MODELS,
    NOT_PRIORITIZED,
    PACKAGE_COLUMNS,
    PASS,
    RANKINGS,
    REMOTE_CODE,
    RERUN,
    SAMPLE_STACKS,
    SEED,
    STORY,
    TEXT,
    TOO_BIG,
    Model,
    StackFile,
    failure_kind,
    outcome_plan,
)
from data.harness import (  # noqa: E402
    append_row,
    clear_parquet,
    library_error,
    library_run_py,
    new_columns,
    to_table,
    write_table,
)

SAMPLE_DIR = REPO_ROOT / "data" / "sample"
RANKINGS_SNAPSHOT = REPO_ROOT / "data" / "rankings_snapshot.json"

# ---------------------------------------------------------------------------------------------
# The bundled sample


def sample_tables() -> dict[str, pa.Table]:
    """The sample dataset as {file name: table}, oldest stack first."""
    plans = {m.model_id: outcome_plan(m) for m in CATALOGUE}
    tables = {}
    for s, stack in enumerate(SAMPLE_STACKS):
        cols = new_columns()
        rng = random.Random(f"{SEED}:stack:{s}")
        at = stack.tested_from
        for model in CATALOGUE:
            outcome = plans[model.model_id][s]
            if outcome is None:
                continue
            if model.model_id == RERUN["model_id"] and stack.key == (RERUN["neuronx_cc"], RERUN["library_version"]):
                # The re-run after a runtime timeout is written first; the timed-out run follows it.
                rerun_at = at + timedelta(hours=30)
                append_row(cols, model, stack, PASS, rerun_at, rng, scale=0.985**s)
                cols["notes"][-1] = "re-run after an NRT timeout on this stack"
                wall = append_row(cols, model, stack, "nrt_timeout", at, rng, scale=0.985**s)
            else:
                wall = append_row(cols, model, stack, outcome, at, rng, scale=0.985**s)
            at += timedelta(seconds=wall + 40 + rng.randrange(120))
        tables[stack.file_name] = to_table(cols, stack)
    return tables


def library_tables() -> dict[str, pa.Table]:
    """The made-up files of libraries beyond Transformers as {file name: table}: one core per model."""
    tables = {}
    for stack, entry in zip(LIBRARY_STACKS, STORY["library_stacks"]):
        rng = random.Random(f"{SEED}:library:{stack.library}")
        cols = new_columns()
        at = stack.tested_from
        for model in entry["models"]:
            run_py = library_run_py(stack.library, model["model_id"], **model["run_py"])
            passed = model["result"] == PASS
            wall = (180 + 90 * model["params_b"] + rng.uniform(0, 120)) * (1 if passed else rng.uniform(0.3, 0.6))
            peak = round(model["params_b"] * 2 * rng.uniform(1.3, 1.6) + rng.uniform(0.3, 0.9), 2) if passed else None
            error = None if passed else library_error(model["result"], model["model_id"], stack, run_py, rng)
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
        tables[stack.file_name] = to_table(cols, stack)
    return tables


def write_sample(out_dir: str | Path = SAMPLE_DIR) -> list[Path]:
    """Write the sample dataset (one Parquet file per stack) to `out_dir`, replacing older sample files.

    Returns the paths written: the Transformers stacks oldest first, then the other libraries.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    clear_parquet(out_dir)
    paths = []
    for name, table in (sample_tables() | library_tables()).items():
        write_table(table, out_dir / name)
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


def synthetic_stacks(n: int = MAX_SYNTHETIC_STACKS) -> list[StackFile]:
    """The newest `n` (at most 20) synthetic stacks, oldest first: two Transformers versions per compiler.

    Only the two oldest of all 20 lack the `exclusion` column.
    """
    rng = random.Random(f"{SEED}:synthetic-stacks")
    stacks: list[StackFile] = []
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
            stacks.append(StackFile(cc, "transformers", tf, packages, tested_from, has_exclusion=idx >= 2))
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


def write_synthetic(out_dir: str | Path, rows: int, stacks: int | None = None) -> list[Path]:
    """Write a synthetic dataset of about `rows` rows to `out_dir`: one Parquet file per stack, nothing else.

    `stacks` stacks of equal size (by default up to 20, at least 100 rows each); the same models on every
    stack except a rotating 5% left out. run_py is the same for the same (model_id, tp); errors come from
    templates. Returns the paths written, oldest stack first. Raises ValueError if `rows` < 1 or `stacks` is
    not 1 to 20.
    """
    if rows < 1:
        raise ValueError(f"rows must be at least 1, got {rows}")
    if stacks is not None and not 1 <= stacks <= MAX_SYNTHETIC_STACKS:
        raise ValueError(f"stacks must be 1 to {MAX_SYNTHETIC_STACKS}, got {stacks}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    clear_parquet(out_dir)
    n_stacks = stacks or max(1, min(MAX_SYNTHETIC_STACKS, rows // ROWS_PER_STACK_MIN))
    stacks = synthetic_stacks(n_stacks)
    per_stack = [rows // n_stacks + (1 if s < rows % n_stacks else 0) for s in range(n_stacks)]
    width = max(per_stack)
    models = synthetic_models(width + max(1, width // 20))
    pool_rng = random.Random(f"{SEED}:synthetic-pool")
    quality = [pool_rng.random() for _ in models]
    kinds = [failure_kind(m, pool_rng) for m in models]
    exclusions = [pool_rng.choice(SYNTHETIC_EXCLUSIONS) for _ in models]
    error_cache: dict[tuple[Any, ...], str] = {}
    paths = []
    for s, stack in enumerate(stacks):
        rng = random.Random(f"{SEED}:synthetic:{s}")
        cols = new_columns()
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
            append_row(
                cols, model, stack, outcome, at, rng, exclusion=exclusion, scale=0.99**s, error_cache=error_cache
            )
            at += timedelta(seconds=61)
        path = out_dir / stack.file_name
        write_table(to_table(cols, stack), path)
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
