"""Giving memory back: a long-running app that swaps in a new dataset many times a day should hold what
its current data needs, not the high-water mark of every refresh.

Freed memory stays with the allocator that served it: Arrow's pool (mimalloc) keeps freed pages, and
glibc's malloc keeps freed heap in each of its arenas (one per thread that allocated, up to eight per
core). `limit_arenas()` (at start, before the server's threads exist) keeps glibc to a few arenas;
`give_back()` (after a refresh swapped its snapshot in) returns both allocators' free pages to the system.
Both do nothing where the C library is not glibc.

Pauses: Python's full garbage collection walks every container object the process holds; after start-up
that is Gradio, FastAPI, pandas, plotly and the data, and a full pass took 100-165 ms on the spread visitor
benchmark's data (issue 48), holding the event loop and every visitor in flight for that long. `settle()`
(once the app is built, before it serves) collects once and freezes what is left (`gc.freeze()`): later
passes walk only what was made since, ~10-20 ms. `resettle()` (after a refresh) unfreezes, collects and
freezes again, so the replaced data's reference cycles are still collected, once a refresh.

This is the process's own business, not a source's: `app.py` calls `limit_arenas()` at start,
`mount.serve()` `settle()` before serving, and the dataset store `resettle()` and `give_back()` after a refresh.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import logging

import pyarrow as pa

from components.runtime import settings

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # glibc's mallopt parameter


@functools.cache
def _glibc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        libc.malloc_trim  # noqa: B018 — glibc only: musl and macOS have no malloc_trim
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def limit_arenas(arenas: int = settings.MALLOC_ARENAS.value) -> bool:
    """Keep glibc's malloc to `arenas` arenas (as MALLOC_ARENA_MAX does); True when it took effect."""
    libc = _glibc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, arenas))


def give_back() -> None:
    """Return the free pages of Arrow's pool and of glibc's heap to the system."""
    pa.default_memory_pool().release_unused()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def settle() -> None:
    """Collect garbage once, then leave everything the process holds now out of later collections
    (`gc.freeze()`): what start-up built is not walked again at each full pass."""
    gc.collect()
    gc.freeze()


def resettle() -> bool:
    """Where `settle()` ran: unfreeze, collect and freeze again (after a refresh swapped new data in, so the
    old data's cycles are collected and the new data is not walked at each full pass); True when it did.
    Elsewhere (tests, tools) nothing."""
    if not gc.get_freeze_count():
        return False
    gc.unfreeze()
    settle()
    return True
