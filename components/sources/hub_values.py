"""Values as the Hub's JSON and ModelInfo objects give them, read defensively: a count, a score, a
parameter count, a time. The rankings and the model records both read these fields."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any


def count(value: Any) -> int | None:
    """A non-negative integer count, or None for anything else (booleans, negatives, fractions)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and value >= 0:
        return int(value)
    return None


def score(value: Any) -> float | None:
    """A finite number, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def parameter_count(safetensors: Any) -> int | None:
    """Total parameters from `safetensors` (a SafeTensorsInfo or its dict form): its `total`, else the
    sum of its per-dtype counts when every one is a count."""
    if safetensors is None:
        return None
    if isinstance(safetensors, Mapping):
        total, per_dtype = safetensors.get("total"), safetensors.get("parameters")
    else:
        total, per_dtype = getattr(safetensors, "total", None), getattr(safetensors, "parameters", None)
    if count(total):
        return count(total)
    if isinstance(per_dtype, Mapping) and per_dtype:
        counts = [count(value) for value in per_dtype.values()]
        if None not in counts:
            return sum(c for c in counts if c is not None) or None
    return None


def parse_time(value: Any) -> datetime | None:
    """An ISO 8601 time in UTC (a naive one is taken as UTC), or None."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
