"""The immutable in-memory snapshot every handler reads, and what it knows about itself.

A snapshot is built once per load and never changed; a refresh builds a new one and swaps
it in whole (see `dataset_store.py`), so a request that took a snapshot sees one consistent dataset.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from components.domain.results import PASS, result_kind
from components.domain.stacks import (
    STACK_KEY,
    Stack,
    StackRef,
    library_order,
    resolve,
    resolve_or_default,
    resolve_picker,
)
from components.domain.versions import newest_first
from components.runtime import settings
from components.sources.memo import approx_bytes
from components.sources.moment_cache import MomentCache

__all__ = ["LastGood", "Provenance", "Skipped", "Snapshot", "Stack"]

T = TypeVar("T")


@dataclass(frozen=True)
class Skipped:
    """Something the loader passed over: a file, or rows and values inside one."""

    file: str
    reason: str


@dataclass(frozen=True)
class LastGood:
    """A file that could not be read when it last changed, whose rows from its last good read are served: the
    stacks it holds stay (a sync that leaves a file half-written must not take a stack away)."""

    file: str
    key: str  # the unreadable version's key (listing.py): the same failure is counted once
    stacks: tuple[StackRef, ...]


@dataclass(frozen=True)
class Provenance:
    """Where the data came from, for the page header and the API."""

    source: str  # display-safe: never a token or an absolute local path
    kind: str  # "hub", "local" or "sample"
    files_read: int = 0
    rows_read: int = 0
    newest_tested_at: datetime | None = None
    loaded_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    fallback_reason: str | None = None

    @property
    def is_sample(self) -> bool:
        return self.kind == "sample"


_NON_ALNUM = re.compile(r"[\W_]+", re.UNICODE)


def search_key(text: str) -> str:
    """Lower case with punctuation and spaces removed: `Qwen/Qwen3-0.6B` → `qwenqwen306b`."""
    return _NON_ALNUM.sub("", str(text).casefold())


def token_key(text: str) -> str:
    """Lower case, each run of punctuation one space, with a leading space: ` qwen qwen3 0 6b`.
    A word found after a space starts where a name's word starts: `qwen3` is in `Qwen3-8B`,
    not in `Qwen-32B`."""
    return " " + _NON_ALNUM.sub(" ", str(text).casefold()).strip()


def result_kinds(result: pd.Series, exclusion: pd.Series) -> np.ndarray:
    """`result_kind` of every row, worked out once per distinct (result, has exclusion) pair."""
    result_codes, results = pd.factorize(result)
    exclusion_codes, exclusions = pd.factorize(exclusion)
    # code -1 (a missing value) reads the extra last entry
    excluded = np.array([isinstance(e, str) and bool(e.strip()) for e in exclusions] + [False])[exclusion_codes]
    table = np.array([[result_kind(r, None), result_kind(r, "excluded")] for r in [*results, None]], dtype=object)
    return table[result_codes, excluded.astype(np.int64)]


def _factorize_rows(rows: pd.DataFrame, columns: tuple[str, ...]) -> tuple[np.ndarray, list[tuple]]:
    """Number the distinct value combinations of `columns` in order of appearance: (codes, combinations)."""
    per_column = [pd.factorize(rows[c]) for c in columns]
    sizes = tuple(len(values) + 1 for _, values in per_column)  # +1: a missing value (code -1) counts too
    combined = np.ravel_multi_index(tuple(np.asarray(codes) + 1 for codes, _ in per_column), sizes)
    codes, firsts = pd.factorize(combined)
    parts = np.unravel_index(firsts, sizes)
    values = [[None, *values] for _, values in per_column]
    return codes.astype(np.int64), [tuple(v[i] for v, i in zip(values, part)) for part in zip(*parts)]


def _group_positions(codes: np.ndarray, groups: int) -> list[np.ndarray]:
    """For each code 0..groups-1, the ascending positions where it occurs."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(groups + 1))
    return [order[bounds[i] : bounds[i + 1]] for i in range(groups)]


def _model_keys(model_ids: tuple[str, ...], previous: Snapshot | None) -> tuple[pa.Array, pa.Array]:
    """`search_key` and `token_key` of every model, in order; those `previous` had are taken from it."""
    known = {}
    if previous is not None and previous.model_ids:
        known = dict(zip(previous.model_ids, zip(previous._model_keys.to_pylist(), previous._model_tokens.to_pylist())))
    keys = [known.get(m) or (search_key(m), token_key(m)) for m in model_ids]
    return pa.array([k for k, _ in keys], pa.string()), pa.array([t for _, t in keys], pa.string())


class ByPosition:
    """A categorical column read by position: its codes, and its categories taken out of pandas once, so a value
    costs two array reads where `Categorical[i]` costs ~5 µs (a new model link reads ~100 of them: issue 48).
    Each value is the one pandas reads there (a missing one too)."""

    __slots__ = ("codes", "values", "missing")

    def __init__(self, column: pd.Categorical):
        self.codes = column.codes
        categories = column.categories
        if categories.dtype == object or isinstance(categories.dtype, pd.StringDtype):
            self.values = np.asarray(categories, dtype=object)  # each a Python str, as pandas reads it
        else:  # numbers, times: each boxed as pandas boxes it (np.float64, Timestamp)
            self.values = np.empty(len(categories), dtype=object)
            self.values[:] = [categories[i] for i in range(len(categories))]
        absent = np.flatnonzero(self.codes < 0)
        self.missing = column[int(absent[0])] if len(absent) else None

    def __getitem__(self, position: int) -> object:
        code = self.codes[position]
        return self.values[code] if code >= 0 else self.missing

    def __len__(self) -> int:
        return len(self.codes)

    def __sizeof__(self) -> int:  # what `Snapshot.memo` weighs it at: the categories taken out of pandas
        return object.__sizeof__(self) + approx_bytes(self.values)


class Snapshot:
    """One loaded dataset: rows (one per model and stack), stacks newest first, provenance.

    Treat every attribute as read-only; nothing mutates a snapshot after construction.
    """

    def __init__(
        self,
        rows: pd.DataFrame,
        provenance: Provenance,
        skipped: tuple[Skipped, ...] = (),
        previous: Snapshot | None = None,
        last_good: tuple[LastGood, ...] = (),
    ):
        """`previous`: an earlier snapshot of the same source, whose models' search keys are taken as they are;
        `last_good`: the files whose rows are those of their last good read (each is in `skipped` too)."""
        rows = rows.reset_index(drop=True)
        self.rows = rows
        self.provenance = provenance
        self.skipped = tuple(skipped)
        self.last_good = tuple(last_good)
        self.kind = result_kinds(rows["result"], rows["exclusion"]) if len(rows) else np.empty(0, dtype=object)

        # Models are numbered in name order, so sorting by code sorts by name.
        codes, models = pd.factorize(rows["model_id"], sort=True) if len(rows) else ([], [])
        self.model_ids: tuple[str, ...] = tuple(models)
        self.model_code: np.ndarray = np.asarray(codes, dtype=np.int64)
        self._model_rows: dict[str, np.ndarray] = dict(
            zip(self.model_ids, _group_positions(self.model_code, len(models)))
        )
        self._model_keys, self._model_tokens = _model_keys(self.model_ids, previous)
        self._model_by_fold: dict[str, str] = {m.casefold(): m for m in self.model_ids}

        self._stack_rows: dict[StackRef, np.ndarray] = {}
        self._stack_code: dict[StackRef, int] = {}
        self.stack_code: np.ndarray = np.zeros(len(rows), dtype=np.int64)
        stacks = []
        if len(rows):
            self.stack_code, uniques = _factorize_rows(rows, STACK_KEY)
            passed = np.bincount(self.stack_code[self.kind == PASS], minlength=len(uniques))
            for code, (key, positions) in enumerate(zip(uniques, _group_positions(self.stack_code, len(uniques)))):
                self._stack_rows[StackRef(*key)] = positions
                self._stack_code[StackRef(*key)] = code
                neuronx_cc, library, library_version = key
                stacks.append(Stack(neuronx_cc, library, library_version, len(positions), int(passed[code])))
        cc_rank = {v: i for i, v in enumerate(newest_first(s.neuronx_cc for s in stacks))}
        lv_rank = {v: i for i, v in enumerate(newest_first(s.library_version for s in stacks))}
        # Transformers first on each compiler: the page and `""` in every endpoint mean its newest stack.
        self.stacks: tuple[Stack, ...] = tuple(
            sorted(stacks, key=lambda s: (cc_rank[s.neuronx_cc], library_order(s.library), lv_rank[s.library_version]))
        )

        self._memo = MomentCache(max_bytes=settings.MEMO_BYTES.value, weigh=approx_bytes)

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """Compute once per snapshot, kept while it fits the byte bound: answers die with their snapshot.
        Concurrent requests for one key compute it once."""
        return self._memo.get((), key, compute)  # the snapshot is the moment: its cache dies with it

    # ---- stacks -------------------------------------------------------------------------

    @property
    def newest(self) -> Stack | None:
        return self.stacks[0] if self.stacks else None

    @property
    def newest_of_each_library(self) -> tuple[Stack, ...]:
        """Each library's newest stack, Transformers first: what a search that names no stack covers."""
        newest: dict[str, Stack] = {}
        for s in self.stacks:
            newest.setdefault(s.library, s)
        return tuple(sorted(newest.values(), key=lambda s: library_order(s.library)))

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
        """The stack asked for (see `stacks.resolve`); raises UnknownStack. None only when there is no data."""
        return resolve(self.stacks, neuronx_cc, library_version)

    def stack_or_default(self, neuronx_cc: str | None = "", library_version: str | None = "") -> Stack | None:
        """The stack asked for, or a default for an unknown one (the page's choice, see `stacks.resolve_or_default`)."""
        return resolve_or_default(self.stacks, neuronx_cc, library_version)

    def picker_stack(self, value: str | None, default: Stack | None = None) -> Stack | None:
        """The stack a picker of whole stacks names (see `stacks.resolve_picker`); `default` for no value."""
        return resolve_picker(self.stacks, value, default)

    def model_stack(self, model_id: str | None) -> Stack | None:
        """The model's own stack, where a one-model answer that names no stack speaks (a link, a lookup, a
        badge, a card, wanted): the newest stack of the library the model was last run with, so a Diffusers
        model answers on the newest Diffusers stack, never "not tested" on another library's; for a model
        without a run (or not in the data), the newest stack (Transformers first). The one place this is
        decided."""
        canonical = self.canonical_model_id(model_id or "")
        positions = self.model_positions(canonical) if canonical else np.empty(0, dtype=np.int64)
        codes = set(self.stack_code[positions].tolist())
        ran = next((s for s in self.stacks if self._stack_code[s.ref] in codes), None)
        if ran is None:
            return self.newest
        return next(s for s in self.stacks if s.library == ran.library)

    def stack_positions(self, stack: StackRef) -> np.ndarray:
        return self._stack_rows.get(stack.ref, np.empty(0, dtype=np.int64))

    # ---- models -------------------------------------------------------------------------

    def canonical_model_id(self, model_id: str) -> str | None:
        """The dataset's spelling of a model id, matched case-insensitively; None if unknown."""
        text = (model_id or "").strip()
        if text in self._model_rows:
            return text
        return self._model_by_fold.get(text.casefold())

    def model_positions(self, model_id: str) -> np.ndarray:
        return self._model_rows.get(model_id, np.empty(0, dtype=np.int64))

    def row_for(self, model_id: str, stack: StackRef) -> int | None:
        """Position of the model's row on a stack, or None when it was not run there."""
        code = self._stack_code.get(stack.ref)
        positions = self.model_positions(model_id)
        if code is None or not len(positions):
            return None
        on_stack = positions[self.stack_code[positions] == code]
        return int(on_stack[0]) if len(on_stack) else None

    def record(self, position: int) -> dict:
        """One row as {column: value}, read column by column (a row Series would mix every dtype)."""
        return {name: column[position] for name, column in self.columns().items()}

    def columns(self) -> dict[str, pd.api.extensions.ExtensionArray | ByPosition]:
        """Each column's array, taken once per snapshot: a value read from it by position is the one `iat` reads,
        without `iat`'s ~10 µs (a model's answer reads several rows of 26 columns). Pandas' own (no copy), but a
        categorical column (most of them) is read through its codes (`ByPosition`: ~5 µs a value less)."""

        def arrays() -> dict[str, pd.api.extensions.ExtensionArray | ByPosition]:
            return {
                str(name): ByPosition(column.array) if isinstance(column.array, pd.Categorical) else column.array
                for name, column in self.rows.items()
            }

        return self.memo(("columns",), arrays)

    def matching_models(self, words: tuple[str, ...]) -> np.ndarray:
        """A mask over `model_ids`: the models whose search key contains every word."""
        mask = np.ones(len(self.model_ids), dtype=bool)
        for word in words:
            mask &= pc.match_substring(self._model_keys, word).to_numpy(zero_copy_only=False)
        return mask

    def aligned_words(self, texts: tuple[str, ...]) -> np.ndarray:
        """Per model of `model_ids`: how many of the query's words start where a word of its name starts."""
        count = np.zeros(len(self.model_ids), dtype=np.int64)
        for text in texts:
            count += pc.match_substring(self._model_tokens, token_key(text)).to_numpy(zero_copy_only=False)
        return count

    def with_provenance(self, **changes) -> Snapshot:
        """The same rows (and their computed answers) under a provenance with `changes`; this snapshot is
        left as it is."""
        other = copy.copy(self)
        other.provenance = dataclasses.replace(self.provenance, **changes)
        return other

    def __len__(self) -> int:
        return len(self.rows)
