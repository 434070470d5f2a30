"""`python app.py` with a queue a test can fill: one call of each event at a time, at most two waiting, and
every `search` call held until the file named by env BUSY_GATE exists. Everything else is the app as shipped.

`python tests/e2e/busy_app.py --dataset ... --port N` (what `tests.helpers.Server(script=...)` runs)
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import app  # noqa: E402
from components.queries.api import Api  # noqa: E402
from components.runtime import settings  # noqa: E402

GATE = Path(os.environ["BUSY_GATE"])
search = Api.search


@functools.wraps(search)
def held(self, *args, **kwargs):
    while not GATE.exists():  # polled: the handler runs in Gradio's worker thread, not on the loop
        time.sleep(0.05)
    return search(self, *args, **kwargs)


if __name__ == "__main__":
    Api.search = held
    settings.EVENT_CONCURRENCY = dataclasses.replace(settings.EVENT_CONCURRENCY, value=1)
    settings.QUEUE_SIZE = dataclasses.replace(settings.QUEUE_SIZE, value=2)
    app.main()
