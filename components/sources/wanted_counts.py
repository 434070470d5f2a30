"""The wanted counts: lookups of untested models per model and day, each address counted at most once a
model a day (`queries/wanted.py` decides which lookups count and ranks them).

`Wanted` keeps a day's salt (in memory only, replaced when the day turns) and the set of keyed hashes of
(address, model) already counted that day; the address itself is never kept, and neither the salt nor the
hashes outlive the day or the process. The salt is random, or, with a secret the replicas share (env
`WANTED_SECRET`), derived from it and the day: every replica then hashes an address alike. What is kept, and
persisted when a store is attached (`wanted_store.py`), is a model id and a day's count of distinct askers;
other replicas' counts, read back from their files, are held apart (`merge_others`) so a reread replaces them.

A lookup of an id the Hub has not confirmed yet (not in the data, no Hub record yet) is held apart, unchecked,
and counted only once the Hub knows the id (`confirm`); an id the Hub does not know is dropped (`drop`), so a
made-up id is never counted, ranked or persisted. `queries/wanted.py` decides which is which.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from components.runtime import environment, settings


@dataclass(frozen=True)
class Counted:
    """One model's lookups: the total over the window and the last day it was looked up."""

    model_id: str
    lookups: int
    last_day: date


def today() -> date:
    return datetime.now(UTC).date()


def shared_secret(env: dict[str, str] | None = None) -> bytes | None:
    """env `WANTED_SECRET`, the secret the replicas share for the day's salt; None when unset."""
    secret = environment.WANTED_SECRET.get(env)
    return secret.encode() if secret else None


def day_salt(day: date, secret: bytes | None) -> bytes:
    """The salt of `day`: from `secret` (the same on every replica; not reversible to it), else random."""
    if secret is None:
        return secrets.token_bytes(16)
    return hmac.new(secret, b"wanted-salt\0" + day.isoformat().encode(), hashlib.sha256).digest()[:16]


class Wanted:
    """The counts, safe to share between threads. `sink(day, model_id)` is told of each counted lookup
    (the store appends it); `persisted` says whether the counts outlive the process."""

    def __init__(
        self,
        clock: Callable[[], date] = today,
        max_ids: int = settings.WANTED_IDS.value,
        max_seen: int = settings.WANTED_SEEN.value,
        window_days: int = settings.WANTED_DAYS.value,
        max_unchecked: int = settings.WANTED_UNCHECKED.value,
        sink: Callable[[date, str], None] | None = None,
        persisted: bool = False,
        secret: bytes | None = None,
    ):
        self.clock = clock
        self.max_ids, self.max_seen, self.window_days = max_ids, max_seen, window_days
        self.max_unchecked = max_unchecked
        self.unchecked: dict[str, Counter[date]] = {}  # ids the Hub has not confirmed yet -> their askers by day
        self.sink = sink
        self.persisted = persisted
        self.lock = threading.Lock()
        self.days: dict[str, Counter[date]] = {}  # model id -> its count on each day
        self.totals: Counter[str] = Counter()  # model id -> its count over the window (for the rarest)
        self.day = clock()
        self.secret = secret
        self.salt = day_salt(self.day, secret)
        self.seen: set[int] = set()
        self.others: Counter[tuple[date, str]] = Counter()  # other replicas' counts, as last read back
        self.version = 0  # changes with every count: the ranking is cached against it

    def note(self, model_id: str, address: str, checked: bool = True) -> bool:
        """Count one lookup of `model_id` by `address` (not `checked`: hold it until the Hub confirms the id);
        False when that address already counted it today (or today's memory of askers, or of unchecked ids,
        is full)."""
        with self.lock:
            day = self._turn()
            key = int.from_bytes(
                hashlib.blake2b(f"{address}\0{model_id}".encode(), key=self.salt, digest_size=8).digest(), "big"
            )
            if key in self.seen or len(self.seen) >= self.max_seen:
                return False
            if not checked:
                if model_id not in self.unchecked and len(self.unchecked) >= self.max_unchecked:
                    return False
                self.seen.add(key)
                self.unchecked.setdefault(model_id, Counter())[day] += 1
                self.version += 1
                return True
            self.seen.add(key)
            self._add(day, model_id, 1)
        if self.sink is not None:
            self.sink(day, model_id)
        return True

    def confirm(self, model_id: str, as_id: str | None = None) -> None:
        """The Hub knows `model_id`: its held lookups count now, under `as_id` (the Hub's spelling) if given."""
        with self.lock:
            held = self.unchecked.pop(model_id, None)
            oldest = self._turn() - timedelta(days=self.window_days)
            days = [(day, n) for day, n in (held or {}).items() if day > oldest]
            for day, n in days:
                self._add(day, as_id or model_id, n)
            self.version += 1
        if self.sink is not None:
            for day, n in days:
                for _ in range(n):
                    self.sink(day, as_id or model_id)

    def drop(self, model_id: str) -> None:
        """The Hub does not know `model_id`: its held lookups are forgotten."""
        with self.lock:
            if self.unchecked.pop(model_id, None) is not None:
                self.version += 1

    def held(self) -> list[Counted]:
        """The ids held until the Hub confirms them, most lookups first (then most recent, then by id)."""
        with self.lock:
            self._turn()
            found = [Counted(m, sum(d.values()), max(d)) for m, d in self.unchecked.items() if d]
        return sorted(found, key=lambda c: (-c.lookups, -c.last_day.toordinal(), c.model_id))

    def merge_others(self, counts: Counter[tuple[date, str]]) -> None:
        """Other replicas' counts by (day, model), read back from their files: they replace the last ones read."""
        with self.lock:
            today_ = self._turn()
            for (day, model_id), lookups in self.others.items():
                self._remove(day, model_id, lookups)
            oldest = today_ - timedelta(days=self.window_days)
            self.others = Counter({key: n for key, n in counts.items() if key[0] > oldest and n > 0})
            for (day, model_id), lookups in self.others.items():
                self._add(day, model_id, lookups)

    def counted(self) -> list[Counted]:
        """Every model kept, most lookups first (then most recently looked up, then by id)."""
        with self.lock:
            self._turn()
            found = [Counted(m, self.totals[m], max(d)) for m, d in self.days.items() if d]
        return sorted(found, key=lambda c: (-c.lookups, -c.last_day.toordinal(), c.model_id))

    def _turn(self) -> date:
        """Today; when the day has turned, a new salt, no askers remembered, and days past the window dropped."""
        day = self.clock()
        if day != self.day:
            self.day, self.salt = day, day_salt(day, self.secret)
            self.seen = set()
            oldest = day - timedelta(days=self.window_days)
            for model in list(self.unchecked):
                self.unchecked[model] = Counter({d: n for d, n in self.unchecked[model].items() if d > oldest})
                if not self.unchecked[model]:
                    del self.unchecked[model]
            for model in list(self.days):
                kept = Counter({d: n for d, n in self.days[model].items() if d > oldest})
                if kept:
                    self.days[model], self.totals[model] = kept, sum(kept.values())
                else:
                    del self.days[model], self.totals[model]
        return day

    def _add(self, day: date, model_id: str, lookups: int) -> None:
        if model_id not in self.days and len(self.days) >= self.max_ids:
            # the rarest goes: fewest lookups, then the one unseen longest
            rarest = min(self.days, key=lambda m: (self.totals[m], max(self.days[m], default=day)))
            del self.days[rarest], self.totals[rarest]
        self.days.setdefault(model_id, Counter())[day] += lookups
        self.totals[model_id] += lookups
        self.version += 1

    def _remove(self, day: date, model_id: str, lookups: int) -> None:
        days = self.days.get(model_id)
        if days is None or day not in days:  # dropped meanwhile (the window, or the rarest)
            return
        taken = min(days[day], lookups)
        days[day] -= taken
        self.totals[model_id] -= taken
        if days[day] <= 0:
            del days[day]
        if not days:
            del self.days[model_id], self.totals[model_id]
        self.version += 1
