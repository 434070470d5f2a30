"""The one bounded store (`components/sources/bounded.py`) behind the answers per moment, the allowances and the
unread results: least recently used first, by entries, bytes and age."""

from __future__ import annotations

import pytest

from components.sources.bounded import Bounded


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_past_the_entries_the_least_recently_used_goes_first():
    store: Bounded[str] = Bounded(max_entries=2)
    store.put("a", "A")
    store.put("b", "B")
    assert store.find("a") is not None  # "a" used again: "b" is now the least recently used
    assert store.put("c", "C") == 1
    assert "a" in store and "b" not in store and len(store) == 2


def test_past_the_bytes_the_oldest_go_and_the_value_just_kept_never_does():
    store: Bounded[bytes] = Bounded(max_bytes=10, weigh=len)
    store.put("a", b"x" * 4)
    store.put("b", b"y" * 4)
    assert store.put("c", b"z" * 4) == 1 and store.bytes == 8 and "a" not in store
    oldest = store.put("huge", b"h" * 50), store.oldest()
    assert oldest[0] == 2 and oldest[1] is not None and oldest[1][:2] == (b"h" * 50, 50)  # kept though over the bound
    assert store.pop("huge") is not None and store.bytes == 0 and len(store) == 0


def test_a_value_past_its_age_is_gone_and_expire_drops_the_oldest_in_order():
    clock = Clock()
    store: Bounded[int] = Bounded(ttl=10, clock=clock)
    store.put("a", 1)
    clock.now = 5
    store.put("b", 2)
    clock.now = 11
    assert store.find("a") is None and "a" not in store  # found past its age: dropped
    assert store.find("b") == (2, 0, 5)
    clock.now = 15
    assert store.expire() == 1 and len(store) == 0


def test_a_byte_bound_needs_a_weight():
    with pytest.raises(ValueError, match="weigh"):
        Bounded(max_bytes=10)
