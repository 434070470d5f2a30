"""The log: one record, one line, whatever a caller put in it."""

from __future__ import annotations

import logging

from components.runtime import logs


def test_what_could_break_or_hide_a_line_is_escaped():
    assert (
        logs.escaped("a\nb\r\x1b[31m\u2028\u2029\x00\udfff\tc é") == "a\\nb\\r\\x1b[31m\\u2028\\u2029\\x00\\udfff\tc é"
    )


def test_configure_gives_the_root_handler_the_one_line_formatter():
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    formatters = [h.formatter for h in handlers]
    try:
        logs.configure(logging.WARNING)
        assert root.level == logging.WARNING and root.handlers
        assert all(isinstance(h.formatter, logs.OneLineFormatter) for h in root.handlers)
    finally:
        root.handlers[:] = handlers
        for handler, formatter in zip(handlers, formatters, strict=True):
            handler.setFormatter(formatter)
        root.setLevel(level)
