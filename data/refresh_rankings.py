"""Fetch the Hub's rankings and write them as a rankings snapshot (default: the bundled one).

Run where the Hub is reachable: `python data/refresh_rankings.py [--out FILE] [--limit N]`.
Parsing and the file format are those of `components.sources.rankings`, so the app reads what this writes.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a plain script from any directory
    sys.path.insert(0, str(REPO_ROOT))

from components.sources.rankings import BUNDLED_SNAPSHOT, snapshot_json  # noqa: E402
from components.sources.rankings_store import HUB_ERRORS, fetch_live  # noqa: E402

log = logging.getLogger("refresh_rankings")


def write_snapshot(payload: dict[str, Any], out: Path) -> None:
    """Write `payload` to `out` atomically, so a reader never sees half a file."""
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(payload, f, indent=1, ensure_ascii=False)
            f.write("\n")
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None, api: Any = None) -> int:
    """Fetch live rankings (through `api`, an HfApi by default) and write the snapshot. Returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=BUNDLED_SNAPSHOT, help="snapshot file to write")
    parser.add_argument("--limit", type=int, default=100, help="models per task and ranking (default 100)")
    args = parser.parse_args(argv)
    if args.limit < 1:
        parser.error("--limit must be at least 1")
    try:
        rankings = fetch_live(api, limit=args.limit)
    except HUB_ERRORS as exc:
        log.error("could not fetch rankings from the Hub: %s: %s", type(exc).__name__, exc)
        return 1
    payload = snapshot_json(rankings)
    payload["note"] = f"Hub rankings (top {args.limit} per task) written by data/refresh_rankings.py."
    write_snapshot(payload, args.out)
    counts = ", ".join(f"{task}/{ranking}: {len(models)}" for (task, ranking), models in rankings.lists.items())
    log.info("wrote %s (%s)", args.out, counts)
    return 0


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    sys.exit(main())
