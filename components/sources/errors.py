"""The sources' errors, and the one error scrubber: what an exception may say on the page, in the API and in
the logs.

Every error a source raises on purpose is a `SourceError` (a missing file, a bad snapshot, a Hub answer
worth nothing: `DatasetError`, `Rejected`, `ReadTimeout`); its message is written to be shown. `Declined` is
the one other: a computation kept per data moment refusing for its own caller. Errors from the Hub and from local files can carry a
token (`hf_…`, `Bearer …`), the home folder or an absolute local path. `describe_error` keeps what says
what went wrong (the exception type, the first line of its message, URLs) and hides the rest.
"""

from __future__ import annotations

import os
import re

from components.runtime import settings


class SourceError(Exception):
    """A source cannot be read, or gave nothing worth serving; the message is display-safe (no token,
    no absolute local path) and is shown as it is, on the page, in the API and in the log."""


class DatasetError(SourceError):
    """The source itself cannot be read (not one of its files: those are skipped and reported)."""


class Rejected(SourceError):
    """A read answered, but with nothing worth serving; the message says why."""


class ReadTimeout(SourceError, TimeoutError):
    """A read did not finish within its timeout; it was abandoned."""


class Declined(Exception):
    """Raised by a computation that refuses for its own caller (e.g. past that caller's allowance): the
    caller gets it, nothing is kept, and callers waiting on the same key work the answer out themselves
    (`moment_cache.MomentCache`)."""


_SECRET = re.compile(r"hf_[A-Za-z0-9]{6,}|(?<=Bearer )\S+", re.IGNORECASE)
# An absolute path outside a URL (no word character, ':', '/', '.' or '~' right before it), e.g. a
# local dataset folder named in an OSError: only its last part is shown.
_ABS_PATH = re.compile(r"(?<![\w:/.~])/[^\s'\"]+")


def scrub(text: str) -> str:
    """`text` with tokens replaced by `***`, the home folder by `~` and absolute local paths by their last part."""
    text = _SECRET.sub("***", text)
    home = os.path.expanduser("~")
    if home and home != "/":
        text = text.replace(home, "~")
    return _ABS_PATH.sub(lambda m: os.path.basename(m.group(0).rstrip("/")) or "/", text)


def describe_error(exc: BaseException) -> str:
    """A one-line reason safe to show: the exception type and the first line of its message, scrubbed."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = scrub(" ".join(lines[0].split())) if lines else ""
    if len(text) > settings.SOURCE_ERROR.value:
        text = text[: settings.SOURCE_ERROR.value - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
