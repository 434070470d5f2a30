"""How the process's log lines look: each starts with its time in UTC (ISO 8601, milliseconds, `Z`), then the
level, the logger and the message: `2026-12-05T09:14:03.512Z WARNING components.sources.refresh: ...`.

A log read on a Space, where the machine's time zone is not the reader's, places each line only by a UTC time.
`app.py` installs `handler()` on the root logger; uvicorn's and Gradio's loggers reach it too (the server hands
uvicorn no logging configuration of its own), so every line has the one format.
"""

from __future__ import annotations

import logging
import sys
import time

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class UtcFormatter(logging.Formatter):
    """`logging.Formatter` with `%(asctime)s` in UTC, ISO 8601 to the millisecond: `2026-12-05T09:14:03.512Z`."""

    converter = staticmethod(time.gmtime)
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"

    def __init__(self, fmt: str = FORMAT) -> None:
        super().__init__(fmt)


def handler() -> logging.Handler:
    """A handler writing to stderr in the format above."""
    stream = logging.StreamHandler(sys.stderr)
    stream.setFormatter(UtcFormatter())
    return stream
