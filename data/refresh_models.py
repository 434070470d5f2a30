"""Fetch the Hub's records of every model in a dataset and the rankings, and write them as a records file.

Run where the Hub is reachable:
`python data/refresh_models.py [--out FILE] [--dataset SOURCE] [--rankings FILE] [--workers N]`.
The ranked tasks' top models come from `list_models` (one call per task), every other id from
`model_info`, both with `expand`; the file holds the Hub's own JSON shape, which `--models` reads.
A model the Hub cannot answer for keeps its previous record; one it does not know is left out.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a plain script from any directory
    sys.path.insert(0, str(REPO_ROOT))

from huggingface_hub import HfApi  # noqa: E402
from huggingface_hub.errors import RepositoryNotFoundError  # noqa: E402

from components.sources.dataset import SAMPLE_DIR, load  # noqa: E402
from components.sources.errors import SourceError  # noqa: E402
from components.sources.rankings import BUNDLED_SNAPSHOT, TASKS, load_snapshot  # noqa: E402
from components.sources.rankings_store import HUB_ERRORS  # noqa: E402
from components.sources.records import BUNDLED_RECORDS, HUB_EXPAND, hub_id, hub_json  # noqa: E402
from data.refresh_rankings import write_snapshot  # noqa: E402

log = logging.getLogger("refresh_models")
TIMEOUT = 20.0


def wanted_ids(dataset: str, rankings: Path) -> list[str]:
    """The model ids of a dataset and a rankings snapshot, each once, in name order."""
    ids = set(load(dataset).model_ids)
    snapshot = load_snapshot(rankings)
    ids.update(model.model_id for models in snapshot.lists.values() for model in models)
    return sorted((i for i in (hub_id(m) for m in ids) if i), key=str.casefold)


def _previous(path: Path) -> dict[str, dict]:
    """The records already in `path`, by id, kept for models the Hub cannot answer for now."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    entries = data.get("models") if isinstance(data, dict) else data
    return {e["id"]: e for e in entries or () if isinstance(e, dict) and isinstance(e.get("id"), str)}


def fetch_records(
    api: Any, ids: Iterable[str], workers: int = 4, limit: int = 100
) -> tuple[dict[str, dict], list[str], list[str]]:
    """The Hub records of `ids` (plus each ranked task's top `limit` trending models).
    Returns (records by id, ids the Hub does not know, ids it could not answer for)."""
    records: dict[str, dict] = {}
    for task in TASKS:
        try:
            infos = api.list_models(pipeline_tag=task, sort="trending_score", limit=limit, expand=HUB_EXPAND)
            for info in infos:
                entry = hub_json(info)
                if hub_id(entry.get("id")):
                    records[entry["id"]] = entry
        except HUB_ERRORS as exc:
            log.warning("list_models %s: %s", task, type(exc).__name__)
    missing = [i for i in ids if i not in records]
    unknown: list[str] = []
    failed: list[str] = []

    def one(model_id: str) -> tuple[str, dict | None, str]:
        try:
            return model_id, hub_json(api.model_info(model_id, expand=HUB_EXPAND, timeout=TIMEOUT)), ""
        except RepositoryNotFoundError:
            return model_id, None, "unknown"
        except HUB_ERRORS as exc:
            return model_id, None, type(exc).__name__

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for model_id, entry, problem in pool.map(one, missing):
            if entry is not None and hub_id(entry.get("id")):
                records[entry["id"]] = entry
            elif problem == "unknown":
                unknown.append(model_id)
            else:
                failed.append(model_id)
                log.warning("model_info %s: %s", model_id, problem or "no usable id in the answer")
    return records, unknown, failed


def main(argv: Sequence[str] | None = None, api: Any = None) -> int:
    """Fetch the records (through `api`, an HfApi by default) and write the file. Returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BUNDLED_RECORDS, help="records file to write")
    parser.add_argument("--dataset", default=str(SAMPLE_DIR), help="dataset whose models to cover (default: the bundled sample)")  # fmt: skip
    parser.add_argument("--rankings", type=Path, default=BUNDLED_SNAPSHOT, help="rankings snapshot whose models to cover")  # fmt: skip
    parser.add_argument("--workers", type=int, default=4, help="model_info calls at once (default 4)")
    args = parser.parse_args(argv)
    try:
        ids = wanted_ids(args.dataset, args.rankings)
    except (OSError, ValueError, SourceError) as exc:
        log.error("could not read the models to cover: %s", exc)
        return 1
    records, unknown, failed = fetch_records(api or HfApi(), ids, workers=args.workers)
    if not records:
        log.error("the Hub answered for no model; %s left unchanged", args.out)
        return 1
    previous = _previous(args.out)
    kept = [i for i in failed if i in previous]
    for model_id in kept:
        records[model_id] = previous[model_id]
    payload = {
        "note": "Hub model records written by data/refresh_models.py"
        + (f"; {len(kept)} kept from the previous file because the Hub did not answer for them" if kept else "")
        + ".",
        "hand_made": False,
        "fetched_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "models": sorted(records.values(), key=lambda r: r["id"].casefold()),
    }
    write_snapshot(payload, args.out)
    log.info(
        "wrote %s: %d records, %d unknown to the Hub, %d failed", args.out, len(records), len(unknown), len(failed)
    )
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    sys.exit(main())
