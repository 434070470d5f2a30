"""A cache of computed answers bounded by bytes, that computes each answer once however many ask at once.

A snapshot keeps one (see `Snapshot.memo`). Bounding by entry count let memory follow the answers'
size: 256 cached 10,000-row answers held gigabytes. Here each entry is weighed once, when stored, and
the least recently used entries go when the total passes the bound.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

import numpy as np
import pandas as pd

# Containers deeper than this are weighed shallowly: an answer is a few levels of tuples, dicts and lists.
_DEPTH = 6
# A longer container is weighed by this many items spread over it, scaled up: answers' lists are uniform.
_SAMPLE = 256

T = TypeVar("T")


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


class Memo:
    """An LRU of answers holding at most `max_bytes` (by `approx_bytes`); an answer larger than the
    whole bound is returned but not kept. Thread-safe; concurrent requests for one key compute once."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
        self._pending: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()
        self.bytes = 0  # what the kept entries weigh, by `approx_bytes`

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The answer for `key`, computing it with `compute()` unless it is kept or being computed.
        A key is always computed by the same function, so what is kept under it is what `compute` returns."""
        while True:
            with self._lock:
                if key in self._entries:
                    self._entries.move_to_end(key)
                    return cast(T, self._entries[key][0])
                waiting = self._pending.get(key)
                if waiting is None:
                    done = self._pending[key] = threading.Event()
                    break
            # Someone else is computing it: wait, then read it (or, if theirs failed or was too big, try).
            waiting.wait()
        try:
            value = compute()
            self._store(key, value, approx_bytes(value))
            return value
        finally:
            with self._lock:
                del self._pending[key]
            done.set()

    def _store(self, key: Hashable, value: object, size: int) -> None:
        if size > self.max_bytes:
            return
        with self._lock:
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.bytes -= dropped
