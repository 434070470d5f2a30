"""Where the rankings come from: the Hub fetch, the store that serves them, and `--rankings`.

`RankingsStore` serves a snapshot file from `begin()` and swaps live Hub rankings in from a background
thread when (and if) the Hub answers. A Hub fault never reaches a request: the last good rankings stay
in place (see `refresh.RefreshingStore`). The value and its parsers are `rankings.py`.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import httpx2
from huggingface_hub import HfApi
from huggingface_hub import constants as hf_constants
from huggingface_hub.hf_api import ExpandModelProperty_T

from components.runtime import environment, settings
from components.sources import rankings as snapshots
from components.sources.errors import SourceError
from components.sources.rankings import (
    RANKINGS,
    TASKS,
    RankedModel,
    Rankings,
    check_complete,
    dedupe,
    empty_rankings,
    load_snapshot,
    ranked_model_from_info,
)
from components.sources.refresh import Backoff, RefreshingStore

log = logging.getLogger(__name__)

# The `sort` value huggingface_hub's `list_models` takes for each ranking.
HUB_SORT: dict[str, Literal["trending_score", "downloads"]] = {"trending": "trending_score", "downloads": "downloads"}
# Only what a row needs; `safetensors` carries the parameter count.
HUB_EXPAND: list[ExpandModelProperty_T] = [
    "downloads",
    "likes",
    "trendingScore",
    "safetensors",
]

# Errors a Hub call can raise for an unreachable Hub or a malformed answer.
HUB_ERRORS = (httpx2.HTTPError, OSError, ValueError, KeyError, TypeError, AttributeError, SourceError)


def fetch_live(api: HfApi | None = None, limit: int = settings.RANKING_SIZE.value) -> Rankings:
    """Fetch the Hub's top `limit` models per task in each ranking.

    Raises whatever the Hub call raises (e.g. httpx2.ConnectError, OfflineModeIsEnabled), and
    SourceError when an answer ranks no usable model.
    """
    api = api or HfApi()
    lists: dict[tuple[str, str], tuple[RankedModel, ...]] = {}
    for task in TASKS:
        for ranking in RANKINGS:
            infos = api.list_models(pipeline_tag=task, sort=HUB_SORT[ranking], limit=limit, expand=HUB_EXPAND)
            # Rank is the Hub's position, so a skipped malformed entry leaves a gap, not a shift.
            parsed = (ranked_model_from_info(info, rank, task) for rank, info in enumerate(infos, start=1))
            lists[(task, ranking)] = dedupe(model for model in parsed if model is not None)
    rankings = Rankings(
        lists=lists,
        fetched_at=datetime.now(UTC),
        origin="live",
        source="Hub",
        note="Live rankings from the Hugging Face Hub.",
    )
    return check_complete(rankings)


def _caveat_for(exc: BaseException) -> str:
    if isinstance(exc, (httpx2.TransportError, OSError)):  # includes timeouts and offline mode
        return "Hub unreachable"
    return "live rankings unavailable"


class RankingsStore(RefreshingStore[Rankings]):
    """Holds the current Rankings on the refresh engine (`refresh.RefreshingStore`).

    `begin()` serves the snapshot file and, when live, fetches from the Hub on a daemon thread every
    `refresh_seconds`. A missing or bad snapshot file is a SourceError at `begin()`, unless it is only
    the fallback (`required=False`): then empty rankings say why. A fetch that raises, answers garbage
    or takes longer than `read_timeout` leaves the last good rankings in place, marks snapshot rankings
    with a caveat ("Hub unreachable") and is reported by `source_status()`.
    """

    source_name = "rankings"

    def __init__(
        self,
        snapshot_path: str | os.PathLike[str],
        *,
        live: bool,
        required: bool = True,
        fetch: Callable[[], Rankings] | None = None,
        refresh_seconds: float = settings.RANKINGS_REFRESH.value,
        read_timeout: float = settings.RANKINGS_READ_TIMEOUT.value,
        backoff: Backoff = Backoff(),
    ):
        super().__init__(refresh_seconds=refresh_seconds, read_timeout=read_timeout, backoff=backoff)
        self.snapshot_path = Path(snapshot_path)
        self.live = live
        self.required = required
        self._fetch = fetch or fetch_live

    def first_value(self) -> Rankings:
        """The snapshot file's rankings ("offline mode" when live rankings are off)."""
        try:
            rankings = load_snapshot(self.snapshot_path)
        except SourceError as exc:
            if self.required:
                raise
            log.error("rankings snapshot unusable: %s", exc)
            rankings = empty_rankings(f"The bundled rankings snapshot is unusable ({exc}).")
        if self.live and hf_constants.is_offline_mode():
            rankings = dataclasses.replace(rankings, caveat="offline mode")
        return rankings

    def reads_at_start(self) -> bool:
        return self.live and not hf_constants.is_offline_mode()

    # ---- RefreshingStore ---------------------------------------------------------------------------

    def read(self) -> Rankings:
        return self._fetch()

    def accept(self, value: Any) -> Rankings:
        return check_complete(value)

    def kind_of(self, rankings: Rankings) -> str:
        return rankings.origin

    def loaded_at_of(self, rankings: Rankings) -> datetime:
        return rankings.fetched_at

    def can_refresh(self) -> bool:
        return self.live and not hf_constants.is_offline_mode()

    def reader_label(self) -> str:
        return "the Hub"

    def on_success(self, rankings: Rankings) -> None:
        log.info("live rankings swapped in (%s)", rankings.label())

    def on_failure(self, error: str, exc: BaseException) -> None:
        current = self.current()
        if current.origin != "live":
            self._swap(dataclasses.replace(current, caveat=_caveat_for(exc)))


def resolve_rankings(source: str | None = None) -> RankingsStore:
    """The store for `--rankings` (or env SUPPORT_RANKINGS when `source` is None); nothing is read until
    its `begin()`.

    "", "hub" → live rankings with the bundled snapshot as fallback (empty rankings if that file is
    missing or bad); a file path → that snapshot only (its `begin()` raises SourceError naming a
    missing or invalid file).
    """
    if source is None:
        source = environment.SUPPORT_RANKINGS.get()
    source = source.strip()
    if source.lower() in ("", "hub"):
        return RankingsStore(snapshots.BUNDLED_SNAPSHOT, live=True, required=False)
    return RankingsStore(Path(source).expanduser(), live=False)
