"""A per-address allowance of costly work: each client address may start `burst` units at once and earns
one more every `60 / per_minute` seconds (a token bucket). The addresses remembered are bounded: past
`max_addresses`, the one heard from least recently is forgotten (and starts again with a full allowance).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from components.runtime import settings
from components.sources.bounded import Bounded


class Allowance:
    """How much costly work each client address may still start; `take(address)` spends one unit."""

    def __init__(
        self,
        burst: int,
        per_minute: float,
        max_addresses: int = settings.ALLOWANCE_ADDRESSES.value,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.burst = burst
        self.every = 60.0 / per_minute
        self.max_addresses = max_addresses
        self.clock = clock
        self.left: Bounded[tuple[float, float]] = Bounded(max_entries=max_addresses)  # address -> (units, as of when)
        self.lock = threading.Lock()

    def take(self, address: str) -> bool:
        """Spend one unit of `address`'s allowance; False (nothing spent) when it has none left."""
        now = self.clock()
        with self.lock:
            held = self.left.find(address)
            units, since = (float(self.burst), now) if held is None else held.value
            units = min(float(self.burst), units + (now - since) / self.every)
            allowed = units >= 1.0
            self.left.put(address, (units - 1.0 if allowed else units, now))  # the least recently seen go first
            return allowed
