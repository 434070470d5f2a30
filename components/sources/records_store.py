"""Which model records the app serves (`--models`), and live Hub look-ups for the ids they lack.

A look-up never runs on a request's thread: `want()` queues ids for a few daemon workers (the
queue is bounded; what does not fit is asked for again the next time it is wanted), each Hub call
has its own timeout, and every answer — a record, "not on the Hub", "unreachable" — is cached.
Each answer that lands swaps in a new immutable `Records`, so a request reads one consistent set.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from huggingface_hub import HfApi
from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError

from components.sources.records import (
    BUNDLED_RECORDS,
    HUB_EXPAND,
    ModelRecord,
    Records,
    empty_records,
    hub_id,
    hub_json,
    load_records,
    parse_record,
)
from components.sources.store import hub_offline

log = logging.getLogger(__name__)

NOT_AN_ID = "not a Hub model id"
OFFLINE = "no record in {source}, and the Hub is not asked (HF_HUB_OFFLINE is set)"
NOT_LIVE = "no record in {source} (live Hub look-ups are off with --models FILE)"
PENDING = "being looked up on the Hub"
NOT_ON_HUB = "the Hub has no public model with this id (it may be private or misspelt)"
BUSY = "not looked up yet: too many Hub look-ups are waiting"


def fetch_record(model_id: str, api: Any = None, timeout: float = 8.0) -> ModelRecord | None:
    """Ask the Hub for one model's record; None when its answer has no usable id.
    Raises what huggingface_hub raises (RepositoryNotFoundError, GatedRepoError, HTTP and timeout errors)."""
    api = api or HfApi()
    return parse_record(hub_json(api.model_info(model_id, expand=HUB_EXPAND, timeout=timeout)))


def _why_failed(exc: BaseException) -> tuple[str, float]:
    """A display-safe reason, and how long to trust it before asking again."""
    if isinstance(exc, GatedRepoError):
        return "the Hub keeps this model's files behind a gate and gave no record", 3600.0
    if isinstance(exc, RepositoryNotFoundError):
        return NOT_ON_HUB, 3600.0
    return f"the Hub could not be asked ({type(exc).__name__})", 120.0


class RecordsStore:
    """Holds the current Records; `current()` is one attribute read.

    `live`: whether ids without a record are asked for on the Hub. `fetch(model_id)` returns a
    ModelRecord (or None) and raises on failure; tests give a recorded one.
    """

    def __init__(
        self,
        records: Records,
        *,
        live: bool,
        fetch: Callable[[str], ModelRecord | None] | None = None,
        timeout: float = 8.0,
        workers: int = 2,
        max_pending: int = 256,
        max_live: int = 4096,
    ):
        self.live = live
        self.timeout = timeout
        self.workers = workers
        self.max_live = max_live
        self._fetch = fetch or (lambda model_id: fetch_record(model_id, timeout=timeout))
        self._current = records
        self._queue: queue.Queue[str] = queue.Queue(maxsize=max_pending)
        self._pending: set[str] = set()
        self._retry_at: dict[str, float] = {}  # casefolded id → when a failed look-up may be repeated
        self._live_ids: list[str] = []  # ids added by look-ups, oldest first: the ones dropped when full
        self._lock = threading.Lock()  # guards the pending set and the swap; readers never take it
        self._threads: list[threading.Thread] = []
        self._covered: object = None

    def current(self) -> Records:
        """The records to serve now; read it once per request."""
        return self._current

    @property
    def asks_hub(self) -> bool:
        return self.live and not hub_offline()

    def why_unknown(self, model_id: str) -> str:
        """Why `model_id` has no record right now, in words for the page and the API."""
        records = self._current
        if hub_id(model_id) is None:
            return NOT_AN_ID
        reason = records.why_unknown(model_id)
        if reason:
            return reason
        if not self.live:
            return NOT_LIVE.format(source=records.source)
        if hub_offline():
            return OFFLINE.format(source=records.source)
        with self._lock:
            if model_id.strip().casefold() in self._pending:
                return PENDING
        return BUSY

    def want(self, model_ids: Iterable[str]) -> None:
        """Queue Hub look-ups for the ids that have no record (never blocks; a full queue drops the rest)."""
        if not self.asks_hub:
            return
        records = self._current
        now = time.monotonic()
        for model_id in model_ids:
            model_id = hub_id(model_id)
            if model_id is None or records.get(model_id) is not None:
                continue
            key = model_id.casefold()
            with self._lock:
                if key in self._pending or self._retry_at.get(key, 0.0) > now:
                    continue
                try:
                    self._queue.put_nowait(model_id)
                except queue.Full:
                    return
                self._pending.add(key)
            self._start_workers()

    def cover(self, model_ids: Iterable[str], owner: object) -> None:
        """`want` the ids of one dataset snapshot, once per snapshot (`owner`)."""
        if owner is not self._covered:
            self._covered = owner
            self.want(model_ids)

    def lookup(self, model_id: str, wait: float = 0.0) -> ModelRecord | None:
        """The record of `model_id`, queuing a Hub look-up when there is none; waits up to `wait` s for it."""
        record = self._current.get(model_id)
        if record is not None or not self.asks_hub:
            return record
        self.want([model_id])
        deadline = time.monotonic() + min(max(wait, 0.0), self.timeout)
        key = model_id.strip().casefold()
        while time.monotonic() < deadline:
            with self._lock:
                if key not in self._pending:
                    break
            time.sleep(0.05)
        return self._current.get(model_id)

    def _start_workers(self) -> None:
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            while len(self._threads) < self.workers:
                thread = threading.Thread(target=self._work, name="records-lookup", daemon=True)
                thread.start()
                self._threads.append(thread)

    def _work(self) -> None:
        while True:
            try:
                model_id = self._queue.get(timeout=30)
            except queue.Empty:
                return  # idle workers end; `want` starts new ones
            self._look_up(model_id)

    def _look_up(self, model_id: str) -> None:
        key = model_id.casefold()
        try:
            record = self._fetch(model_id)
            if record is None or record.model_id.casefold() != key:
                raise ValueError("the Hub's answer named no model or another model")
        # The fetch talks to the network and parses its answer: whatever it raises is cached as
        # "unknown, because ..." and the worker lives on.
        except Exception as exc:  # noqa: BLE001
            reason, ttl = _why_failed(exc)
            log.warning("model record %s: %s", model_id, reason)
            with self._lock:
                self._retry_at[key] = time.monotonic() + ttl
                self._current = self._current.added((), {model_id: reason})
                self._pending.discard(key)
            return
        with self._lock:
            self._live_ids.append(record.model_id)
            current = self._current
            if len(self._live_ids) > self.max_live:
                dropped = {m.casefold() for m in self._live_ids[: -self.max_live]}
                del self._live_ids[: -self.max_live]
                current = Records(
                    {k: v for k, v in current.models.items() if k.casefold() not in dropped},
                    current.source, current.fetched_at, current.note, current.unknown,
                )  # fmt: skip
            self._current = current.added([record])
            self._pending.discard(key)


def resolve_records(source: str | None = None) -> RecordsStore:
    """The store for `--models` (or env SUPPORT_MODELS when `source` is None).

    "" → the bundled snapshot plus live look-ups for ids it lacks; "hub" → live look-ups only;
    a file path → that file only. Raises ValueError naming a missing or invalid file.
    """
    if source is None:
        source = os.environ.get("SUPPORT_MODELS", "")
    source = source.strip()
    if source.lower() == "hub":
        return RecordsStore(empty_records("Hub", "Live Hub records."), live=True)
    if source == "":
        try:
            records = load_records(BUNDLED_RECORDS)
        except ValueError as exc:
            log.error("bundled model records unusable: %s", exc)
            records = empty_records("none", f"The bundled model records are unusable ({exc}).")
        return RecordsStore(records, live=True)
    return RecordsStore(load_records(Path(source).expanduser()), live=False)
