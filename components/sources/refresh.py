"""The refresh engine: a value read from a source, served at once and refreshed in the background.

`RefreshingStore` is the one base for every source the app reads (the dataset, the rankings, the
model records). It gives each the same behaviour and the same lifecycle:

- A store's constructor only records its configuration: nothing is read before `begin()`.
- `begin()` serves what is at hand (`first_value()`: a local file, a bundled snapshot, records given
  in memory) and starts the first network read in the background; `start()` then serves a first
  value, waiting at most what the source allows (the dataset: one second from `begin()`), and returns
  it. Both are idempotent; `stop()` ends the background refresh.
- `current()` is one attribute read; a refresh builds a new value and swaps it in whole.
- A background thread rereads every `refresh_seconds` (or only when asked, for sources that do not
  change on their own), sooner when a look every `check_seconds` finds the source `changed()` (one small
  call: how another replica's webhook reaches this one), and `request_refresh()` asks for a reread now: a burst of requests runs
  one read at a time with at most one more queued. `refresh()` reads once, on the caller's thread.
- Every read runs on a worker thread and is given up after `read_timeout` seconds. The abandoned
  read can no longer swap anything in and holds no lock, so the next refresh starts on time.
- After a failure the next attempt comes sooner than the period, backing off exponentially.
- The last good value stays served, and `source_status()` says what is served, from when, and why
  the latest attempt failed, in one shape (`SourceStatus`) for the page header and the API.

A source's own errors extend `errors.SourceError`, whose message is display-safe: it is shown as it
is; any other exception is shown through `errors.describe_error`, which scrubs it.

A new source subclasses `RefreshingStore`, names itself (`source_name`), and overrides `read()`
(the network read), and where needed `first_value()` and `reads_at_start()` (the lifecycle),
`accept()` (reject an answer: raise `Rejected`), `kind_of()` and `loaded_at_of()` (what the status
reports), `on_failure()` and `on_success()`. `RankingsStore` (rankings_store.py) is a small example.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

from huggingface_hub import constants as hf_constants

from components.runtime import settings
from components.sources import hub_log
from components.sources.errors import ReadTimeout, SourceError, describe_error

log = logging.getLogger(__name__)


T = TypeVar("T")


@dataclass(frozen=True)
class Backoff:
    """How soon to try again after `failures` failed attempts in a row: `first`, doubling, at most `cap`,
    and never later than the normal period."""

    first: float = settings.RETRY_FIRST.value
    cap: float = settings.RETRY_CAP.value

    def delay(self, failures: int, period: float) -> float:
        return min(self.first * 2 ** max(failures - 1, 0), self.cap, period)


@dataclass(frozen=True)
class SourceStatus:
    """What one source serves and how fresh it is; the same shape for every source."""

    source: str  # "dataset", "rankings", "records"
    kind: str  # what is served, e.g. "hub", "local", "sample", "live", "snapshot"
    loaded_at: datetime | None  # when what is served was read
    last_error: str | None  # why the latest attempt failed (display-safe), None after a success
    failures: int  # failed attempts in a row
    last_attempt_at: datetime | None
    next_attempt_at: datetime | None  # None when no attempt is planned (offline, local, stopped)
    refreshing: bool

    def age(self, now: datetime | None = None) -> timedelta | None:
        """How long ago what is served was read."""
        return None if self.loaded_at is None else (now or datetime.now(UTC)) - self.loaded_at

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON values, times in ISO 8601."""
        return {
            field.name: value.isoformat() if isinstance(value, datetime) else value
            for field in dataclasses.fields(self)
            for value in [getattr(self, field.name)]
        }


class RefreshingStore(Generic[T]):
    """A value read from a source, served at once and refreshed in the background (see the module doc)."""

    source_name = "source"

    def __init__(
        self,
        *,
        refresh_seconds: float = 3600.0,
        read_timeout: float = 60.0,
        backoff: Backoff = Backoff(),
        periodic: bool = True,
        check_seconds: float | None = None,
    ):
        self.refresh_seconds = refresh_seconds
        self.check_seconds = check_seconds or None  # None or 0: no looks between refreshes
        self.read_timeout = read_timeout
        self.backoff = backoff
        self.periodic = periodic
        self._value: T | None = None
        self._kind = "none"
        self._loaded_at: datetime | None = None
        self.last_error: str | None = None
        self._failures = 0
        self.failed_refreshes = 0  # every failed attempt since the start (`_failures` counts those in a row)
        self._last_attempt_at: datetime | None = None
        self._next_attempt_at: datetime | None = None
        self._refresh_lock = threading.Lock()  # one read at a time; readers of current() never take it
        self._swap_lock = threading.Lock()  # decides between a first value and a fallback
        self._abandoned = 0
        self._abandoned_lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._begun = False
        self._begun_at = 0.0  # time.monotonic() at `begin()`: what `settle()` bounds its wait from
        self._begin_lock = threading.Lock()

    # ---- the lifecycle ---------------------------------------------------------------------------

    def begin(self, *, refresh: bool = True) -> None:
        """Serve what is at hand (`first_value()`) and, for a source read over the network, start the first
        read in the background (not with `refresh=False`: the caller then calls `refresh()` itself, as
        tests and scripts do); never waits on the network. Idempotent; raises the source's SourceError
        when what is at hand cannot be read (a missing local folder, a broken snapshot file)."""
        with self._begin_lock:
            if self._begun:
                return
            self._begun_at = time.monotonic()
            value = self.first_value()
            if value is not None:
                self._swap(value)
            self._begun = True
        if refresh and self.reads_at_start():
            self.start_refreshing(now=True)

    def start(self) -> T:
        """`begin()`, then wait for a first value as long as the source allows (`settle`); returns it."""
        self.begin()
        self.settle()
        return self.current()

    # ---- what a subclass provides ----------------------------------------------------------------

    def first_value(self) -> T | None:
        """What needs no network (a local source, a bundled snapshot), or None when there is nothing to
        serve before a read; `begin()` calls it once and serves its value."""
        return None

    def reads_at_start(self) -> bool:
        """Whether `begin()` starts a background read at once."""
        return False

    def settle(self) -> None:
        """Wait, within the source's own bound, until a first value is served; `start()` calls it."""

    def read(self) -> T:
        """Read the source (runs on a worker thread, under `read_timeout`)."""
        raise NotImplementedError

    def accept(self, value: T) -> T:
        """Check a read's answer before it is served; raise `Rejected` to keep what is served."""
        return value

    def kind_of(self, value: T) -> str:
        return "live"

    def loaded_at_of(self, value: T) -> datetime:
        return datetime.now(UTC)

    def can_refresh(self) -> bool:
        """False when no read should be tried now (e.g. offline); `refresh()` then returns False."""
        return not hf_constants.is_offline_mode()

    def reader_label(self) -> str:
        """Who failed to answer, for the timeout message."""
        return f"the {self.source_name} source"

    def changed(self) -> bool:
        """Whether the source changed since what is served was read: a look cheaper than a read, taken every
        `check_seconds` on the refresh thread (a refresh follows when True). By default, never."""
        return False

    def on_failure(self, error: str, exc: BaseException) -> None:
        """Called after a failed attempt, `last_error` already set."""

    def on_success(self, value: T) -> None:
        """Called after a new value was swapped in."""

    # ---- serving ---------------------------------------------------------------------------------

    def current(self) -> T:
        """The value to serve now; read it once per request."""
        value = self._value
        if value is None:
            raise RuntimeError(f"{type(self).__name__}.start() has not been called")
        return value

    def _swap(self, value: T) -> None:
        self._kind = self.kind_of(value)
        self._loaded_at = self.loaded_at_of(value)
        self._value = value

    def _swap_if_empty(self, make: Callable[[], T]) -> bool:
        """Serve `make()` unless something is served already (a fallback never replaces real data)."""
        with self._swap_lock:
            if self._value is not None:
                return False
            self._swap(make())
            return True

    def source_status(self) -> SourceStatus:
        """What is served, from when, and how the refreshes go."""
        return SourceStatus(
            source=self.source_name,
            kind=self._kind,
            loaded_at=self._loaded_at,
            last_error=self.last_error,
            failures=self._failures,
            last_attempt_at=self._last_attempt_at,
            next_attempt_at=self._next_attempt_at if self._thread is not None and not self._stop.is_set() else None,
            refreshing=self._refresh_lock.locked(),
        )

    # ---- refreshing ------------------------------------------------------------------------------

    def refresh(self) -> bool:
        """Read the source once and swap the answer in; on failure keep what is served. Returns success."""
        if not self.can_refresh():
            return False
        with self._refresh_lock:
            self._last_attempt_at = datetime.now(UTC)
            try:
                value = self.accept(self._read_with_timeout())
            # The read talks to the network and parses its answers: whatever it raises must keep
            # what is served and leave the refresh thread alive to try again.
            except Exception as exc:  # noqa: BLE001
                self._failures += 1
                self.failed_refreshes += 1
                previous, self.last_error = (
                    self.last_error,
                    (str(exc) if isinstance(exc, SourceError) else describe_error(exc)),
                )
                self._log_failure(previous)
                self.on_failure(self.last_error, exc)
                return False
            with self._swap_lock:
                self._swap(value)
            if self._failures:
                log.info("%s refresh succeeded after %d failed attempts", self.source_name, self._failures)
            self._failures = 0
            self.last_error = None
            self.on_success(value)
            return True

    def _log_failure(self, previous: str | None) -> None:
        """A line for the first failure, with its cause, then one per step the back-off grows (or a new cause),
        never one per attempt: offline, a line per attempt was a line every minute or two, per source."""
        delay = self.backoff.delay(self._failures, self.refresh_seconds)
        stepped = self._failures > 1 and delay != self.backoff.delay(self._failures - 1, self.refresh_seconds)
        if self._failures == 1 or self.last_error != previous:
            log.warning("%s refresh failed: %s; next attempt in %g s", self.source_name, self.last_error, delay)
        elif stepped:
            capped = (
                " (the longest wait: logged again when the cause changes)"
                if delay == self.backoff.delay(self._failures + 1, self.refresh_seconds)
                else ""
            )
            log.warning(
                "%s refresh failed %d times in a row, still: %s; next attempt in %g s%s",
                self.source_name, self._failures, self.last_error, delay, capped,
            )  # fmt: skip
        else:
            log.debug("%s refresh failed again (%d in a row)", self.source_name, self._failures)

    def _read_with_timeout(self) -> T:
        """Run `read()` on its own daemon thread and stop waiting after `read_timeout` seconds.

        A read that outlives the wait writes into its own box, which nobody reads any more, so it
        cannot overwrite a later result.
        """
        with self._abandoned_lock:
            if self._abandoned >= settings.ABANDONED_READS.value:
                raise ReadTimeout(f"{self._abandoned} earlier reads of {self.reader_label()} still have not answered")
        box: dict[str, Any] = {}
        done = threading.Event()

        def work() -> None:
            try:
                box["value"] = self.read()
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
                box["error"] = exc
            finally:
                hub_log.forget(threading.get_ident())
                with self._abandoned_lock:
                    done.set()
                    if box.get("abandoned"):
                        self._abandoned -= 1

        worker = threading.Thread(target=work, name=f"{self.source_name}-read", daemon=True)
        worker.start()
        if not done.wait(self.read_timeout):
            with self._abandoned_lock:
                if not done.is_set():
                    box["abandoned"] = True
                    self._abandoned += 1
                    message = f"{self.reader_label()} did not answer within {self.read_timeout:g} s"
                    # huggingface_hub retries a failing call for ~23 s: name why it is still retrying
                    cause = hub_log.last_cause(worker.ident)
                    raise ReadTimeout(f"{message} (still retrying after {cause})" if cause else message)
        if "error" in box:
            raise box["error"]
        return box["value"]

    def start_refreshing(self, *, now: bool = False) -> None:
        """Start the background refresh thread (once); `now` makes its first attempt immediate."""
        if self._thread is not None:
            return
        if now:
            self._wake.set()
        self._thread = threading.Thread(target=self._refresh_forever, name=f"{self.source_name}-refresh", daemon=True)
        self._thread.start()

    def refresh_pending(self) -> bool:
        """True when a refresh was requested and has not started yet."""
        return self._wake.is_set()

    def request_refresh(self) -> bool:
        """Ask for a refresh now, without waiting for it. While one runs, at most one more is queued.
        Returns False when no refresh can run (offline, or stopped)."""
        if self._stop.is_set() or not self.can_refresh():
            return False
        self._wake.set()
        self.start_refreshing()
        return True

    def _delay(self) -> float | None:
        if self._failures:
            return self.backoff.delay(self._failures, self.refresh_seconds)
        return self.refresh_seconds if self.periodic else None

    def _refresh_forever(self) -> None:
        while not self._stop.is_set():
            delay = 0.0 if self._wake.is_set() else self._delay()
            self._next_attempt_at = None if delay is None else datetime.now(UTC) + timedelta(seconds=delay)
            self._wait(delay)
            if self._stop.is_set():
                return
            # cleared before the read: a request that arrives during it queues exactly one more
            self._wake.clear()
            self.refresh()
            self.after_attempt()

    def _wait(self, delay: float | None) -> None:
        """Until `delay` has passed (None: for ever), a refresh is asked for, or a look every `check_seconds`
        finds the source changed."""
        deadline = None if delay is None else time.monotonic() + delay
        while not self._stop.is_set():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return
            step = (
                left if self.check_seconds is None else min(self.check_seconds, left if left is not None else math.inf)
            )
            if self._wake.wait(step) or self._stop.is_set():
                return
            if deadline is not None and time.monotonic() >= deadline:
                return
            if self.can_refresh() and self._looked_changed():
                return

    def _looked_changed(self) -> bool:
        try:
            return self.changed()
        except Exception as exc:  # noqa: BLE001 - a failed look changes nothing; the next look or refresh tries again
            log.debug("%s: could not look for a change (%s)", self.source_name, describe_error(exc))
            return False

    def after_attempt(self) -> None:
        """Called on the refresh thread after each attempt, success or not."""

    def stop(self) -> None:
        """Stop the background refresh after its current attempt."""
        self._stop.set()
        self._wake.set()
