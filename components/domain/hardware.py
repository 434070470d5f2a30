"""Trainium2 instances and the harness's sizing rule, read from `data/trn2.json` (the one place they live)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

HARDWARE_FILE = Path(__file__).resolve().parents[2] / "data" / "trn2.json"


@dataclass(frozen=True)
class Instance:
    name: str
    devices: int
    cores: int  # logical NeuronCores at the default LNC=2
    hbm_gb: int


@dataclass(frozen=True)
class Hardware:
    hbm_per_core_gb: float
    bytes_per_parameter: float
    headroom: float  # activations, KV cache and runtime buffers on top of the weights
    core_degrees: tuple[int, ...]
    instances: tuple[Instance, ...]  # smallest first

    def smallest_instance(self, cores: object) -> Instance | None:
        """The smallest instance with at least `cores` cores; None for no usable count or too many."""
        if isinstance(cores, bool) or not isinstance(cores, (int, float)) or not math.isfinite(cores) or cores < 1:
            return None
        return next((i for i in self.instances if i.cores >= cores), None)

    def smallest_instances(self, cores: np.ndarray) -> np.ndarray:
        """`smallest_instance` over an array of core counts (floats, NaN where unknown), by name: an object array
        of instance names, None where no instance fits (unknown, below 1, more cores than any instance has)."""
        values = np.asarray(cores, dtype=float)
        sizes = np.array([i.cores for i in self.instances], dtype=float)
        names = np.array([i.name for i in self.instances] + [None], dtype=object)
        at = np.searchsorted(sizes, values, side="left")  # the first instance with at least that many cores
        usable = np.isfinite(values) & (values >= 1)
        return names[np.where(usable, at, len(self.instances))]

    def instance_cores(self) -> dict[str, int]:
        """Each instance's cores, by its name (what a sort by instance compares)."""
        return {i.name: i.cores for i in self.instances}

    def cores_for(self, num_parameters: int | None) -> int | None:
        """The fewest cores, of the degrees the harness uses, whose HBM holds the weights in bf16 with
        headroom; None when the count is unknown or no degree is enough."""
        if not num_parameters or num_parameters <= 0:
            return None
        need_gb = num_parameters * self.bytes_per_parameter * self.headroom / 1e9
        return next((d for d in self.core_degrees if d * self.hbm_per_core_gb >= need_gb), None)


@cache
def hardware() -> Hardware:
    data = json.loads(HARDWARE_FILE.read_text(encoding="utf-8"))
    instances = tuple(sorted((Instance(**i) for i in data["instances"]), key=lambda i: i.cores))
    return Hardware(
        hbm_per_core_gb=float(data["hbm_per_core_gb"]),
        bytes_per_parameter=float(data["bytes_per_parameter"]),
        headroom=float(data["headroom"]),
        core_degrees=tuple(sorted(int(d) for d in data["core_degrees"])),
        instances=instances,
    )
