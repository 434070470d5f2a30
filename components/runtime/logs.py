"""The process's log: one record, one line, whatever a caller put in it, each starting with its time in UTC.

Every line reads `2026-12-05T09:14:03.512Z WARNING components.sources.refresh: ...`: a log read on a Space, where
the machine's time zone is not the reader's, places each line only by a UTC time (ISO 8601, milliseconds, `Z`).

Log lines carry strings that callers choose: a path, a model id, an MCP tool's name, a webhook's payload. A
newline in one of them wrote a second line that looked like a record of its own (`ERROR ...`), forged by
whoever sent the request. Escaping is done here, once, for every logger: `OneLineFormatter` writes each
record's message with its control characters (newlines, carriage returns, escape sequences, the Unicode line
separators) and lone surrogates as backslash escapes, cuts it at `LOG_MESSAGE` (a 60,000-character endpoint name
made a 120 KB line), and indents every line of a traceback, so nothing a caller sends can start a line or fill
the log. A line that quotes a client's value on purpose quotes `clipped(value)`, a short slice. `configure()` installs it on the root logger; the app's code and uvicorn's log
through it.
"""

from __future__ import annotations

import logging
import re
import time

from components.runtime import settings

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# What may not stand in a line as it is: C0 controls but the tab, DEL, C1 controls, the Unicode line and
# paragraph separators, and lone surrogates (which no UTF-8 stream can write).
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# A traceback's lines are indented by this much, so none can read as a record of its own.
INDENT = "    "


def clipped(text: str, most: int = settings.LOG_QUOTED.value) -> str:
    """`text` cut to `most` characters, saying how many more there were."""
    return text if len(text) <= most else f"{text[:most]}… ({len(text) - most:,} more characters)"


def escaped(text: str) -> str:
    r"""`text` with every character that could break or hide a line written as its escape (`\n`, `\x1b`)."""
    return _UNSAFE.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)


class OneLineFormatter(logging.Formatter):
    """A formatter whose record is one line: its UTC time to the millisecond (`2026-12-05T09:14:03.512Z`), its
    message escaped (`escaped`), a traceback after it indented."""

    converter = staticmethod(time.gmtime)
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"

    def __init__(self, fmt: str = FORMAT) -> None:
        super().__init__(fmt)

    def format(self, record: logging.LogRecord) -> str:
        message = clipped(escaped(record.getMessage()), settings.LOG_MESSAGE.value)
        kept = record.msg, record.args
        record.msg, record.args = message, None
        try:
            text = super().format(record)
        finally:
            record.msg, record.args = kept
        head, _, rest = text.partition("\n")
        if not rest:
            return head
        return head + "".join(
            "\n" + INDENT + clipped(escaped(line), settings.LOG_MESSAGE.value) for line in rest.split("\n")
        )


def configure(level: int = logging.INFO) -> None:
    """The root logger at `level`, writing to standard error through `OneLineFormatter` (as `basicConfig` would);
    every handler already there, the root's or a library's own (huggingface_hub keeps one), gets the formatter."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    loggers = [root, *(one for one in logging.Logger.manager.loggerDict.values() if isinstance(one, logging.Logger))]
    for logger in loggers:
        for handler in logger.handlers:
            handler.setFormatter(OneLineFormatter(FORMAT))
    root.setLevel(level)
