"""Which model records the app serves (`--models`), and live Hub look-ups for the ids they lack.

The store stands on the refresh engine (`refresh.RefreshingStore`): a look-up never runs on
a request's thread. `want()` queues ids (the queue is bounded; what does not fit is asked for again
the next time it is wanted) and requests a refresh; the refresh looks up a batch, each Hub call with
its own timeout and the batch under the base's read timeout, backing off when the Hub answers
nothing. Every answer — a record, "not on the Hub", "unreachable" — is cached, and each batch swaps
in a new immutable `Records`, so a request reads one consistent set.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx2
from huggingface_hub import HfApi
from huggingface_hub.errors import GatedRepoError, RepositoryNotFoundError

from components.runtime import environment, settings
from components.sources import records as record_files
from components.sources.errors import SourceError
from components.sources.records import (
    HUB_EXPAND,
    ModelRecord,
    Records,
    empty_records,
    hub_id,
    hub_json,
    load_records,
    parse_record,
)
from components.sources.refresh import Backoff, RefreshingStore

log = logging.getLogger(__name__)

NOT_AN_ID = "not a Hub model id"
OFFLINE = "no record in {source}, and the Hub is not asked (HF_HUB_OFFLINE is set)"
NOT_LIVE = "no record in {source} (live Hub look-ups are off with --models FILE)"
PENDING = "being looked up on the Hub"
NOT_ON_HUB = "the Hub has no public model with this id (it may be private or misspelt)"
BUSY = "not looked up yet: too many Hub look-ups are waiting"


def fetch_record(
    model_id: str, api: Any = None, timeout: float = settings.RECORD_LOOKUP_TIMEOUT.value
) -> ModelRecord | None:
    """Ask the Hub for one model's record; None when its answer has no usable id.
    Raises what huggingface_hub raises (RepositoryNotFoundError, GatedRepoError, HTTP and timeout errors).

    Asked once more at once when the answer was cut off by huggingface_hub itself: all its calls share
    one HTTP client, and any call that fails to connect (a rankings refresh while the Hub is away)
    closes that client under every other call in flight, which then fails with a read error on a
    closed socket. Without the second ask the model would read "could not be asked" for two minutes."""
    api = api or HfApi()
    try:
        info = api.model_info(model_id, expand=HUB_EXPAND, timeout=timeout)
    except (httpx2.ReadError, httpx2.WriteError, RuntimeError) as exc:
        if not _cut_off_by_a_closed_client(exc):
            raise
        info = api.model_info(model_id, expand=HUB_EXPAND, timeout=timeout)
    return parse_record(hub_json(info))


def _cut_off_by_a_closed_client(exc: BaseException) -> bool:
    """Whether `exc` is what a call sees when huggingface_hub's shared client is closed under it: a read
    or write on a closed socket (EBADF), or httpx refusing to send on a closed client."""
    if isinstance(exc, RuntimeError):
        return "client has been closed" in str(exc)
    cause = exc.__cause__ or exc.__context__
    return (isinstance(cause, OSError) and cause.errno == errno.EBADF) or "Bad file descriptor" in str(exc)


def _why_failed(exc: BaseException) -> tuple[str, float]:
    """A display-safe reason, and how long to trust it before asking again."""
    if isinstance(exc, GatedRepoError):
        return "the Hub keeps this model's files behind a gate and gave no record", 3600.0
    if isinstance(exc, RepositoryNotFoundError):
        return NOT_ON_HUB, 3600.0
    return f"the Hub could not be asked ({type(exc).__name__})", 120.0


class RecordsStore(RefreshingStore[Records]):
    """Holds the current Records on the refresh engine (`refresh.RefreshingStore`); `current()` is one
    attribute read. `source` is a record file, read at `begin()` (a SourceError naming a missing or bad
    file, unless it is only the fallback, `required=False`: then empty records say why), or Records
    already in memory, served from `begin()`.

    `live`: whether ids without a record are asked for on the Hub. `want()` queues ids and requests a
    refresh; each refresh (`read()`) looks up one batch of queued ids, `workers` at a time, and swaps
    in a new Records with what the Hub said. `fetch(model_id)` returns a ModelRecord (or None) and
    raises on failure; tests give a recorded one.
    """

    source_name = "records"

    def __init__(
        self,
        source: Records | str | os.PathLike[str],
        *,
        live: bool,
        required: bool = True,
        fetch: Callable[[str], ModelRecord | None] | None = None,
        timeout: float = settings.RECORD_LOOKUP_TIMEOUT.value,
        workers: int = settings.RECORD_LOOKUP_WORKERS.value,
        batch: int = settings.RECORD_LOOKUP_BATCH.value,
        max_pending: int = settings.RECORD_LOOKUPS_QUEUED.value,
        max_live: int = settings.RECORDS_LIVE.value,
        backoff: Backoff = Backoff(),
        max_unknown: int = settings.UNKNOWN_IDS.value,
        lookups_a_minute: int = settings.RECORD_LOOKUPS_A_MINUTE.value,
        clock: Callable[[], float] = time.monotonic,
    ):
        # a batch takes at most ceil(batch / workers) look-ups in a row, each within `timeout`
        rounds = -(-batch // max(workers, 1))
        super().__init__(read_timeout=timeout * rounds + 1.0, backoff=backoff, periodic=False)
        self.source = source
        self.live = live
        self.required = required
        self.timeout = timeout
        self.workers = max(workers, 1)
        self.batch = max(batch, 1)
        self.max_pending = max_pending
        self.max_live = max_live
        self._fetch = fetch or (lambda model_id: fetch_record(model_id, timeout=timeout))
        self._queued: dict[str, str] = {}  # casefolded id → id, oldest first
        self._in_flight: dict[str, str] = {}
        self.max_unknown = max_unknown
        self.lookups_a_minute = lookups_a_minute
        self._clock = clock
        # casefolded id → when a failed look-up may be repeated; oldest first, at most `max_unknown`
        self._retry_at: dict[str, float] = {}
        self._window = (-float("inf"), 0)  # (when this minute of look-ups began, how many were queued in it)
        self._live_ids: list[str] = []  # ids added by look-ups, oldest first: the ones dropped when full
        self._lock = threading.Lock()  # guards the queue; readers of current() never take it
        self._covered: object = None

    # ---- RefreshingStore -------------------------------------------------------------------------

    def first_value(self) -> Records:
        if isinstance(self.source, Records):
            return self.source
        try:
            return load_records(self.source)
        except SourceError as exc:
            if self.required:
                raise
            log.error("model records unusable: %s", exc)
            return empty_records("none", f"The bundled model records are unusable ({exc}).")

    def can_refresh(self) -> bool:
        return self.live and super().can_refresh()

    def kind_of(self, records: Records) -> str:
        return "hub" if records.source == "Hub" else "snapshot"

    def loaded_at_of(self, records: Records) -> datetime:
        return records.fetched_at or datetime.now(UTC)

    def read(self) -> Records:
        """Look up one batch of queued ids on the Hub; raises when the Hub answered none of them."""
        with self._lock:
            batch = dict(list(self._queued.items())[: self.batch])
            for key in batch:
                del self._queued[key]
            self._in_flight.update(batch)
        found: list[ModelRecord] = []
        unknown: dict[str, str] = {}
        failures: list[BaseException] = []
        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="records-lookup") as pool:
            for model_id, outcome in zip(batch.values(), pool.map(self._look_up, batch.values())):
                if isinstance(outcome, ModelRecord):
                    found.append(outcome)
                    continue
                reason, ttl = _why_failed(outcome)
                unknown[model_id] = reason
                with self._lock:
                    self._retry_later(model_id.casefold(), ttl)
                if not isinstance(outcome, RepositoryNotFoundError):
                    failures.append(outcome)
        if batch and len(failures) == len(batch):
            raise failures[0]  # the Hub answered for none: back off before the next batch
        return self._merged(found, unknown)

    def on_failure(self, error: str, exc: BaseException) -> None:
        with self._lock:
            failed = dict(self._in_flight)
            self._in_flight.clear()
        reason, ttl = _why_failed(exc)
        with self._lock:
            for key in failed:
                self._retry_later(key, ttl)
        self._swap(self.current().added((), {model_id: reason for model_id in failed.values()}, self.max_unknown))

    def on_success(self, records: Records) -> None:
        with self._lock:
            self._in_flight.clear()

    def after_attempt(self) -> None:
        with self._lock:
            more = bool(self._queued)
        if more and not self._failures:
            self._wake.set()  # the next batch at once; after a failure the back-off decides

    # ---- look-ups --------------------------------------------------------------------------------

    @property
    def asks_hub(self) -> bool:
        return self.can_refresh()

    def why_unknown(self, model_id: str) -> str:
        """Why `model_id` has no record right now, in words for the page and the API."""
        records = self.current()
        if hub_id(model_id) is None:
            return NOT_AN_ID
        key = model_id.strip().casefold()
        with self._lock:
            if key in self._queued or key in self._in_flight:
                return PENDING
        reason = records.why_unknown(model_id)
        if reason:
            return reason
        if not self.live:
            return NOT_LIVE.format(source=records.source)
        if not super().can_refresh():
            return OFFLINE.format(source=records.source)
        return BUSY

    def want(self, model_ids: Iterable[str]) -> None:
        """Queue Hub look-ups for the ids that have no record (never blocks; a full queue drops the rest)."""
        if not self.asks_hub:
            return
        records = self.current()
        now = self._clock()
        added = False
        with self._lock:
            started, count = self._window
            if now - started >= settings.RECORD_LOOKUP_WINDOW.value:
                started, count = now, 0
            for asked in model_ids:
                model_id = hub_id(asked)
                if model_id is None or records.get(model_id) is not None:
                    continue
                key = model_id.casefold()
                if key in self._queued or key in self._in_flight or self._retry_at.get(key, 0.0) > now:
                    continue
                if len(self._queued) >= self.max_pending or count >= self.lookups_a_minute:
                    break
                self._queued[key] = model_id
                count += 1
                added = True
            self._window = (started, count)
        if added and not self._failures:  # after a failure, the queued ids wait for the back-off
            self.request_refresh()

    def cover(self, model_ids: Iterable[str], owner: object) -> None:
        """`want` the ids of one dataset snapshot, once per snapshot (`owner`)."""
        if owner is not self._covered:
            self._covered = owner
            self.want(model_ids)

    def lookup(self, model_id: str, wait: float = 0.0) -> ModelRecord | None:
        """The record of `model_id`, queuing a Hub look-up when there is none; waits up to `wait` s for it."""
        record = self.current().get(model_id)
        if record is not None or not self.asks_hub:
            return record
        self.want([model_id])
        deadline = time.monotonic() + max(wait, 0.0)
        key = model_id.strip().casefold()
        while time.monotonic() < deadline:
            with self._lock:
                if key not in self._queued and key not in self._in_flight:
                    break
            time.sleep(0.05)
        return self.current().get(model_id)

    def _retry_later(self, key: str, ttl: float) -> None:
        """Note when `key` may be looked up again (with the lock held): the newest `max_unknown` are kept,
        and the oldest dropped first (a dropped id is asked again when wanted: one Hub call)."""
        self._retry_at.pop(key, None)
        self._retry_at[key] = self._clock() + ttl
        for old in list(self._retry_at)[: max(len(self._retry_at) - self.max_unknown, 0)]:
            del self._retry_at[old]

    def _look_up(self, model_id: str) -> ModelRecord | BaseException:
        try:
            record = self._fetch(model_id)
            if record is None or record.model_id.casefold() != model_id.casefold():
                raise ValueError("the Hub's answer named no model or another model")
            return record
        # The fetch talks to the network and parses its answer: whatever it raises becomes
        # "unknown, because ..." for this id, and the batch goes on.
        except Exception as exc:  # noqa: BLE001
            return exc

    def _merged(self, found: list[ModelRecord], unknown: dict[str, str]) -> Records:
        current = self.current()
        self._live_ids.extend(r.model_id for r in found)
        if len(self._live_ids) > self.max_live:
            dropped = {m.casefold() for m in self._live_ids[: -self.max_live]}
            del self._live_ids[: -self.max_live]
            current = Records(
                {k: v for k, v in current.models.items() if k.casefold() not in dropped},
                current.source, current.fetched_at, current.note, current.unknown,
            )  # fmt: skip
        return current.added(found, unknown, self.max_unknown)


def resolve_records(source: str | None = None) -> RecordsStore:
    """The store for `--models` (or env SUPPORT_MODELS when `source` is None); nothing is read until its
    `begin()`.

    "" → the bundled snapshot plus live look-ups for ids it lacks; "hub" → live look-ups only;
    a file path → that file only (its `begin()` raises SourceError naming a missing or invalid file).
    """
    if source is None:
        source = environment.SUPPORT_MODELS.get()
    source = source.strip()
    if source.lower() == "hub":
        return RecordsStore(empty_records("Hub", "Live Hub records."), live=True)
    if source == "":
        return RecordsStore(record_files.BUNDLED_RECORDS, live=True, required=False)
    return RecordsStore(Path(source).expanduser(), live=False)
