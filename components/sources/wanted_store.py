"""Where the wanted counts live: in memory, or, with env `HF_TOKEN` and `WANTED_REPO` set, also in that
dataset repo, through huggingface_hub's `CommitScheduler`.

Each replica (each run of the app) appends to a file of its own, `wanted/<replica>.jsonl`, one line per
model and day with the lookups counted since the last write: `{"day": "2026-12-04", "model_id": "org/name",
"lookups": 3}`. Nothing else is written: no address, no hash, no time of day. The scheduler commits the
files every `WANTED_COMMIT_EVERY`; the other files in the repo are read back at start (in the background: the app
never waits on the Hub) and again after each commit, so the counts survive restarts and every replica ranks
every replica's lookups.
"""

from __future__ import annotations

import functools
import json
import logging
import tempfile
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path

from huggingface_hub import CommitScheduler, HfApi

from components.runtime import environment, settings
from components.sources.wanted_counts import Wanted, shared_secret

log = logging.getLogger(__name__)

FOLDER = "wanted"  # in the repo and in the local folder the scheduler pushes


class WantedScheduler(CommitScheduler):
    """A `CommitScheduler` that first writes the lookups counted since its last push to its replica's file."""

    def __init__(self, *, pending: PendingLines, reread: Callable[[], object] = lambda: None, **kwargs):
        self.pending = pending
        self.reread = reread
        super().__init__(**kwargs)

    def push_to_hub(self):  # noqa: ANN201 - CommitScheduler's own signature
        with self.lock:  # the scheduler's lock: no listing of the folder while the file grows
            self.pending.write()
        pushed = super().push_to_hub()
        self.reread()  # what the other replicas committed meanwhile
        return pushed


class PendingLines:
    """The lookups counted since the last write, by (day, model); `write()` appends them to `path`."""

    def __init__(self, path: Path):
        self.path = path
        self.lock = threading.Lock()
        self.counts: Counter[tuple[date, str]] = Counter()

    def record(self, day: date, model_id: str) -> None:
        with self.lock:
            self.counts[(day, model_id)] += 1

    def write(self) -> None:
        with self.lock:
            counts, self.counts = self.counts, Counter()
        if not counts:
            return
        lines = "".join(
            json.dumps({"day": day.isoformat(), "model_id": model, "lookups": n}, ensure_ascii=False) + "\n"
            for (day, model), n in sorted(counts.items())
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as file:
            file.write(lines)


def read_lines(text: str, counts: Counter[tuple[date, str]]) -> int:
    """Add the counts of a file's `text` to `counts`; returns how many lines were read (others are skipped)."""
    read = 0
    for line in text.splitlines():
        if not line.strip() or len(line) > settings.WANTED_LINE.value:
            continue
        try:
            entry = json.loads(line)
            day, model, lookups = date.fromisoformat(entry["day"]), str(entry["model_id"]), int(entry["lookups"])
        except (ValueError, KeyError, TypeError):
            continue
        if lookups > 0 and model:
            counts[(day, model)] += lookups
            read += 1
    return read


class HubStore:
    """The counts of `wanted` persisted to the dataset repo `repo_id` through `api`."""

    def __init__(self, wanted: Wanted, repo_id: str, api: HfApi, folder: Path | None = None):
        self.wanted, self.repo_id, self.api = wanted, repo_id, api
        self.folder = folder or Path(tempfile.mkdtemp(prefix="wanted-"))
        self.replica = uuid.uuid4().hex[:16]
        self.pending = PendingLines(self.folder / FOLDER / f"{self.replica}.jsonl")
        self.scheduler: WantedScheduler | None = None
        wanted.sink = self.pending.record  # counted from the start; written once the scheduler runs

    def start(self) -> WantedScheduler:
        """Read back what earlier replicas wrote, then schedule the pushes (network: call it off the main thread)."""
        self.load()
        self.scheduler = WantedScheduler(
            pending=self.pending, repo_id=self.repo_id, repo_type="dataset", folder_path=self.folder,
            every=settings.WANTED_COMMIT_EVERY.value, hf_api=self.api, allow_patterns=[f"{FOLDER}/*.jsonl"], reread=self.load,
        )  # fmt: skip
        self.wanted.persisted = True
        return self.scheduler

    def load(self) -> int:
        """Every other replica's file in the repo, as the others' counts (replacing those read before); returns
        how many lines were read. This replica's own file is not read: its counts are in memory."""
        read = 0
        counts: Counter[tuple[date, str]] = Counter()
        own = f"{FOLDER}/{self.replica}.jsonl"
        try:
            files = self.api.list_repo_files(self.repo_id, repo_type="dataset")
        except Exception as exc:  # noqa: BLE001 - a new repo, or the Hub unreachable: start from nothing
            log.warning("wanted: could not list %s (%s); counting from zero", self.repo_id, type(exc).__name__)
            return 0
        for name in files:
            if not (name.startswith(f"{FOLDER}/") and name.endswith(".jsonl")) or name == own:
                continue
            try:
                path = Path(self.api.hf_hub_download(self.repo_id, name, repo_type="dataset"))
                with path.open("r", encoding="utf-8", errors="replace") as file:
                    read += read_lines(file.read(settings.WANTED_FILE.value), counts)
            except Exception as exc:  # noqa: BLE001 - one unreadable file never hides the others
                log.warning("wanted: skipped %s (%s)", name, type(exc).__name__)
        self.wanted.merge_others(counts)
        return read


def resolve(env: dict[str, str] | None = None, api: HfApi | None = None) -> Wanted:
    """The counts as the environment says: persisted to `WANTED_REPO` with `HF_TOKEN` (the repo read and
    the scheduler started in the background), else in memory only."""
    wanted = Wanted(secret=shared_secret(env))
    token, repo = environment.HF_TOKEN.get(env), environment.WANTED_REPO.get(env)
    if token and repo:
        store = HubStore(wanted, repo, api or HfApi(token=token))

        def begin() -> None:
            try:
                store.start()
            except Exception as exc:  # noqa: BLE001 - the page keeps counting in memory, and says so
                wanted.sink = None
                log.warning("wanted: not persisted to %s (%s)", repo, type(exc).__name__)

        threading.Thread(target=begin, name="wanted-store", daemon=True).start()
    return wanted


@functools.cache
def shared() -> Wanted:
    """The process's counts (one per replica), resolved from the environment when first asked for."""
    return resolve()
