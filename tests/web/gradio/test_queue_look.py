"""`gradio/queue_look.py`: the queue's length and whether it is full, read from Gradio's blocks, never written."""

from __future__ import annotations

from components.web.gradio import queue_look


class _Queue(list):
    max_size = 3


class _Blocks:
    def __init__(self, waiting: int):
        self._queue = _Queue(range(waiting))


def test_the_queue_look_reads_its_length_and_whether_it_is_full():
    assert queue_look.queue_length(_Blocks(2)) == 2 and not queue_look.queue_full(_Blocks(2))
    assert queue_look.queue_length(_Blocks(3)) == 3 and queue_look.queue_full(_Blocks(3))
    assert queue_look.queue_length(object()) is None and not queue_look.queue_full(object())  # not queued yet
