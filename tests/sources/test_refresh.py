"""The refresh engine's log: a failing source says so once with its cause, then once per back-off step (and
when the cause changes), and once when it recovers; never a line per attempt."""

from __future__ import annotations

import logging

from components.sources.refresh import Backoff, RefreshingStore


class Flaky(RefreshingStore[int]):
    source_name = "flaky"

    def __init__(self) -> None:
        super().__init__(refresh_seconds=3600.0, read_timeout=5.0, backoff=Backoff(first=15.0, cap=600.0))
        self.errors: list[Exception | None] = []

    def can_refresh(self) -> bool:
        return True

    def read(self) -> int:
        error = self.errors.pop(0)
        if error is not None:
            raise error
        return 1


def warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "components.sources.refresh" and r.levelno >= 30]


def test_a_failing_refresh_is_logged_once_then_once_per_back_off_step(caplog):
    caplog.set_level(logging.INFO, logger="components.sources.refresh")
    store = Flaky()
    store.errors = [ConnectionError("no route to the Hub")] * 12 + [None]
    for _ in range(12):
        assert store.refresh() is False
    lines = warnings(caplog)
    # the waits: 15, 30, 60, 120, 240, 480, then 600 s from the 7th failure on: seven lines for twelve failures
    assert len(lines) == 7, lines
    assert lines[0].startswith("flaky refresh failed: ") and "no route to the Hub" in lines[0]
    assert lines[0].endswith("; next attempt in 15 s")
    assert all("no route to the Hub" in line for line in lines)
    assert [line.split("next attempt in ")[1].split(" s")[0] for line in lines] == [
        "15", "30", "60", "120", "240", "480", "600",
    ]  # fmt: skip
    assert "the longest wait" in lines[-1]
    assert store.refresh() is True
    recovered = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert recovered == ["flaky refresh succeeded after 12 failed attempts"]


def test_a_new_cause_is_logged_even_at_the_longest_wait(caplog):
    caplog.set_level(logging.WARNING, logger="components.sources.refresh")
    store = Flaky()
    store.errors = [ConnectionError("no route")] * 9 + [TimeoutError("slow")] + [TimeoutError("slow")]
    for _ in range(11):
        store.refresh()
    lines = warnings(caplog)
    assert len(lines) == 8 and "slow" in lines[-1] and "no route" in lines[-2], lines
