"""Values by key in a bounded store: the one least-recently-used store behind the app's bounded maps.

`Bounded` keeps each value with its size and the time it was kept, drops the least recently used (or, for a store
read only by `pop`, the oldest) past `max_entries` entries or `max_bytes` bytes, and treats a value older than `ttl`
seconds as gone. It holds no lock: each owner reads and writes it under its own. Its owners:

- `moment_cache.MomentCache`: the answers of one data moment (`Snapshot.memo`, the first HTML, the Models page's
  load answers and rows, the cards), by entries, bytes and age;
- `web/allowance.Allowance`: the client addresses an allowance remembers, by entries;
- `web/gradio/direct_calls.UnreadResults`: the unread results of plain calls, by bytes and age, each read once.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, NamedTuple, TypeVar

V = TypeVar("V")


class Entry(NamedTuple, Generic[V]):
    """A kept value, its size (by the store's `weigh`; 0 without one) and when it was kept (by the store's clock)."""

    value: V
    size: int
    when: float


class Bounded(Generic[V]):
    """Values by key, least recently used first; `max_entries` and `max_bytes` (which needs `weigh`, a value's bytes)
    bound what is kept (None: no bound of that kind), and `ttl` how many seconds of `clock` a value is kept at
    most. Not thread-safe: its owner holds a lock around every call."""

    def __init__(
        self,
        max_entries: int | None = None,
        max_bytes: int | None = None,
        weigh: Callable[[V], int] | None = None,
        ttl: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        if max_bytes is not None and weigh is None:
            raise ValueError("a byte bound needs `weigh`")
        self.max_entries, self.max_bytes, self.weigh, self.ttl, self.clock = max_entries, max_bytes, weigh, ttl, clock
        self.bytes = 0  # what the kept values weigh, by `weigh`
        self._kept: OrderedDict[Hashable, Entry[V]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._kept

    def find(self, key: Hashable) -> Entry[V] | None:
        """The entry of `key`, now the most recently used; None when none is kept or it is past `ttl` (then dropped)."""
        found = self._kept.get(key)
        if found is None:
            return None
        if self.ttl is not None and self.clock() - found.when > self.ttl:
            self.pop(key)
            return None
        self._kept.move_to_end(key)
        return found

    def put(self, key: Hashable, value: V, size: int | None = None) -> int:
        """Keep `value` under `key` (its `size` given, else weighed), the most recently used; then drop the least
        recently used while a bound is passed, never `value` itself (an owner that must not keep a value heavier
        than `max_bytes` checks before). Returns how many others were dropped."""
        self.pop(key)
        size = (self.weigh(value) if self.weigh is not None else 0) if size is None else size
        self._kept[key] = Entry(value, size, self.clock())
        self.bytes += size
        dropped = 0
        while len(self._kept) > 1 and (
            (self.max_entries is not None and len(self._kept) > self.max_entries)
            or (self.max_bytes is not None and self.bytes > self.max_bytes)
        ):
            _, old = self._kept.popitem(last=False)
            self.bytes -= old.size
            dropped += 1
        return dropped

    def pop(self, key: Hashable) -> Entry[V] | None:
        """Forget `key`; its entry, or None when none was kept."""
        found = self._kept.pop(key, None)
        if found is not None:
            self.bytes -= found.size
        return found

    def oldest(self) -> Entry[V] | None:
        """The least recently used entry (the oldest, where values are only kept and popped), or None."""
        return next(iter(self._kept.values()), None)

    def expire(self) -> int:
        """Drop the values past `ttl`, from the least recently used, stopping at the first that is not; how many."""
        gone = 0
        while self.ttl is not None and (first := self.oldest()) is not None and self.clock() - first.when >= self.ttl:
            self._kept.popitem(last=False)
            self.bytes -= first.size
            gone += 1
        return gone

    def clear(self) -> None:
        """Forget everything."""
        self._kept.clear()
        self.bytes = 0
