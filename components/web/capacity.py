"""How many open tabs the process can hold: its open-file limit, and the connection cap that fits in it.

Every open tab holds its heartbeat (`/gradio_api/heartbeat/...`) on a connection of its own for as long as
it stays open: uvicorn speaks HTTP/1.1, one response at a time per connection, so a Space's proxy cannot
fold those streams onto fewer connections. Each connection is a file descriptor, and the usual soft
limit (1,024) would stop the app at about a thousand tabs whatever its connection cap says.
"""

from __future__ import annotations

import logging
import resource

from components.runtime import settings

log = logging.getLogger(__name__)


def raise_open_files() -> int:
    """Raise the process's soft open-file limit to its hard limit (at most `OPEN_FILES_CEILING`) and return
    the soft limit in force. Never lowers it; a refusal by the system is logged and the old limit kept."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = (
        settings.OPEN_FILES_CEILING.value
        if hard == resource.RLIM_INFINITY
        else min(hard, settings.OPEN_FILES_CEILING.value)
    )
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as exc:
            log.warning("open-file limit stays at %s: %s", soft, exc)
    return soft


def connection_cap(wanted: int) -> int:
    """`wanted`, or fewer where the open-file limit leaves less room after `FD_RESERVE` (at least `MIN_CONNECTIONS`)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(settings.MIN_CONNECTIONS.value, min(wanted, soft - settings.FD_RESERVE.value))
