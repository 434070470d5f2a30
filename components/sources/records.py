"""Hub model records: a model's task, architecture, size and base model (what the dataset does not hold).

A record file holds records in the shape the Hub's `GET /api/models?expand=...` answers (keys used:
`id`, `pipeline_tag`, `config.architectures`, `config.model_type`, `cardData.base_model`,
`safetensors.total`, `downloads`, `likes`, `trendingScore`, `gated`, `private`), either as a bare
list or as `{"note": ..., "fetched_at": ..., "models": [...]}`. Every field may be missing or of the
wrong type: a record keeps what it can read and leaves the rest unknown.

`Records` is one immutable set of records; `RecordsStore` (in `records_store.py`) adds live Hub
look-ups for the ids a set lacks.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from huggingface_hub.errors import HFValidationError
from huggingface_hub.utils import validate_repo_id

from components.runtime import settings
from components.sources.errors import SourceError
from components.sources.hub_values import count, parameter_count, parse_time, score
from components.sources.json_file import read_json
from components.sources.memo import serial

log = logging.getLogger(__name__)

BUNDLED_RECORDS = Path(__file__).resolve().parents[2] / "data" / "models_snapshot.json"
# What a live look-up asks the Hub for (huggingface_hub's `expand` names).
HUB_EXPAND = [
    "pipeline_tag", "config", "cardData", "safetensors", "downloads", "likes", "trendingScore", "gated", "private",
]  # fmt: skip
_TASK = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_ARCHITECTURE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,80}$")


# The Hub's own hosts: a model's page there is a way of naming the model.
HUB_HOSTS = frozenset({"huggingface.co", "www.huggingface.co", "hf.co"})
# A Hub address of a repository that is not a model: its first path part, and what it is in words.
# (written as keywords: tests/web/test_clients.py finds the readers of SYSTEM by its quoted value)
OTHER_REPOS = dict(spaces="a Space", datasets="a dataset", buckets="a bucket")
# What may follow a model's id in the address of one of its pages (a file, a revision, its discussions, ...).
_MODEL_PAGES = frozenset({"tree", "blob", "resolve", "raw", "commit", "commits", "discussions", "edit", "settings"})


class HubAddress(NamedTuple):
    """A Hub address read (`hub_address`): what it names (`model`, or a key of OTHER_REPOS) and that repo's id."""

    kind: str
    repo_id: str


def hub_address(text: object) -> HubAddress | None:
    """What a Hub address names: `https://huggingface.co/Qwen/Qwen3-8B/tree/main?x=1#y` is the model
    `Qwen/Qwen3-8B` (the page under it, query and fragment dropped), with or without its scheme, on `hf.co` too;
    `/spaces/…` and `/datasets/…` name a Space and a dataset. None for text that is not a Hub address. The one
    place an address is read as a model id (`hub_id`, and through it every place that takes an id)."""
    if not isinstance(text, str):
        return None
    text = text.strip()[: 4 * settings.HUB_ID.value]
    if "hf.co" not in text.lower() and "huggingface.co" not in text.lower():
        return None
    address = urlsplit(text if "://" in text else f"https://{text}")
    if address.scheme not in ("http", "https") or (address.hostname or "") not in HUB_HOSTS:
        return None
    if "://" not in text and not text.lower().startswith(tuple(f"{h}/" for h in HUB_HOSTS)):
        return None
    parts = [unquote(p) for p in address.path.split("/") if p]
    if parts and parts[0] in OTHER_REPOS:
        return HubAddress(parts[0], "/".join(parts[1:3]))
    if parts and parts[0] == "models":  # the older form of a model's address
        parts = parts[1:]
    named = parts[:1] if len(parts) > 1 and parts[1] in _MODEL_PAGES else parts[:2]
    return HubAddress("model", "/".join(named))


def hub_id(text: object) -> str | None:
    """`text` as a Hub model id (`org/name` or a legacy `name`; a model's Hub address is its id, `hub_address`),
    or None when it cannot be one."""
    if not isinstance(text, str):
        return None
    address = hub_address(text)
    if address is not None and address.kind != "model":
        return None
    text = address.repo_id if address is not None else text.strip()
    if not text or len(text) > settings.HUB_ID.value or text.count("/") > 1:
        return None
    try:
        validate_repo_id(text)
    except HFValidationError:
        return None
    return text


@dataclass(frozen=True)
class ModelRecord:
    """What the Hub says about one model; None where it said nothing usable."""

    model_id: str
    task: str | None = None
    architecture: str | None = None
    model_type: str | None = None
    base_models: tuple[str, ...] = ()
    num_parameters: int | None = None
    downloads: int | None = None
    likes: int | None = None
    trending_score: float | None = None
    gated: str | None = None  # "auto" or "manual" for a gated model
    private: bool = False


def _architecture(config: Mapping) -> str | None:
    """The model class the Hub names: `config.architectures[0]`, or a diffusers pipeline's `_class_name`."""
    names = config.get("architectures")
    if isinstance(names, list):
        for name in names:
            if isinstance(name, str) and _ARCHITECTURE.match(name.strip()):
                return name.strip()
    diffusers = config.get("diffusers")
    if isinstance(diffusers, Mapping):
        name = diffusers.get("_class_name")
        if isinstance(name, str) and _ARCHITECTURE.match(name.strip()):
            return name.strip()
    return None


def _base_models(card: Any, own_id: str) -> tuple[str, ...]:
    """`cardData.base_model` (a string or a list) as valid ids, without the model itself."""
    if not isinstance(card, Mapping):
        return ()
    value = card.get("base_model")
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    found: list[str] = []
    for v in values:
        base = hub_id(v)
        if base and base.casefold() != own_id.casefold() and base not in found:
            found.append(base)
    return tuple(found[: settings.BASE_MODELS.value])


def parse_record(entry: Any) -> ModelRecord | None:
    """A ModelRecord from one Hub JSON record; None when it has no usable `id`."""
    if not isinstance(entry, Mapping):
        return None
    model_id = hub_id(entry.get("id") if entry.get("id") is not None else entry.get("modelId"))
    if model_id is None:
        return None
    config: Mapping[str, Any] = entry["config"] if isinstance(entry.get("config"), Mapping) else {}
    task = entry.get("pipeline_tag")
    model_type = config.get("model_type")
    gated = entry.get("gated")
    return ModelRecord(
        model_id=model_id,
        task=task.strip() if isinstance(task, str) and _TASK.match(task.strip()) else None,
        architecture=_architecture(config),
        model_type=model_type.strip()
        if isinstance(model_type, str) and _TASK.match(model_type.strip().replace("_", "-"))
        else None,
        base_models=_base_models(entry.get("cardData"), model_id),
        num_parameters=parameter_count(entry.get("safetensors")),
        downloads=count(entry.get("downloads")),
        likes=count(entry.get("likes")),
        trending_score=score(entry.get("trendingScore")),
        gated=gated if gated in ("auto", "manual") else ("manual" if gated is True else None),
        private=entry.get("private") is True,
    )


def hub_json(info: Any) -> dict[str, Any]:
    """The Hub JSON record of a huggingface_hub `ModelInfo` (or look-alike): what a record file holds."""
    card: Any = getattr(info, "card_data", None)
    if hasattr(card, "to_dict"):
        card = card.to_dict()
    safetensors = getattr(info, "safetensors", None)
    if safetensors is not None and not isinstance(safetensors, Mapping):
        safetensors = {
            "total": getattr(safetensors, "total", None),
            "parameters": dict(getattr(safetensors, "parameters", None) or {}),
        }
    return {
        "id": getattr(info, "id", None),
        "pipeline_tag": getattr(info, "pipeline_tag", None),
        "config": getattr(info, "config", None),
        "cardData": {"base_model": card.get("base_model")} if isinstance(card, Mapping) else None,
        "safetensors": safetensors,
        "downloads": getattr(info, "downloads", None),
        "likes": getattr(info, "likes", None),
        "trendingScore": getattr(info, "trending_score", None),
        "gated": getattr(info, "gated", None),
        "private": getattr(info, "private", None),
    }


@dataclass(frozen=True, eq=False)
class Records:
    """Model records keyed by id (looked up case-insensitively), with where they came from.

    `unknown` maps ids the Hub was asked about to why no record is known (not on the Hub, private,
    unreachable); `source` is display-safe (a file name, "Hub" or "bundled snapshot").
    """

    models: Mapping[str, ModelRecord]
    source: str
    fetched_at: datetime | None = None
    note: str = ""
    unknown: Mapping[str, str] = field(default_factory=dict)
    _by_fold: Mapping[str, ModelRecord] = field(init=False, repr=False)
    # this value's number: a memo keyed on the records names them by it (`memo.serial`)
    serial: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "serial", serial())
        models = dict(self.models)
        object.__setattr__(self, "models", MappingProxyType(models))
        object.__setattr__(self, "unknown", MappingProxyType({k.casefold(): v for k, v in self.unknown.items()}))
        object.__setattr__(self, "_by_fold", MappingProxyType({k.casefold(): r for k, r in models.items()}))

    def get(self, model_id: str | None) -> ModelRecord | None:
        """The record of `model_id` (any case), or None."""
        if not isinstance(model_id, str):
            return None
        return self._by_fold.get(model_id.strip().casefold())

    def why_unknown(self, model_id: str) -> str | None:
        """Why the Hub gave no record for `model_id`, if it was asked."""
        return self.unknown.get(model_id.strip().casefold())

    def task_of(self, model_id: str) -> str | None:
        record = self.get(model_id)
        return record.task if record else None

    def architecture_of(self, model_id: str) -> str | None:
        record = self.get(model_id)
        return record.architecture if record else None

    def tasks(self, model_ids: Iterable[str]) -> set[str]:
        """The known tasks of `model_ids`."""
        return {t for t in (self.task_of(m) for m in model_ids) if t}

    def added(
        self,
        records: Iterable[ModelRecord],
        unknown: Mapping[str, str] | None = None,
        max_unknown: int = settings.UNKNOWN_IDS.value,
    ) -> Records:
        """A new Records with `records` added (replacing same ids) and `unknown` reasons merged; of the
        reasons, the `max_unknown` most recent are kept."""
        models = dict(self.models)
        reasons = dict(self.unknown)
        for record in records:
            models[record.model_id] = record
            reasons.pop(record.model_id.casefold(), None)
        for key, reason in (unknown or {}).items():
            reasons.pop(key.casefold(), None)  # re-inserted as the newest
            reasons[key.casefold()] = reason
        for key in list(reasons)[: max(len(reasons) - max_unknown, 0)]:
            del reasons[key]
        return Records(models, self.source, self.fetched_at, self.note, reasons)

    def __len__(self) -> int:
        return len(self.models)


def empty_records(source: str = "none", note: str = "") -> Records:
    return Records({}, source, None, note)


def parse_records(data: Any, source: str) -> Records:
    """Records from a decoded record file: a list of Hub records or `{"models": [...], ...}`.
    Malformed entries are skipped (and logged); raises SourceError when `data` holds no list."""
    meta: Mapping = data if isinstance(data, Mapping) else {}
    entries = data.get("models") if isinstance(data, Mapping) else data
    if not isinstance(entries, list):
        raise SourceError(f"model records {source}: expected a list of Hub model records or an object with 'models'")
    models: dict[str, ModelRecord] = {}
    skipped = 0
    for entry in entries:
        record = parse_record(entry)
        if record is None:
            skipped += 1
        else:
            models.setdefault(record.model_id, record)
    if skipped:
        log.warning("model records %s: skipped %d entries without a usable id", source, skipped)
    note = meta.get("note")
    return Records(models, source, parse_time(meta.get("fetched_at")), note if isinstance(note, str) else "")


def load_records(path: str | os.PathLike[str]) -> Records:
    """Read a record file. Raises SourceError naming the file when it is missing, not JSON or holds no list."""
    return parse_records(read_json(path, "model records"), Path(path).name)


def base_chain(records: Records, model_id: str, hops: int) -> list[tuple[str, int]]:
    """The base models of `model_id`, breadth first up to `hops` steps, each once, as (id, hop);
    cycles and ids without a record end a branch, never the walk."""
    seen = {model_id.strip().casefold()}
    frontier = [model_id]
    found: list[tuple[str, int]] = []
    for hop in range(1, hops + 1):
        following: list[str] = []
        for current in frontier:
            record = records.get(current)
            for base in record.base_models if record else ():
                if base.casefold() not in seen:
                    seen.add(base.casefold())
                    found.append((base, hop))
                    following.append(base)
        frontier = following
    return found
