"""Memory handed back after a refresh: the allocator settings take effect on this (glibc) machine."""

from __future__ import annotations

import ctypes.util
import gc
import platform
import weakref

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
    monkeypatch.setattr(memory, "resettle", lambda: calls.append("resettle"))
    monkeypatch.setattr(memory, "give_back", lambda: calls.append("give_back"))
    store = DatasetStore(str(tmp_path))
    store.start()
    calls.clear()  # the first read swaps in too
    write(tmp_path / "a.parquet", [row("m/one"), row("m/two")])
    # the old snapshot's cycles collected first, so what they held is free when memory is handed back
    assert store.refresh() and len(store.current()) == 2 and calls == ["resettle", "give_back"]
    store.stop()


class Cycle:
    """A container that refers to itself: only the garbage collector frees it, never its reference count."""

    def __init__(self):
        self.me = self


@pytest.fixture
def unfrozen():
    """Each test leaves the process as the suite expects it: nothing frozen."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_settle_sets_what_is_held_apart_from_later_collections(unfrozen):
    held = Cycle()
    memory.settle()
    assert gc.get_freeze_count() > 0
    assert not any(obj is held for gen in range(3) for obj in gc.get_objects(gen))  # no pass walks it
    made_after = Cycle()
    assert any(obj is made_after for obj in gc.get_objects(0))  # what comes later is collected as before


def test_resettle_collects_the_cycles_a_refresh_left_behind(unfrozen):
    old = weakref.ref(Cycle())  # garbage at once: settle() collects it first, it is never frozen
    left = Cycle()
    memory.settle()
    assert old() is None
    gone = weakref.ref(left)
    del left  # the old data's cycle, frozen while it was in use: no pass frees it now
    gc.collect()
    assert gone() is not None
    assert memory.resettle() is True  # after a refresh: unfrozen, collected, frozen again
    assert gone() is None and gc.get_freeze_count() > 0


def test_resettle_does_nothing_where_nothing_was_settled(unfrozen):
    assert memory.resettle() is False
    assert gc.get_freeze_count() == 0  # tests and tools keep Python's own collection


def test_the_app_settles_once_built_before_it_serves(monkeypatch):
    from components.web import server
    from components.web.gradio import mount

    calls = []
    monkeypatch.setattr(mount, "build", lambda *args, **kwargs: "the app")
    monkeypatch.setattr(memory, "settle", lambda: calls.append("settle"))
    monkeypatch.setattr(server, "serve", lambda app, host, port: calls.append(("serve", app, host, port)))
    mount.serve(None, None, host="127.0.0.1", port=7860)  # type: ignore[arg-type]
    assert calls == ["settle", ("serve", "the app", "127.0.0.1", 7860)]
