"""Where a dataset's Parquet files are: a local folder or file, or an `hf://datasets/...` path on the Hub.

A `Listing` names each file with a key that changes when the file does (its blob id on the Hub, its size
and modification time on disk) and opens one; `list_source` makes it, `check_local_source` checks a path
given on the command line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

import pyarrow.parquet as pq
from huggingface_hub import HfApi, HfFileSystem

from components.runtime import settings
from components.sources.errors import DatasetError, describe_error


@dataclass(frozen=True)
class Listing:
    """The Parquet files of a source: each name with its key (blob id, or size and mtime), and how to open one."""

    files: dict[str, str]
    opener: Callable[[str], BinaryIO]

    @property
    def identity(self) -> tuple[tuple[str, str], ...]:
        """Equal for two listings exactly when every file is the same."""
        return tuple(sorted(self.files.items()))


def list_source(text: str) -> tuple[Listing, str, str]:
    """The files under `text` (a local path, or an `hf://datasets/...` URL), its kind (`hub` or `local`)
    and a label for it. Raises DatasetError when the source does not exist or cannot be listed."""
    if text.startswith("hf://"):
        return _list_hub(text), "hub", _hub_label(text)
    return _list_local(Path(text)), "local", Path(text).name or text


def check_local_source(source: str | os.PathLike) -> None:
    """For the command line, where the person gave the path: raise DatasetError, naming the whole path
    and what was found there, unless `source` holds at least one readable Parquet file."""
    path = Path(source)
    if path.is_file():
        candidates = [path]
    elif path.is_dir():
        candidates = sorted(p for p in path.rglob("*.parquet") if p.is_file())
        if not candidates:
            others = sorted(str(p.relative_to(path)) for p in path.rglob("*") if p.is_file())
            found = f"{len(others)} other file(s): {', '.join(others[:5])}" if others else "nothing"
            raise DatasetError(f"no Parquet files in '{path}' (found {found})")
    else:
        raise DatasetError(f"dataset not found: '{path}' is neither a Parquet file nor a folder")
    problems = []
    for candidate in candidates:
        try:
            pq.read_schema(candidate)
            return
        except Exception as exc:  # noqa: BLE001 — whatever pyarrow raises, the file is not readable Parquet
            problems.append(
                f"'{candidate}' ({type(exc).__name__}: {str(exc).splitlines()[0][: settings.SOURCE_ERROR.value] if str(exc) else ''})"
            )
    shown = "; ".join(problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
    raise DatasetError(f"no readable Parquet file in '{path}': {shown}")


def _list_local(path: Path) -> Listing:
    if path.is_file():
        return Listing({path.name: _stat_key(path)}, _local_opener(path.parent))
    if not path.is_dir():
        raise DatasetError(f"dataset not found: '{path.name or path}' is neither a Parquet file nor a folder")
    files = {str(p.relative_to(path)): _stat_key(p) for p in sorted(path.rglob("*.parquet")) if p.is_file()}
    return Listing(files, _local_opener(path))


def _stat_key(path: Path) -> str:
    """A local file's key: a rewritten file changes size or modification time."""
    stat = path.stat()
    return f"{stat.st_size}:{stat.st_mtime_ns}"


def _local_opener(base: Path) -> Callable[[str], BinaryIO]:
    def opener(name: str) -> BinaryIO:
        return open(base / name, "rb")

    return opener


def _list_hub(url: str) -> Listing:
    """The Parquet files under an `hf://datasets/ORG/NAME[@REVISION]/PATH` URL at the repo's current
    revision, each keyed by its blob id, from one `dataset_info` call; files open at that revision."""
    parts = url[len("hf://") :].rstrip("/").split("/")
    if len(parts) < 3 or parts[0] != "datasets":
        raise DatasetError(f"not a Hub dataset path: {url} (expected hf://datasets/ORG/NAME/PATH)")
    name, _, revision = parts[2].partition("@")
    repo_id, path = f"{parts[1]}/{name}", "/".join(parts[3:])
    try:
        info = HfApi().dataset_info(
            repo_id, revision=revision or None, files_metadata=True, timeout=settings.HUB_LISTING_TIMEOUT.value
        )
    except Exception as exc:  # noqa: BLE001 — network, auth and not-found errors all mean "unreachable"
        raise DatasetError(f"cannot list {_hub_label(url)} on the Hub ({describe_error(exc)})") from exc
    single = path.endswith(".parquet")
    folder = str(PurePosixPath(path).parent) if single else path
    prefix = f"{folder}/" if folder not in ("", ".") else ""
    files = {}
    for sibling in sorted(info.siblings or [], key=lambda s: s.rfilename):
        wanted = sibling.rfilename == path if single else sibling.rfilename.endswith(".parquet")
        if wanted and sibling.rfilename.startswith(prefix):
            files[sibling.rfilename[len(prefix) :]] = sibling.blob_id or f"{sibling.size}:{info.sha}"
    if not files:
        raise DatasetError(f"no Parquet files in {_hub_label(url)}")
    fs = HfFileSystem()
    pinned = f"datasets/{repo_id}@{info.sha or revision or 'main'}"

    def opener(name: str) -> BinaryIO:
        return fs.open(f"{pinned}/{prefix}{name}", "rb")

    return Listing(files, opener)


def _hub_label(url: str) -> str:
    parts = url[len("hf://") :].split("/")
    return "/".join(parts[1:3]) if len(parts) >= 3 else url
