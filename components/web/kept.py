"""Answers kept per data moment: what many visitors ask of the same data is worked out once.

`Kept` holds the most recent answers (bounded), each while the same data objects are served and for at
most `ttl` seconds (a page's notice says how old the data is, in words that change with time). Threads
asking for an answer being worked out wait for it instead of working it out again.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class Kept:
    """At most `size` answers of one moment, each at most `ttl` seconds old; thread-safe."""

    def __init__(self, size: int, ttl: float):
        self.size, self.ttl = size, ttl
        self.kept: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self.making: dict[Hashable, threading.Lock] = {}
        self.served: tuple[object, ...] = ()
        self.lock = threading.Lock()

    def peek(self, served: tuple[object, ...], key: Hashable) -> Any | None:
        """The answer kept for `key` while `served` is served, or None; never waits for one being worked out
        (an event loop may ask)."""
        with self.lock:
            found = self._fresh(served, key)
        return None if found is None else found[1]

    def get(self, served: tuple[object, ...], key: Hashable, make: Callable[[], Any]) -> Any:
        """The answer kept for `key` while `served` (the data objects of one moment) is served, else
        `make()`'s, kept for the next caller."""
        with self.lock:
            found = self._fresh(served, key)
            if found is not None:
                return found[1]
            making = self.making.setdefault(key, threading.Lock())
        with making:  # one thread works an answer out; the others asking for it wait and take it
            with self.lock:
                found = self._fresh(served, key)
            if found is not None:
                return found[1]
            answer = make()
            with self.lock:
                if self._same(served):
                    self.kept[key] = (time.monotonic(), answer)
                    while len(self.kept) > self.size:
                        self.kept.popitem(last=False)
                self.making.pop(key, None)
        return answer

    def _fresh(self, served: tuple[object, ...], key: Hashable) -> tuple[float, Any] | None:
        if not self._same(served):  # new data: every answer may have changed
            self.kept.clear()
            self.served = served
        found = self.kept.get(key)
        if found is None or time.monotonic() - found[0] > self.ttl:
            return None
        self.kept.move_to_end(key)
        return found

    def _same(self, served: tuple[object, ...]) -> bool:
        return len(served) == len(self.served) and all(a is b for a, b in zip(served, self.served, strict=True))
