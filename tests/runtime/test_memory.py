"""Memory handed back after a refresh: the allocator settings take effect on this (glibc) machine."""

from __future__ import annotations

import ctypes.util
import platform

import pytest

from components.runtime import memory

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="glibc's mallopt and malloc_trim only")
def test_glibc_takes_the_arena_limit_and_trims():
    assert ctypes.util.find_library("c")
    assert memory.limit_arenas() is True
    memory.give_back()  # returns without raising, whatever is free


def test_a_refresh_hands_memory_back(tmp_path, monkeypatch):
    from components.sources.dataset_store import DatasetStore
    from tests.helpers import row, write

    write(tmp_path / "a.parquet", [row("m/one")])
    calls = []
    monkeypatch.setattr(memory, "give_back", lambda: calls.append(1))
    store = DatasetStore(str(tmp_path))
    store.start()
    write(tmp_path / "a.parquet", [row("m/one"), row("m/two")])
    assert store.refresh() and len(store.current()) == 2 and calls == [1]
    store.stop()
