"""The dataset's store: the current Snapshot, from the Hub, a local source or the bundled sample.

It stands on the refresh engine (`refresh.RefreshingStore`), which gives it its lifecycle, its
background refresh and its `source_status()`.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from huggingface_hub import constants as hf_constants

from components.runtime import environment, memory, settings
from components.sources.dataset import HUB_DATASET, SAMPLE_DIR, load
from components.sources.errors import Rejected
from components.sources.file_cache import FileCache
from components.sources.listing import list_source
from components.sources.refresh import Backoff, RefreshingStore
from components.sources.snapshot import Snapshot

log = logging.getLogger(__name__)

SAMPLE_LABEL = "bundled sample data"


def load_sample(reason: str | None = None) -> Snapshot:
    """The bundled sample, marked as sample data, with why it is shown."""
    return load(SAMPLE_DIR, kind="sample", label=SAMPLE_LABEL).with_provenance(fallback_reason=reason)


class DatasetStore(RefreshingStore[Snapshot]):
    """Holds the current Snapshot of the dataset.

    The default source is the live Hub dataset; when the Hub cannot be read within `startup_wait`
    seconds of `begin()` the bundled sample is served at once (labelled as such) and the Hub data is
    swapped in when it arrives. A local source is read as it is, and reread when a refresh is requested.
    Either is looked at every `check_seconds` (default: env DATA_CHECK_SECONDS) and reread when its files
    changed.
    """

    source_name = "dataset"

    def __init__(
        self,
        source: str | None = None,
        *,
        startup_wait: float = settings.STARTUP_WAIT.value,
        refresh_seconds: float = settings.DATASET_REFRESH.value,
        read_timeout: float = settings.DATASET_READ_TIMEOUT.value,
        backoff: Backoff = Backoff(),
        loader: Callable[[str], Snapshot] | None = None,
        check_seconds: float | None = None,
    ):
        self.source = source or None
        super().__init__(
            refresh_seconds=refresh_seconds, read_timeout=read_timeout, backoff=backoff, periodic=self.live,
            check_seconds=environment.DATA_CHECK_SECONDS.get() if check_seconds is None else check_seconds,
        )  # fmt: skip
        self.startup_wait = startup_wait
        # the default loader keeps each file's table between refreshes: a refresh reads what changed; the
        # looks compare the source's file list with the one it last read (none with another loader)
        self._files: FileCache | None = None if loader else FileCache()
        self._loader = loader or functools.partial(load, cache=self._files)
        self._first_attempt = threading.Event()

    @property
    def live(self) -> bool:
        return (self.source or HUB_DATASET).startswith("hf://")

    # ---- the lifecycle (`refresh.RefreshingStore.begin` and `start`) ---------------------------------

    def first_value(self) -> Snapshot | None:
        """A local source is read now (DatasetError when it does not exist); with the Hub switched off the
        sample is served; the Hub itself is read on the refresh thread (`reads_at_start`)."""
        if not self.live:
            return self.read()
        if hf_constants.is_offline_mode():
            return load_sample("HF_HUB_OFFLINE is set, so the Hub dataset was not read")
        return None

    def reads_at_start(self) -> bool:
        return self.live and not hf_constants.is_offline_mode()

    def begin(self, *, refresh: bool = True) -> None:
        """As every store begins; a local source's looks for a change start here too (the Hub's with its read)."""
        super().begin(refresh=refresh)
        if refresh and self.check_seconds and not self.live and self._files is not None:
            self.start_refreshing()

    def settle(self) -> None:
        """The Hub gets `startup_wait` seconds from `begin()` before the sample is served in its place;
        the Hub data is swapped in when it arrives."""
        if self._value is None:
            left = max(self.startup_wait - (time.monotonic() - self._begun_at), 0.0)
            if not self._first_attempt.wait(left) or self._value is None:
                reason = self.last_error or f"the Hub dataset did not answer within {self.startup_wait:g} s"
                self._swap_if_empty(lambda: load_sample(reason))

    # ---- RefreshingStore ---------------------------------------------------------------------------

    def read(self) -> Snapshot:
        if not self.live and self.source and Path(self.source).resolve() == SAMPLE_DIR.resolve():
            return load_sample("it was chosen with --dataset")
        return self._loader(self.source or HUB_DATASET)

    def accept(self, snapshot: Snapshot) -> Snapshot:
        served = self._value
        if not len(snapshot) and served is None and self.live:
            # every file listed but none readable (a Hub serving errors): the sample says more
            problem = f"; {snapshot.skipped[0].reason}" if snapshot.skipped else ""
            raise Rejected(f"the Hub dataset had no readable rows ({len(snapshot.skipped)} problem(s){problem})")
        if not len(snapshot) and served is not None and len(served):
            raise Rejected("the refreshed dataset had no rows; keeping the previous data")
        # a file that turned unreadable is served from its last good read, and the refresh counts as failed
        # (`/metrics`' app_refresh_failures_total): once per unreadable version, not at every read after it
        known = {(f.file, f.key) for f in served.last_good} if served is not None else set()
        if any((f.file, f.key) not in known for f in snapshot.last_good):
            self.failed_refreshes += 1
        return snapshot

    def kind_of(self, snapshot: Snapshot) -> str:
        return snapshot.provenance.kind

    def loaded_at_of(self, snapshot: Snapshot) -> datetime:
        return snapshot.provenance.loaded_at

    def can_refresh(self) -> bool:
        return not self.live or not hf_constants.is_offline_mode()

    def changed(self) -> bool:
        """Whether the source's file list (each file's blob id, or size and time) differs from the one last read;
        False when nothing was read from it through the file cache (the sample, another loader)."""
        if self._files is None or self._files.last()[0] is None:
            return False
        listing, _, _ = list_source(self.source or HUB_DATASET)
        return not self._files.read_from(listing.identity)

    def reader_label(self) -> str:
        return "the Hub dataset" if self.live else "the dataset folder"

    def on_failure(self, error: str, exc: BaseException) -> None:
        if self.live:
            reason = error if isinstance(exc, Rejected) else f"the Hub dataset could not be read: {error}"
            self._swap_if_empty(lambda: load_sample(reason))

    def on_success(self, snapshot: Snapshot) -> None:
        # the old snapshot is gone (requests still reading it hold their own reference): its cycles collected,
        # the new one set apart from later collections where start-up did so, and its memory handed back
        memory.resettle()
        memory.give_back()

    def after_attempt(self) -> None:
        self._first_attempt.set()
