"""The Hub's own rankings (trending, downloads), one task at a time: the value and its parsers.

`Rankings` is one immutable set of ranked lists; `load_snapshot` reads one from a snapshot file and
`ranked_model_from_info` reads one entry of a Hub answer. Where rankings are fetched and served is
`rankings_store.py`.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from components.sources.errors import SourceError
from components.sources.hub_values import count, parameter_count, parse_time, score
from components.sources.json_file import read_json
from components.sources.memo import serial

log = logging.getLogger(__name__)

TASKS = ("text-generation", "image-text-to-text")
RANKINGS = ("trending", "downloads")

BUNDLED_SNAPSHOT = Path(__file__).resolve().parents[2] / "data" / "rankings_snapshot.json"

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class RankedModel:
    """One model's place in one ranking; counts the Hub did not give are None."""

    model_id: str
    rank: int
    task: str
    downloads: int | None = None
    likes: int | None = None
    trending_score: float | None = None
    num_parameters: int | None = None


@dataclass(frozen=True, eq=False)
class Rankings:
    """Ranked lists keyed by (task, ranking), with where and when they came from.

    `origin` is "live" or "snapshot"; `source` is "Hub" or a snapshot's file name (never a local
    path); `caveat` is a short qualifier shown after the label, e.g. "Hub unreachable".
    """

    lists: Mapping[tuple[str, str], tuple[RankedModel, ...]]
    fetched_at: datetime
    origin: str
    source: str
    note: str = ""
    caveat: str = ""
    _task_of: Mapping[str, str] = field(init=False, repr=False)
    _downloads_of: Mapping[str, int] = field(init=False, repr=False)
    # this value's number: a memo keyed on the rankings names them by it (`memo.serial`)
    serial: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "serial", serial())
        if self.origin not in ("live", "snapshot"):
            raise ValueError(f"Rankings origin must be 'live' or 'snapshot', not {self.origin!r}")
        fetched_at = self.fetched_at
        fetched_at = fetched_at.replace(tzinfo=UTC) if fetched_at.tzinfo is None else fetched_at.astimezone(UTC)
        lists = {key: tuple(models) for key, models in self.lists.items()}
        task_of: dict[str, str] = {}
        downloads_of: dict[str, int] = {}
        for (task, _), models in sorted(lists.items(), key=lambda item: _task_order(item[0][0])):
            for model in models:
                task_of.setdefault(model.model_id, task)
                if model.downloads is not None:
                    downloads_of.setdefault(model.model_id, model.downloads)
        object.__setattr__(self, "fetched_at", fetched_at)
        object.__setattr__(self, "lists", MappingProxyType(lists))
        object.__setattr__(self, "_task_of", MappingProxyType(task_of))
        object.__setattr__(self, "_downloads_of", MappingProxyType(downloads_of))

    def ranked(self, task: str, ranking: str) -> tuple[RankedModel, ...]:
        """The models of `task` in `ranking` order; an empty tuple for an unknown pair."""
        return self.lists.get((task, ranking), ())

    def task_of(self, model_id: str) -> str | None:
        """The task under which `model_id` is ranked, or None if it is not ranked."""
        return self._task_of.get(model_id)

    def downloads_of(self, model_id: str) -> int | None:
        """The Hub's download count for `model_id`, or None if unknown."""
        return self._downloads_of.get(model_id)

    def is_empty(self) -> bool:
        """True when no ranking holds any model."""
        return not any(self.lists.values())

    def label(self) -> str:
        """A short description for the page, e.g. "Live Hub rankings, fetched 2026-12-02 10:31 UTC"."""
        if self.is_empty():
            text = "No rankings available"
        elif self.origin == "live":
            text = f"Live Hub rankings, fetched {self.fetched_at:%Y-%m-%d %H:%M} UTC"
        elif self.source == BUNDLED_SNAPSHOT.name:
            text = f"Bundled snapshot as of {self.fetched_at:%Y-%m-%d}"
        else:
            text = f"Snapshot {self.source} as of {self.fetched_at:%Y-%m-%d}"
        return f"{text} ({self.caveat})" if self.caveat else text


def _task_order(task: str) -> int:
    return TASKS.index(task) if task in TASKS else len(TASKS)


def empty_rankings(note: str, caveat: str = "") -> Rankings:
    """Rankings with no models, saying why."""
    return Rankings(lists={}, fetched_at=_EPOCH, origin="snapshot", source="none", note=note, caveat=caveat)


def ranked_model_from_info(info: Any, rank: int, task: str) -> RankedModel | None:
    """A RankedModel from a `list_models` ModelInfo (or look-alike); None if it has no usable id."""
    model_id = getattr(info, "id", None)
    if not isinstance(model_id, str) or not model_id.strip():
        return None
    return RankedModel(
        model_id=model_id.strip(),
        rank=rank,
        task=task,
        downloads=count(getattr(info, "downloads", None)),
        likes=count(getattr(info, "likes", None)),
        trending_score=score(getattr(info, "trending_score", None)),
        num_parameters=parameter_count(getattr(info, "safetensors", None)),
    )


def _ranked_model_from_entry(entry: Any, position: int, task: str) -> RankedModel | None:
    """A RankedModel from one snapshot entry; None if the entry is malformed."""
    if not isinstance(entry, Mapping):
        return None
    model_id = entry.get("model_id")
    if not isinstance(model_id, str) or not model_id.strip():
        return None
    rank = entry.get("rank", position)
    if isinstance(rank, bool) or not isinstance(rank, int) or rank < 1:
        return None
    return RankedModel(
        model_id=model_id.strip(),
        rank=rank,
        task=task,
        downloads=count(entry.get("downloads")),
        likes=count(entry.get("likes")),
        trending_score=score(entry.get("trending_score")),
        num_parameters=count(entry.get("num_parameters")),
    )


def dedupe(models: Iterable[RankedModel]) -> tuple[RankedModel, ...]:
    """Models in rank order, each model once (its best rank)."""
    seen: set[str] = set()
    kept = []
    for model in sorted(models, key=lambda m: m.rank):
        if model.model_id not in seen:
            seen.add(model.model_id)
            kept.append(model)
    return tuple(kept)


def load_snapshot(path: str | os.PathLike[str]) -> Rankings:
    """Read a rankings snapshot file (see `snapshot_json` for the format).

    Malformed entries and unknown tasks or rankings are skipped; lists come back in rank order.
    Raises SourceError, naming the file, when it cannot be read, is not a snapshot, or ranks nothing.
    """
    name = Path(path).name
    data = read_json(path, "rankings snapshot")
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), dict):
        raise SourceError(f"rankings snapshot {name}: expected an object with a 'tasks' object")
    fetched_at = parse_time(data.get("fetched_at"))
    if fetched_at is None:
        raise SourceError(f"rankings snapshot {name}: 'fetched_at' must be an ISO 8601 time")
    lists: dict[tuple[str, str], tuple[RankedModel, ...]] = {}
    skipped = 0
    for task, by_ranking in data["tasks"].items():
        if task not in TASKS or not isinstance(by_ranking, dict):
            log.warning("rankings snapshot %s: ignoring task %r", name, task)
            continue
        for ranking, entries in by_ranking.items():
            if ranking not in RANKINGS or not isinstance(entries, list):
                log.warning("rankings snapshot %s: ignoring %r ranking of %s", name, ranking, task)
                continue
            parsed = [_ranked_model_from_entry(entry, i, task) for i, entry in enumerate(entries, start=1)]
            skipped += sum(model is None for model in parsed)
            lists[(task, ranking)] = dedupe(model for model in parsed if model is not None)
    if skipped:
        log.warning("rankings snapshot %s: skipped %d malformed entries", name, skipped)
    note = data.get("note")
    rankings = Rankings(
        lists=lists,
        fetched_at=fetched_at,
        origin="snapshot",
        source=name,
        note=note if isinstance(note, str) else "",
    )
    if rankings.is_empty():
        raise SourceError(f"rankings snapshot {name}: no ranked models")
    return rankings


def snapshot_json(rankings: Rankings) -> dict[str, Any]:
    """The snapshot-file form of `rankings` (what `load_snapshot` reads)."""
    tasks: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for (task, ranking), models in rankings.lists.items():
        tasks.setdefault(task, {})[ranking] = [dataclasses.asdict(model) for model in models]
    return {
        "fetched_at": rankings.fetched_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "note": rankings.note,
        "tasks": tasks,
    }


def check_complete(rankings: Any) -> Rankings:
    """Return `rankings` if it is a Rankings with a model in every task × ranking; else SourceError."""
    if not isinstance(rankings, Rankings):
        raise SourceError(f"expected Rankings, got {type(rankings).__name__}")
    missing = [f"{task}/{ranking}" for task in TASKS for ranking in RANKINGS if not rankings.ranked(task, ranking)]
    if missing:
        raise SourceError(f"no ranked models for {', '.join(missing)}")
    return rankings
