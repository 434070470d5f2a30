"""The look at Gradio's queue: how many events wait in it, and whether it is full.

A read, never a write, of a Gradio attribute that is not public (`Blocks._queue`): the new tab's note that the
live page is busy (`html/busy.py`) and the metrics' queue length are niceties, so where Gradio keeps its queue
elsewhere both fall back (no note; no figure) and the page's own retry after a refused `queue/join` still
runs.
"""

from __future__ import annotations

from typing import Any


def queue_length(blocks: Any) -> int | None:
    """How many events wait in Gradio's queue of `blocks`; None before it is queued or where Gradio keeps its
    queue elsewhere (a read, never a write, of Gradio's `_queue`)."""
    queue: Any = getattr(blocks, "_queue", None)
    try:
        return len(queue) if queue is not None else None
    except TypeError:
        return None


def queue_full(blocks: Any) -> bool:
    """Whether Gradio's queue of `blocks` holds as many waiting events as it takes (a new tab's load event
    would be refused 503); False before it is queued or where Gradio keeps its queue elsewhere."""
    size: Any = getattr(getattr(blocks, "_queue", None), "max_size", None)
    length = queue_length(blocks)
    try:
        return bool(size) and length is not None and length >= size
    except TypeError:
        return False
