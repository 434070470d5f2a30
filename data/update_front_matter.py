"""Rewrite the README front matter's `models:` list with the dataset's tested models, so that the Space
shows on each listed model's Hub page ("Spaces using this model").

`python data/update_front_matter.py [--dataset SOURCE] [--readme FILE] [--max N]`

The dataset is read with the app's own loader (`--dataset` as the app takes it; default: env
SUPPORT_DATASET, else the Hub dataset). A model is listed when it has a run on some stack (a model that
was only ever excluded was not tested); ids are unique and sorted. Every other line of the README, the
other front matter keys included, stays byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # run as a plain script from any directory
    sys.path.insert(0, str(REPO_ROOT))

from components.domain.results import EXCLUDED, NOT_TESTED, PASS  # noqa: E402
from components.sources.dataset import HUB_DATASET, load  # noqa: E402
from components.sources.records import hub_id  # noqa: E402
from components.sources.snapshot import Snapshot  # noqa: E402

README = REPO_ROOT / "README.md"
# The Hub documents no limit on a Space's `models:`; the MTEB leaderboard lists about 600. Past this many
# the front matter would outweigh the README: passing models are kept first.
MAX_MODELS = 1000
KEY = "models"
_TOP_LEVEL_KEY = re.compile(r"^[^\s#-][^:]*:")
# A Hub id YAML reads as a plain string: anything else (a bare `true`, `1e3`, ...) is written quoted.
_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")


class FrontMatterError(ValueError):
    """The README has no front matter to rewrite."""


def tested_models(snapshot: Snapshot, limit: int = MAX_MODELS) -> list[str]:
    """The Hub ids of the models with a run on some stack, unique and sorted (case-insensitively); past
    `limit`, the models that pass somewhere are kept first."""
    run = {}
    for position, model_id in enumerate(snapshot.rows["model_id"].to_numpy(dtype=object)):
        kind = snapshot.kind[position]
        model = hub_id(model_id)
        if model is None or kind in (EXCLUDED, NOT_TESTED):
            continue
        run[model] = run.get(model, False) or kind == PASS
    chosen = sorted(run, key=lambda m: (not run[m], m.casefold(), m))[:limit]
    return sorted(chosen, key=lambda m: (m.casefold(), m))


def _yaml_item(model_id: str) -> str:
    return model_id if _PLAIN.match(model_id) else json.dumps(model_id)  # JSON strings are YAML strings


def rewrite(readme: str, models: Iterable[str]) -> str:
    """`readme` with its front matter's `models:` block replaced by `models` (added after the last key when
    it has none); every other line kept as it is. Raises FrontMatterError without front matter."""
    lines = readme.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != "---":
        raise FrontMatterError("the README does not start with a front matter block (---)")
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") == "---"), None)
    if end is None:
        raise FrontMatterError("the README's front matter block is not closed (---)")
    newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
    models = list(models)
    block = [f"{KEY}:{newline}", *(f"  - {_yaml_item(m)}{newline}" for m in models)] if models else []
    start = next((i for i in range(1, end) if re.match(rf"^{KEY}\s*:", lines[i])), None)
    if start is None:
        return "".join(lines[:end] + block + lines[end:])
    stop = start + 1
    while stop < end and not _TOP_LEVEL_KEY.match(lines[stop]):
        stop += 1  # the block's items and continuation lines: indented, or `- ` at the key's own indentation
    while stop > start + 1 and not lines[stop - 1].strip():
        stop -= 1  # blank lines after the block belong to what follows
    return "".join(lines[:start] + block + lines[stop:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default=os.environ.get("SUPPORT_DATASET") or HUB_DATASET,
                        help="Parquet folder, file or hf://datasets/... path (default: env SUPPORT_DATASET, else the Hub dataset)")  # fmt: skip
    parser.add_argument("--readme", type=Path, default=README, help="the README to rewrite (default: the app's)")
    parser.add_argument("--max", type=int, default=MAX_MODELS, help=f"list at most this many models ({MAX_MODELS})")
    args = parser.parse_args(argv)
    snapshot = load(args.dataset)
    if not len(snapshot):
        print(f"error: {args.dataset} has no readable rows; the README is left as it is", file=sys.stderr)
        return 1
    models = tested_models(snapshot, max(args.max, 0))
    text = args.readme.read_bytes().decode("utf-8")
    try:
        updated = rewrite(text, models)
    except FrontMatterError as exc:
        print(f"error: {args.readme}: {exc}", file=sys.stderr)
        return 1
    if updated != text:
        args.readme.write_bytes(updated.encode("utf-8"))
    print(f"{args.readme}: {KEY}: lists {len(models)} tested models" + ("" if updated != text else " (unchanged)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
