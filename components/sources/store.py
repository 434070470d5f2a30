"""Which dataset the app serves, and the atomic swap that replaces it on refresh.

The default source is the live Hub dataset; when the Hub cannot be reached quickly the app
serves the bundled sample at once (labelled as such) and swaps the Hub data in when it arrives.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

from huggingface_hub import constants as hf_constants

from components.sources.dataset import HUB_DATASET, SAMPLE_DIR, DatasetError, describe_error, load
from components.sources.snapshot import Snapshot

log = logging.getLogger(__name__)

SAMPLE_LABEL = "bundled sample data"


def hub_offline() -> bool:
    """True when huggingface_hub was told not to use the network."""
    return bool(hf_constants.HF_HUB_OFFLINE) or os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in (
        "1", "true", "yes", "on",
    )  # fmt: skip


def load_sample(reason: str | None = None) -> Snapshot:
    """The bundled sample, marked as sample data, with why it is shown."""
    snapshot = load(SAMPLE_DIR, kind="sample", label=SAMPLE_LABEL)
    snapshot.provenance = dataclasses.replace(snapshot.provenance, fallback_reason=reason)
    return snapshot


class DatasetStore:
    """Holds the current Snapshot; `current()` is one attribute read, `_swap` one assignment."""

    def __init__(
        self,
        source: str | None = None,
        *,
        startup_wait: float = 6.0,
        refresh_seconds: float = 3600.0,
        loader: Callable[[str], Snapshot] = load,
    ):
        self.source = source or None
        self.startup_wait = startup_wait
        self.refresh_seconds = refresh_seconds
        self._loader = loader
        self._snapshot: Snapshot | None = None
        self._refresh_lock = threading.Lock()  # one load at a time
        self._swap_lock = threading.Lock()  # decides between the first load and the sample; readers never take it
        self.last_error: str | None = None
        self._stop = threading.Event()

    def current(self) -> Snapshot:
        snapshot = self._snapshot
        if snapshot is None:
            raise RuntimeError("DatasetStore.start() has not been called")
        return snapshot

    def _swap(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot

    @property
    def live(self) -> bool:
        return (self.source or HUB_DATASET).startswith("hf://")

    def start(self) -> Snapshot:
        """Load the first snapshot. A local source must exist (DatasetError otherwise); the Hub
        gets `startup_wait` seconds before the sample is served in its place."""
        if not self.live:
            if Path(self.source).resolve() == SAMPLE_DIR.resolve():
                self._swap(load_sample("it was chosen with --dataset"))
            else:
                self._swap(self._loader(self.source))
            return self.current()
        if hub_offline():
            self._swap(load_sample("HF_HUB_OFFLINE is set, so the Hub dataset was not read"))
            return self.current()
        done = threading.Event()

        def first_load() -> None:
            self.refresh()
            done.set()
            self._refresh_forever()

        threading.Thread(target=first_load, name="dataset-refresh", daemon=True).start()
        if not done.wait(self.startup_wait) or self._snapshot is None:
            with self._swap_lock:
                if self._snapshot is None:
                    reason = self.last_error or f"the Hub dataset did not answer within {self.startup_wait:g} s"
                    self._swap(load_sample(reason))
        return self.current()

    def refresh(self) -> bool:
        """Reload the source and swap it in; on failure keep what is served. Returns success."""
        source = self.source or HUB_DATASET
        with self._refresh_lock:
            try:
                snapshot = self._loader(source)
            # The loader talks to the network and parses its answers: whatever it raises must keep
            # what is served and leave the refresh thread alive to try again.
            except Exception as exc:  # noqa: BLE001
                self.last_error = str(exc) if isinstance(exc, DatasetError) else describe_error(exc)
                log.warning("dataset refresh failed: %s", self.last_error)
                with self._swap_lock:
                    if self._snapshot is None and self.live:
                        self._swap(load_sample(f"the Hub dataset could not be read: {self.last_error}"))
                return False
            with self._swap_lock:
                if not len(snapshot) and self._snapshot is None and self.live:
                    # every file listed but none readable (a Hub serving errors): the sample says more
                    problem = f"; {snapshot.skipped[0].reason}" if snapshot.skipped else ""
                    self.last_error = (
                        f"the Hub dataset had no readable rows ({len(snapshot.skipped)} problem(s){problem})"
                    )
                    self._swap(load_sample(self.last_error))
                    return False
                if not len(snapshot) and self._snapshot is not None and len(self._snapshot):
                    self.last_error = "the refreshed dataset had no rows; keeping the previous data"
                    return False
                self.last_error = None
                self._swap(snapshot)
                return True

    def _refresh_forever(self) -> None:
        # after a failure, try again sooner: a passing Hub outage should not pin the sample for an hour
        while not self._stop.wait(
            self.refresh_seconds if self.last_error is None else min(300.0, self.refresh_seconds)
        ):
            self.refresh()

    def stop(self) -> None:
        self._stop.set()
