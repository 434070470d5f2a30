"""Every log line starts with its time in UTC: `runtime/logs.py`'s formatter, which `app.py` installs."""

from __future__ import annotations

import logging
import re
import time

from components.runtime.logs import FORMAT, OneLineFormatter

LINE = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z (\w+) ([\w.]+): (.*)$")


def record(created: float, message: str = "refresh failed: %s", *args: object) -> logging.LogRecord:
    made = logging.LogRecord("components.sources.refresh", logging.WARNING, __file__, 1, message, args, None)
    made.created, made.msecs = created, (created % 1) * 1000
    return made


def test_a_line_starts_with_its_utc_time_to_the_millisecond(monkeypatch):
    monkeypatch.setenv("TZ", "America/Los_Angeles")  # the machine's zone must not show
    time.tzset()
    try:
        line = OneLineFormatter(FORMAT).format(record(1_764_926_043.512, "refresh failed: %s", "ConnectError"))
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    found = LINE.match(line)
    assert found, line
    assert found.groups() == (
        "2025-12-05T09:14:03.512",
        "WARNING",
        "components.sources.refresh",
        "refresh failed: ConnectError",
    )


def test_the_default_format_is_that_format():
    assert (
        OneLineFormatter().format(record(0.25, "ok"))
        == "1970-01-01T00:00:00.250Z WARNING components.sources.refresh: ok"
    )
