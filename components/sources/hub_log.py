"""One log line per Hub failure, with its real cause.

huggingface_hub logs every retry of a failing call (the error, then "Retrying in 2s [Retry 2/5]"), and
its logger has a handler of its own besides propagating to the app's, so each line came out twice.
`quiet()` (called once by the app) lets huggingface_hub's lines through once, in the app's format,
and keeps its retry lines out of the log: instead each thread's latest retry cause is remembered, and
a store whose read is given up after its timeout names that cause (`last_cause`) in its one line.
"""

from __future__ import annotations

import logging
import sys
import threading

from components.sources.errors import describe_error, scrub

HTTP_LOGGER = "huggingface_hub.utils._http"
_RETRY_MARKERS = (" thrown while requesting ", "Retrying in ", "Rate limited. Waiting ")

_causes: dict[int, str] = {}
_lock = threading.Lock()


class _RetryCause(logging.Filter):
    """Drops huggingface_hub's retry lines, remembering the cause of the latest one per thread."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not any(marker in message for marker in _RETRY_MARKERS):
            return True
        if " thrown while requesting " in message:
            # logged inside huggingface_hub's `except` block: the exception itself names the cause
            exc = sys.exc_info()[1]
            cause = describe_error(exc) if exc is not None else scrub(message.split(" thrown while requesting ")[0])
            with _lock:
                _causes[threading.get_ident()] = cause
        return False


_FILTER = _RetryCause()


def quiet() -> None:
    """Log each huggingface_hub line once, through the app's handlers, without its retry lines. Idempotent."""
    library = logging.getLogger("huggingface_hub")
    for handler in list(library.handlers):
        library.removeHandler(handler)
    library.propagate = True
    http = logging.getLogger(HTTP_LOGGER)
    if _FILTER not in http.filters:
        http.addFilter(_FILTER)


def last_cause(thread_id: int | None) -> str | None:
    """The latest retry cause huggingface_hub met on that thread, if any."""
    with _lock:
        return _causes.get(thread_id) if thread_id is not None else None


def forget(thread_id: int | None) -> None:
    """Drop what was remembered for a thread that has finished."""
    with _lock:
        if thread_id is not None:
            _causes.pop(thread_id, None)
