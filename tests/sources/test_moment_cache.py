"""`MomentCache`: one answer per key and data moment, computed once however many ask, bounded, and safe when
the computation raises or is abandoned."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import Future

import numpy as np
import pytest

from components.sources.errors import Declined
from components.sources.memo import approx_bytes
from components.sources.moment_cache import MomentCache
from tests.helpers import run_async

KB = 1024
WAIT = 10  # seconds a test waits at most for what it expects (a bound, not a pause)


class Watched(MomentCache):
    """A cache that counts the callers that found the key being worked out (and so wait for it)."""

    def __init__(self, **bounds):
        super().__init__(**bounds)
        self.waiting = self.working = 0
        self.counted = threading.Condition()

    def _claim(self, moment, key):
        found, working, mine = super()._claim(moment, key)
        with self.counted:
            self.waiting += working is not None
            self.working += mine is not None
            self.counted.notify_all()
        return found, working, mine

    def wait_for_waiters(self, count: int) -> None:
        with self.counted:
            assert self.counted.wait_for(lambda: self.waiting >= count, WAIT), f"{self.waiting} of {count} waiting"

    def wait_for_workers(self, count: int) -> None:
        with self.counted:
            assert self.counted.wait_for(lambda: self.working >= count, WAIT), f"{self.working} of {count} working"


def ask_from_threads(count: int, ask) -> tuple[list, list[Exception], list[threading.Thread]]:
    """`ask()` from `count` threads at once: their answers and errors as they come, and the threads."""
    answers: list = []
    errors: list[Exception] = []

    def one() -> None:
        try:
            answers.append(ask())
        except Exception as error:  # noqa: BLE001 - collected for the test to read
            errors.append(error)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    return answers, errors, threads


def join(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.join(WAIT)
        assert not thread.is_alive()


MOMENT = ("snapshot", "rankings", "records")


def test_a_burst_of_100_threads_on_one_key_computes_it_once_and_all_take_that_answer():
    cache = Watched(max_entries=4)
    release = threading.Event()
    calls: list[int] = []

    def compute():
        calls.append(1)
        assert release.wait(WAIT)
        return ["answer"]

    answers, errors, threads = ask_from_threads(100, lambda: cache.get(MOMENT, "k", compute))
    cache.wait_for_waiters(99)  # every other thread waits on the one computing
    release.set()
    join(threads)
    assert calls == [1] and errors == []
    assert len(answers) == 100 and all(a is answers[0] for a in answers)
    assert cache.get(MOMENT, "k", lambda: pytest.fail("kept")) is answers[0]


def test_a_raise_reaches_every_waiter_keeps_nothing_and_the_next_call_computes_again():
    cache = Watched(max_entries=4)
    release = threading.Event()
    calls: list[int] = []

    def broken():
        calls.append(1)
        assert release.wait(WAIT)
        raise ValueError("no")

    answers, errors, threads = ask_from_threads(20, lambda: cache.get(MOMENT, "k", broken))
    cache.wait_for_waiters(19)
    release.set()
    join(threads)
    assert calls == [1] and answers == []  # computed once; the waiters got its error, none computed again
    assert len(errors) == 20 and all(isinstance(e, ValueError) for e in errors)
    assert "k" not in cache and cache._pending == {}  # nothing kept, nothing left locked
    assert cache.get(MOMENT, "k", lambda: "fine") == "fine"
    assert cache.get(MOMENT, "k", lambda: pytest.fail("kept")) == "fine"


def test_a_declined_computation_lets_a_waiter_compute_for_itself():
    cache = Watched()
    started, release = threading.Event(), threading.Event()
    callers: list[str] = []

    def declines():
        callers.append("first")
        started.set()
        assert release.wait(WAIT)
        raise Declined

    _, refused, first = ask_from_threads(1, lambda: cache.get(MOMENT, "k", declines))
    cache.wait_for_workers(1)
    assert started.wait(WAIT)
    answers, errors, threads = ask_from_threads(5, lambda: cache.get(MOMENT, "k", lambda: callers.append("w") or 7))
    cache.wait_for_waiters(5)
    release.set()
    join([*first, *threads])
    assert [type(e) for e in refused] == [Declined]  # its own caller gets the refusal
    assert errors == [] and answers == [7] * 5
    assert callers == ["first", "w"]  # one waiter computed; the others waited for it


def test_the_least_recently_used_go_past_the_entry_bound():
    cache = MomentCache(max_entries=2)
    made: list[str] = []
    for key in ("a", "b", "a", "c"):  # "a" used after "b": "b" goes
        cache.get(MOMENT, key, lambda key=key: made.append(key) or key)
    assert made == ["a", "b", "c"] and len(cache) == 2 and "a" in cache and "b" not in cache


def test_the_byte_bound_drops_the_least_recently_used_and_an_answer_bigger_than_it_is_returned_not_kept():
    cache = MomentCache(max_bytes=1000 * KB, weigh=approx_bytes)
    for i in range(100):
        cache.get((), i, lambda: np.zeros(100 * KB, dtype=np.uint8))
        cache.get((), 0, lambda: pytest.fail("0 was used last, so it is kept"))
        assert cache.bytes <= cache.max_bytes
    assert len(cache) == 10 and 0 in cache and 99 in cache and 1 not in cache
    assert cache.bytes == 10 * approx_bytes(np.zeros(100 * KB, dtype=np.uint8))
    big = cache.get((), "big", lambda: np.zeros(2000 * KB, dtype=np.uint8))
    assert len(big) == 2000 * KB and "big" not in cache and len(cache) == 10
    with pytest.raises(ValueError, match="weigh"):
        MomentCache(max_bytes=1)


def test_a_new_moment_drops_every_answer_of_the_old_one():
    cache = MomentCache(max_entries=8)
    old, new = (object(), object()), (object(), object())
    cache.get(old, "a", lambda: "old a")
    cache.get(old, "b", lambda: "old b")
    assert cache.peek(old, "a") == "old a"
    assert cache.get((old[0], new[1]), "a", lambda: "new a") == "new a"  # one object new: a new moment
    assert "b" not in cache and cache.peek(new, "a") is None and len(cache) == 0
    assert cache.get(new, "a", lambda: "newest a") == "newest a"


def test_an_answer_computed_for_an_old_moment_is_not_served_for_the_new_one():
    cache = MomentCache(max_entries=8)
    old, new = (object(),), (object(),)
    started, release = threading.Event(), threading.Event()

    def slow_old():
        started.set()
        assert release.wait(WAIT)
        return "old"

    answers, errors, threads = ask_from_threads(1, lambda: cache.get(old, "k", slow_old))
    assert started.wait(WAIT)
    # asked of the new data while the old answer is being worked out: worked out again, not waited for
    assert cache.get(new, "k", lambda: "new") == "new"
    release.set()
    join(threads)
    assert answers == ["old"] and errors == []  # the old caller gets what it asked for
    assert cache.get(new, "k", lambda: pytest.fail("kept")) == "new"  # and the old answer was not kept


def test_an_answer_is_kept_at_most_ttl_seconds_by_the_clock_given():
    now = [100.0]
    cache = MomentCache(max_entries=4, ttl=60.0, clock=lambda: now[0])
    calls: list[int] = []
    cache.get(MOMENT, "k", lambda: calls.append(1) or "a")
    now[0] += 60.0
    assert cache.peek(MOMENT, "k") == "a" and len(calls) == 1  # 60 s old: still kept
    now[0] += 0.5
    assert cache.peek(MOMENT, "k") is None  # older than the ttl: gone
    cache.get(MOMENT, "k", lambda: calls.append(1) or "b")
    assert len(calls) == 2 and cache.peek(MOMENT, "k") == "b"


def test_peek_never_waits_for_an_answer_being_worked_out():
    cache = MomentCache()
    started, release = threading.Event(), threading.Event()
    answers, errors, threads = ask_from_threads(
        1, lambda: cache.get(MOMENT, "k", lambda: started.set() or release.wait(WAIT) and "a")
    )
    assert started.wait(WAIT)
    assert cache.peek(MOMENT, "k", "absent") == "absent"
    release.set()
    join(threads)
    assert answers == ["a"] and cache.peek(MOMENT, "k") == "a"


def test_on_an_event_loop_a_burst_of_100_on_one_key_makes_it_once():
    cache = MomentCache(max_entries=2)
    made: list[str] = []

    def maker(key: str, gate: asyncio.Event):
        async def make():
            made.append(key)
            await gate.wait()  # the others arrive while it is being made
            return key.encode()

        return make

    async def scenario():
        gate = asyncio.Event()
        burst = [asyncio.ensure_future(cache.get_async(MOMENT, "a", maker("a", gate))) for _ in range(100)]
        await asyncio.sleep(0)  # each runs to its first wait: one makes, 99 wait for it
        assert made == ["a"] and not any(task.done() for task in burst)
        gate.set()
        assert set(await asyncio.gather(*burst)) == {b"a"} and made == ["a"]
        ready = asyncio.Event()
        ready.set()
        await cache.get_async(MOMENT, "b", maker("b", ready))
        await cache.get_async(MOMENT, "c", maker("c", ready))  # past the bound: "a" goes
        await cache.get_async(MOMENT, "a", maker("a", ready))
        assert made == ["a", "b", "c", "a"] and len(cache) == 2
        await cache.get_async(("new",), "c", maker("c", ready))  # new data: made again
        assert made[-1] == "c" and len(cache) == 1

    run_async(scenario())


def test_on_an_event_loop_a_cancelled_waiter_leaves_the_work_and_a_cancelled_worker_hands_it_on():
    cache = MomentCache()

    async def scenario():
        gate = asyncio.Event()
        calls: list[str] = []

        async def make(name: str):
            calls.append(name)
            await gate.wait()
            return name

        worker = asyncio.ensure_future(cache.get_async(MOMENT, "k", lambda: make("worker")))
        waiter = asyncio.ensure_future(cache.get_async(MOMENT, "k", lambda: make("waiter")))
        other = asyncio.ensure_future(cache.get_async(MOMENT, "k", lambda: make("other")))
        while not calls:
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        waiter.cancel()  # a waiter's client goes: the work goes on for the others
        await asyncio.sleep(0)
        worker.cancel()  # the worker's client goes: a waiter takes the work over
        with pytest.raises(asyncio.CancelledError):
            await worker
        while len(calls) < 2:
            await asyncio.sleep(0)
        gate.set()
        assert await other == "other" and calls == ["worker", "other"]
        assert waiter.cancelled()
        assert cache.peek(MOMENT, "k") == "other"

    run_async(scenario())


def test_on_an_event_loop_a_raise_reaches_the_waiters_and_the_next_call_makes_it_again():
    cache = MomentCache()

    async def scenario():
        gate = asyncio.Event()

        async def broken():
            await gate.wait()
            raise KeyError("no")

        async def fine():
            return "fine"

        tasks = [asyncio.ensure_future(cache.get_async(MOMENT, "k", broken)) for _ in range(10)]
        await asyncio.sleep(0)
        gate.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(r, KeyError) for r in results)
        assert await cache.get_async(MOMENT, "k", fine) == "fine"

    run_async(scenario())


def test_a_thread_waits_on_work_an_event_loop_does():
    cache = MomentCache()
    answer: Future[str] = Future()

    async def scenario():
        gate = asyncio.Event()

        async def make():
            await gate.wait()
            return "made on the loop"

        work = asyncio.ensure_future(cache.get_async(MOMENT, "k", make))
        await asyncio.sleep(0)
        thread = threading.Thread(target=lambda: answer.set_result(cache.get(MOMENT, "k", lambda: "thread")))
        thread.start()
        gate.set()
        await work
        await asyncio.to_thread(thread.join, WAIT)

    run_async(scenario())
    assert answer.result(WAIT) == "made on the loop"
