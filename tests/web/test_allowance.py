"""`components/web/allowance.py`: a burst at once, then units earned back with time, per address."""

from __future__ import annotations

from components.web.allowance import Allowance


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_address_spends_its_burst_then_earns_units_back_with_time():
    clock = Clock()
    allowance = Allowance(burst=3, per_minute=6, clock=clock)  # one unit every 10 s
    assert [allowance.take("a") for _ in range(4)] == [True, True, True, False]
    assert allowance.take("b")  # another address has its own
    clock.now = 9.0
    assert not allowance.take("a")
    clock.now = 10.5
    assert allowance.take("a") and not allowance.take("a")
    clock.now = 1000.0  # never more than the burst, however long it waited
    assert [allowance.take("a") for _ in range(4)] == [True, True, True, False]


def test_the_addresses_remembered_are_bounded():
    allowance = Allowance(burst=1, per_minute=1, max_addresses=100, clock=Clock())
    for i in range(10_000):
        assert allowance.take(f"10.0.{i // 256}.{i % 256}")
    assert len(allowance.left) == 100
    assert not allowance.take("10.0.39.15")  # the most recent are remembered
