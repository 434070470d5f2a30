"""Answers kept per data moment: what many callers ask of the same data is worked out once.

`MomentCache` is the one cache of computed answers: a snapshot's memoised queries (`Snapshot.memo`), a
link's first page and Gradio's own page answer it is made from (`web/middleware/first_html.py`), the page's
answer to a deep link and the table rows it shares with other links (`web/gradio/pages/models.py`,
`LOAD_ANSWERS`, `TABLES`) and a link's preview card (`web/routes/card.py`) each keep one.

- **Per moment.** Every call names the moment it asks about: a tuple of the data objects it was answered
  from (a `Moment`'s snapshot, rankings and records), compared by identity. When a call names another
  moment, every kept answer is dropped (new data: each may have changed), and an answer still being worked
  out for the old moment is handed only to the callers that asked about that moment, never kept. (A request
  that read the data just before a refresh and asks after it moves the cache back for a moment: rare, and it
  costs only answers worked out again.)
- **Bounded** by entries and, given a `weigh`, by bytes: the least recently used go first; an answer
  heavier than the whole byte bound is returned, not kept. With a `ttl`, an answer is kept that many
  seconds at most (a page's words about the data's age change with time).
- **Computed once.** While one caller works a key out, the others asking for it wait and take its answer
  (a thread blocks in `get`; a coroutine awaits in `get_async`). If the work raises, every waiter gets that
  error, nothing is kept, and the next call works it out again. If the worker was interrupted (its task
  cancelled), or its work raised `Declined` (the refusal concerns that caller, not the answer), the
  waiters try for themselves: one of them works it out.

Its answers are kept in a `bounded.Bounded` store, which also keeps an allowance's addresses and the unread results
of plain calls. What is not an answer of a moment keeps its own store: the loader's per-file tables
(`sources/file_cache.py`) and Gradio's compressed files (`web/gradio/assets.py`); `docs/architecture.md` lists every
cache, with its key, bound and reason.
"""

from __future__ import annotations

import asyncio
import operator
import threading
import time
from collections.abc import Awaitable, Callable, Hashable
from concurrent.futures import Future
from typing import Any, TypeVar, cast

from components.sources.bounded import Bounded, Entry
from components.sources.errors import Declined

T = TypeVar("T")


class _Retry:
    """What a waiter receives when the worker gave up for its own reasons: try again."""


_RETRY = _Retry()


class MomentCache:
    """Answers of one data moment by key, bounded and each computed once; thread-safe (see the module doc).

    `max_entries` and `max_bytes` (which needs `weigh`, an answer's bytes) bound what is kept (None: no
    bound of that kind); `ttl` is the most seconds an answer is kept, read from `clock`."""

    def __init__(
        self,
        max_entries: int | None = None,
        max_bytes: int | None = None,
        weigh: Callable[[Any], int] | None = None,
        ttl: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._kept: Bounded[Any] = Bounded(max_entries, max_bytes, weigh, ttl, clock)
        self.weigh = weigh
        self._pending: dict[Hashable, Future[Any]] = {}
        self._moment: tuple[object, ...] = ()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes(self) -> int:
        """What the kept answers weigh, by `weigh`."""
        return self._kept.bytes

    @property
    def max_bytes(self) -> int | None:
        return self._kept.max_bytes

    @max_bytes.setter
    def max_bytes(self, value: int | None) -> None:
        self._kept.max_bytes = value

    @property
    def max_entries(self) -> int | None:
        return self._kept.max_entries

    @property
    def ttl(self) -> float | None:
        return self._kept.ttl

    def __contains__(self, key: Hashable) -> bool:
        return key in self._kept

    def peek(self, moment: tuple[object, ...], key: Hashable, default: Any = None) -> Any:
        """The answer kept for `key` in `moment`, else `default`; never waits (an event loop may ask)."""
        with self._lock:
            found = self._found(moment, key)
        return default if found is None else found[0]

    def get(self, moment: tuple[object, ...], key: Hashable, compute: Callable[[], T]) -> T:
        """The answer for `key` in `moment`: the kept one, else the one being worked out (waiting for it), else
        `compute()`'s, kept for the next caller. Blocks: not for an event loop (use `peek` or `get_async`)."""
        with self._lock:  # a kept answer first, in the fewest steps: most look-ups end here
            found = self._found(moment, key)
        if found is not None:
            return found[0]
        while True:
            found, working, mine = self._claim(moment, key)
            if found is not None:
                return found[0]
            if mine is not None:
                break
            answer = cast(Future, working).result()  # another caller works it out; theirs raised: so does this
            if answer is not _RETRY:
                return cast(T, answer)
        try:
            answer = compute()
        except BaseException as error:
            self._failed(key, mine, error)
            raise
        return self._done(moment, key, mine, answer)

    async def get_async(self, moment: tuple[object, ...], key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        """`get` for an event loop: the kept answer at once, else the one being worked out (awaited, with no
        thread), else `await make()`'s, kept for the next caller."""
        with self._lock:
            found = self._found(moment, key)
        if found is not None:
            return found[0]
        while True:
            found, working, mine = self._claim(moment, key)
            if found is not None:
                return found[0]
            if mine is not None:
                break
            # shielded: a waiter cancelled (its client gone) must not cancel the work the others wait for
            answer = await asyncio.shield(asyncio.wrap_future(cast(Future, working)))
            if answer is not _RETRY:
                return cast(T, answer)
        try:
            answer = await make()
        except BaseException as error:
            self._failed(key, mine, error)
            raise
        return self._done(moment, key, mine, answer)

    # ---- the moment, checked here and only here -----------------------------------------------

    def _same(self, moment: tuple[object, ...]) -> bool:
        if moment is self._moment:
            return True
        if len(moment) != len(self._moment):
            return False
        return all(map(operator.is_, moment, self._moment))  # no generator: every look-up passes here

    def _found(self, moment: tuple[object, ...], key: Hashable) -> Entry[Any] | None:
        """The live entry for `key`, after moving to `moment` if it is new (under the lock)."""
        if not self._same(moment):  # new data: every answer may have changed
            self._kept.clear()
            self._pending.clear()  # their workers still answer their own waiters, who asked of the old data
            self._moment = moment
        return self._kept.find(key)

    def _claim(
        self, moment: tuple[object, ...], key: Hashable
    ) -> tuple[Entry[Any] | None, Future[Any] | None, Future[Any] | None]:
        """The kept entry; else the work under way, to wait on; else a new work, which this caller does (of the
        three, the one that is not None)."""
        with self._lock:
            found = self._found(moment, key)
            if found is not None:
                return found, None, None
            working = self._pending.get(key)
            if working is not None:
                return None, working, None
            mine: Future[Any] = Future()
            mine.set_running_or_notify_cancel()  # running: no one can cancel it from under its waiters
            self._pending[key] = mine
            return None, None, mine

    def _done(self, moment: tuple[object, ...], key: Hashable, mine: Future[Any], answer: T) -> T:
        """Keep `answer` if its moment is still the current one and it fits; hand it to the waiters."""
        size = self.weigh(answer) if self.weigh is not None else 0  # outside the lock: weighing takes time
        with self._lock:
            if self._pending.get(key) is mine:
                del self._pending[key]
            if self._same(moment) and (self.max_bytes is None or size <= self.max_bytes):
                self._kept.put(key, answer, size)
        mine.set_result(answer)
        return answer

    def _failed(self, key: Hashable, mine: Future[Any], error: BaseException) -> None:
        """Nothing kept; the waiters get `error`, or try for themselves when the worker gave up for itself."""
        with self._lock:
            if self._pending.get(key) is mine:
                del self._pending[key]
        if isinstance(error, Exception) and not isinstance(error, Declined):
            mine.set_exception(error)
        else:  # cancelled, interrupted or declined for its own caller
            mine.set_result(_RETRY)
