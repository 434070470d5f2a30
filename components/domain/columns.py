"""The one registry of the dataset's columns: their Arrow types and labels.

The loader, the table, the API and the exports all read it, so a column is described once.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from components.domain.stacks import STACK_KEY


@dataclass(frozen=True)
class Column:
    name: str
    type: pa.DataType
    label: str
    heavy: bool = False  # long free text, kept dictionary-encoded and only read per model


COLUMNS: tuple[Column, ...] = (
    Column("model_id", pa.string(), "Model"),
    Column("library", pa.string(), "Library"),
    Column("tp", pa.int32(), "Cores"),
    Column("runner", pa.string(), "Runner"),
    Column("result", pa.string(), "Result"),
    Column("notes", pa.string(), "Notes", heavy=True),
    Column("error", pa.string(), "Error", heavy=True),
    Column("exclusion", pa.string(), "Excluded because"),
    Column("wall_s", pa.int32(), "Wall time (s)"),
    Column("hbm_peak_gb", pa.float64(), "Peak HBM (GB)"),
    Column("hbm_capacity_gb", pa.float64(), "HBM capacity (GB)"),
    Column("cpu_match", pa.string(), "CPU comparison"),
    Column("english", pa.string(), "Judge"),
    Column("neuronx_cc", pa.string(), "neuronx-cc"),
    Column("library_version", pa.string(), "Library version"),
    Column("transformers", pa.string(), "Transformers"),
    Column("accelerate", pa.string(), "Accelerate"),
    Column("torch_neuronx", pa.string(), "torch-neuronx"),
    Column("torch", pa.string(), "torch"),
    Column("nki", pa.string(), "NKI"),
    Column("python", pa.string(), "Python"),
    Column("neuron_driver", pa.string(), "Neuron driver"),
    Column("tested_at", pa.timestamp("ms", tz="UTC"), "Tested at"),
    Column("run_py", pa.string(), "run.py", heavy=True),
)

BY_NAME: dict[str, Column] = {c.name: c for c in COLUMNS}
# Other names a column arrives under: the dataset's own documented query calls the cores `neuron_cores`.
ALIASES: dict[str, str] = {"neuron_cores": "tp"}
NAMES: tuple[str, ...] = tuple(c.name for c in COLUMNS)
HEAVY: tuple[str, ...] = tuple(c.name for c in COLUMNS if c.heavy)

# One row per model and stack (`stacks.StackRef`); the stack is what a person picks.
ROW_KEY: tuple[str, ...] = ("model_id",) + STACK_KEY

# The packages of the full stack, in the order the details panel lists them, with their pip names.
STACK_PACKAGES: tuple[tuple[str, str], ...] = (
    ("neuronx_cc", "neuronx-cc"),
    ("torch_neuronx", "torch-neuronx"),
    ("torch", "torch"),
    ("transformers", "transformers"),
    ("accelerate", "accelerate"),
    ("nki", "nki"),
)
