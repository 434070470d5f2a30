"""Shared test helpers: small Parquet files made on the spot, and the environment kept offline."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

ROOT = Path(__file__).resolve().parent.parent


def row(model_id="org/model-1B", cc="2.28.7631.0+82129205", lib_version="4.57.1", **fields) -> dict:
    """A plausible dataset row; override any field."""
    base = {
        "model_id": model_id,
        "library": "transformers",
        "tp": 1,
        "runner": "single-core",
        "result": "PASS",
        "notes": None,
        "error": None,
        "exclusion": None,
        "wall_s": 600,
        "hbm_peak_gb": 6.5,
        "hbm_capacity_gb": 24.0,
        "cpu_match": "match",
        "english": None,
        "neuronx_cc": cc,
        "library_version": lib_version,
        "transformers": lib_version,
        "accelerate": "1.10.1",
        "torch_neuronx": "2.9.0.2.11.19912+e48cd891",
        "torch": "2.9.0",
        "nki": "0.1.0",
        "python": "3.11.13",
        "neuron_driver": "2.24.7.0",
        "tested_at": pa.scalar(1764000000000, pa.timestamp("ms", tz="UTC")).as_py(),
        "run_py": f"# run {model_id}\n",
    }
    base.update(fields)
    return base


def write(path: Path, rows: list[dict], drop: tuple[str, ...] = (), schema: pa.Schema | None = None) -> Path:
    """Write rows to a Parquet file, leaving out the `drop` columns (schema drift)."""
    rows = [{k: v for k, v in r.items() if k not in drop} for r in rows]
    table = pa.Table.from_pylist(rows, schema=schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)
    return path


@pytest.fixture
def make_row():
    return row


@pytest.fixture
def write_parquet():
    return write
