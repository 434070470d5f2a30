"""The one reader of the JSON files the sources serve (the rankings snapshot, the model records)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from components.sources.errors import SourceError


def read_json(path: str | os.PathLike[str], what: str) -> Any:
    """The decoded content of the JSON file at `path`. Raises SourceError naming `what` and the file's name
    (never its folder) when it is missing, cannot be read or is not JSON."""
    path = Path(path)
    name = path.name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SourceError(f"{what} {name}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"{what} {name}: cannot be read ({type(exc).__name__})") from None
    except json.JSONDecodeError as exc:
        raise SourceError(f"{what} {name}: invalid JSON (line {exc.lineno}, column {exc.colno})") from None
