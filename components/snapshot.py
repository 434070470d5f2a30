"""The immutable in-memory snapshot every handler reads, and what it knows about itself.

A snapshot is built once per load and never changed; a refresh builds a new one and swaps
it in whole (see `store.py`), so a request that took a snapshot sees one consistent dataset.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from components.columns import STACK_KEY
from components.results import PASS, result_kind
from components.versions import newest_first


@dataclass(frozen=True)
class Skipped:
    """Something the loader passed over: a file, or rows and values inside one."""

    file: str
    reason: str


@dataclass(frozen=True)
class Provenance:
    """Where the data came from, for the page header and the API."""

    source: str  # display-safe: never a token or an absolute local path
    kind: str  # "hub", "local" or "sample"
    files_read: int = 0
    rows_read: int = 0
    newest_tested_at: datetime | None = None
    loaded_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    fallback_reason: str | None = None

    @property
    def is_sample(self) -> bool:
        return self.kind == "sample"


@dataclass(frozen=True)
class Stack:
    """One neuronx-cc × library × library version, with its counts."""

    neuronx_cc: str
    library: str
    library_version: str
    models: int
    passed: int

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.neuronx_cc, self.library, self.library_version)

    def as_dict(self) -> dict:
        return {
            "neuronx_cc": self.neuronx_cc,
            "library": self.library,
            "library_version": self.library_version,
            "models": self.models,
            "passed": self.passed,
        }


_NON_ALNUM = re.compile(r"[\W_]+", re.UNICODE)


def search_key(text: str) -> str:
    """Lower case with punctuation and spaces removed: `Qwen/Qwen3-0.6B` → `qwenqwen306b`."""
    return _NON_ALNUM.sub("", str(text).casefold())


class Snapshot:
    """One loaded dataset: rows (one per model and stack), stacks newest first, provenance.

    Treat every attribute as read-only; nothing mutates a snapshot after construction.
    """

    def __init__(self, rows: pd.DataFrame, provenance: Provenance, skipped: tuple[Skipped, ...] = ()):
        rows = rows.reset_index(drop=True)
        self.rows = rows
        self.provenance = provenance
        self.skipped = tuple(skipped)
        kinds = [result_kind(r, e) for r, e in zip(rows["result"], rows["exclusion"])]
        self.kind = np.array(kinds, dtype=object)
        self._stack_rows: dict[tuple[str, str, str], np.ndarray] = {}
        stacks = []
        if len(rows):
            groups = rows.groupby(list(STACK_KEY), sort=False, observed=True).indices
            for key, positions in groups.items():
                positions = np.sort(positions)
                self._stack_rows[key] = positions
                passed = int((self.kind[positions] == PASS).sum())
                stacks.append(Stack(*key, models=len(positions), passed=passed))
        cc_rank = {v: i for i, v in enumerate(newest_first(s.neuronx_cc for s in stacks))}
        lv_rank = {v: i for i, v in enumerate(newest_first(s.library_version for s in stacks))}
        self.stacks: tuple[Stack, ...] = tuple(
            sorted(stacks, key=lambda s: (cc_rank[s.neuronx_cc], s.library, lv_rank[s.library_version]))
        )
        self._model_rows: dict[str, np.ndarray] = (
            {k: np.sort(v) for k, v in rows.groupby("model_id", sort=False, observed=True).indices.items()}
            if len(rows)
            else {}
        )
        self.model_keys: dict[str, str] = {m: search_key(m) for m in self._model_rows}
        self._model_by_fold: dict[str, str] = {m.casefold(): m for m in self._model_rows}

        self._memo: OrderedDict[Hashable, object] = OrderedDict()
        self._memo_lock = threading.Lock()

    MEMO_SIZE = 256

    def memo(self, key: Hashable, compute: Callable[[], object]) -> object:
        """Compute once per snapshot (a small LRU): answers die with the snapshot they came from."""
        with self._memo_lock:
            if key in self._memo:
                self._memo.move_to_end(key)
                return self._memo[key]
        value = compute()
        with self._memo_lock:
            self._memo[key] = value
            while len(self._memo) > self.MEMO_SIZE:
                self._memo.popitem(last=False)
        return value

    # ---- stacks -------------------------------------------------------------------------

    @property
    def newest(self) -> Stack | None:
        return self.stacks[0] if self.stacks else None

    def compilers(self) -> list[str]:
        """neuronx-cc versions, newest first."""
        seen: dict[str, None] = {}
        for s in self.stacks:
            seen.setdefault(s.neuronx_cc, None)
        return list(seen)

    def library_versions(self, neuronx_cc: str) -> list[Stack]:
        """The stacks of one compiler, newest library version first."""
        return [s for s in self.stacks if s.neuronx_cc == neuronx_cc]

    def resolve_stack(self, neuronx_cc: str | None = "", library_version: str | None = "") -> Stack | None:
        """The stack asked for; an empty or unknown compiler means the newest, and an empty or
        unknown library version the newest one on that compiler. None only when there is no data."""
        if not self.stacks:
            return None
        cc = (neuronx_cc or "").strip()
        lv = (library_version or "").strip()
        candidates = [s for s in self.stacks if s.neuronx_cc == cc]
        if not candidates and cc:
            # people type the public part of a version: 2.28.7631.0 for 2.28.7631.0+82129205
            candidates = [s for s in self.stacks if s.neuronx_cc.split("+", 1)[0] == cc]
        if not candidates:
            candidates = list(self.stacks[:1])
            candidates = [s for s in self.stacks if s.neuronx_cc == candidates[0].neuronx_cc]
        for s in candidates:
            if s.library_version == lv:
                return s
        return candidates[0]

    def stack_positions(self, stack: Stack) -> np.ndarray:
        return self._stack_rows.get(stack.key, np.empty(0, dtype=np.int64))

    # ---- models -------------------------------------------------------------------------

    def canonical_model_id(self, model_id: str) -> str | None:
        """The dataset's spelling of a model id, matched case-insensitively; None if unknown."""
        text = (model_id or "").strip()
        if text in self._model_rows:
            return text
        return self._model_by_fold.get(text.casefold())

    def model_positions(self, model_id: str) -> np.ndarray:
        return self._model_rows.get(model_id, np.empty(0, dtype=np.int64))

    def row_for(self, model_id: str, stack: Stack) -> int | None:
        """Position of the model's row on a stack, or None when it was not run there."""
        common = np.intersect1d(self.model_positions(model_id), self.stack_positions(stack), assume_unique=True)
        return int(common[0]) if len(common) else None

    def __len__(self) -> int:
        return len(self.rows)
