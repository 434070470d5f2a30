"""What a computed answer weighs: the byte bound of a snapshot's memoised answers (`Snapshot.memo`, a
`moment_cache.MomentCache`); and the serial numbers their keys name the rankings and records by.

Bounding by entry count let memory follow the answers' size: 256 cached 10,000-row answers held
gigabytes. Each answer is weighed once, when kept, and the least recently used go when the total passes
the bound.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pandas as pd

# Containers deeper than this are weighed shallowly: an answer is a few levels of tuples, dicts and lists.
_DEPTH = 6
# A longer container is weighed by this many items spread over it, scaled up: answers' lists are uniform.
_SAMPLE = 256
_SERIALS = itertools.count()


def serial() -> int:
    """A number no other data value of this process has: what a memo's key names a `Rankings` or `Records` by. A
    number keeps nothing alive and is never given twice, as an object's `id()` is once the object is gone."""
    return next(_SERIALS)


def approx_bytes(value: object, _depth: int = 0) -> int:
    """Roughly the memory `value` holds: arrays and frames by their buffers, containers by their items,
    anything else by `sys.getsizeof` (its `__sizeof__`: an answer object says what it holds)."""
    if isinstance(value, np.ndarray):
        if value.dtype == object and _depth < _DEPTH:
            return value.nbytes + _items_bytes(value.ravel().tolist(), _depth + 1)
        return value.nbytes
    if isinstance(value, pd.DataFrame | pd.Series | pd.Index):
        usage = value.memory_usage(deep=True)
        return int(usage.sum()) if isinstance(usage, pd.Series) else int(usage)
    size = sys.getsizeof(value)
    if _depth >= _DEPTH:
        return size
    if isinstance(value, dict):
        return size + _items_bytes(list(value.items()), _depth + 1)
    if isinstance(value, list | tuple | set | frozenset):
        return size + _items_bytes(list(value), _depth + 1)
    return size


def _items_bytes(items: list, depth: int) -> int:
    if len(items) <= _SAMPLE:
        return sum(approx_bytes(v, depth) for v in items)
    step = len(items) / _SAMPLE
    sample = sum(approx_bytes(items[int(i * step)], depth) for i in range(_SAMPLE))
    return int(sample * len(items) / _SAMPLE)
