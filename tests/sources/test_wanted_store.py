"""The wanted counts persisted through huggingface_hub's `CommitScheduler`, into a recording `HfApi` (no
network): append-only files, one per replica, that hold model ids and day counts and no address."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from huggingface_hub import HfApi
from huggingface_hub.hf_api import RepoUrl

from components.sources import wanted_store
from components.sources.wanted_counts import Wanted

REPO = "someone/wanted-models"
ADDRESSES = ("203.0.113.7", "198.51.100.23", "2001:db8::1")


class RecordingApi(HfApi):
    """An HfApi that keeps each commit's files in memory and serves them back, and never calls the Hub."""

    def __init__(self, tmp: Path):
        super().__init__(token="hf_test")
        self.tmp = tmp
        self.files: dict[str, bytes] = {}
        self.commits: list[dict[str, bytes]] = []

    def create_repo(self, repo_id, **kwargs):
        assert kwargs.get("repo_type") == "dataset"
        return RepoUrl(f"https://huggingface.co/datasets/{repo_id}")

    def create_commit(self, repo_id, operations, **kwargs):
        assert repo_id == REPO and kwargs.get("repo_type") == "dataset"
        commit = {}
        for op in operations:
            with op.as_file() as file:
                commit[op.path_in_repo] = file.read()
        self.commits.append(commit)
        self.files.update(commit)
        return None

    def list_repo_files(self, repo_id, **kwargs):
        return list(self.files)

    def hf_hub_download(self, repo_id, filename, **kwargs):
        path = self.tmp / "downloads" / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self.files[filename])
        return str(path)


@pytest.fixture
def api(tmp_path):
    return RecordingApi(tmp_path)


def started(api: RecordingApi, folder: Path) -> tuple[Wanted, wanted_store.HubStore]:
    counts = Wanted(clock=lambda: date(2026, 12, 4))
    store = wanted_store.HubStore(counts, REPO, api, folder)
    store.start()
    return counts, store


def test_the_counts_land_in_the_repo_as_day_counts_with_no_address(api, tmp_path):
    counts, store = started(api, tmp_path / "one")
    try:
        assert counts.persisted
        for address in ADDRESSES:
            for _ in range(100):
                counts.note("org/wanted-model", address)
        counts.note("org/other", ADDRESSES[0])
        store.scheduler.trigger().result()
        assert len(api.commits) == 1
        ((path, body),) = api.commits[0].items()
        assert path == f"wanted/{store.replica}.jsonl"
        lines = [json.loads(line) for line in body.decode().splitlines()]
        assert lines == [
            {"day": "2026-12-04", "model_id": "org/other", "lookups": 1},
            {"day": "2026-12-04", "model_id": "org/wanted-model", "lookups": 3},
        ]
        text = body.decode()
        for address in ADDRESSES:
            assert address not in text
        assert all(set(line) == {"day", "model_id", "lookups"} for line in lines)
        # append-only: a later push adds lines to the same file, and the earlier ones stay as they were
        counts.note("org/wanted-model", "192.0.2.1")
        store.scheduler.trigger().result()
        again = api.files[path].decode()
        assert again.startswith(text) and again[len(text) :] == (
            '{"day": "2026-12-04", "model_id": "org/wanted-model", "lookups": 1}\n'
        )
        store.scheduler.trigger().result()
        assert len(api.commits) == 2  # nothing new: no commit
    finally:
        store.scheduler.stop()


def test_a_new_replica_reads_back_what_others_wrote_and_writes_its_own_file(api, tmp_path):
    first, store = started(api, tmp_path / "one")
    try:
        for address in ADDRESSES:
            first.note("org/wanted-model", address)
        store.scheduler.trigger().result()
    finally:
        store.scheduler.stop()
    api.files["wanted/broken.jsonl"] = b'not json\n{"day": "2026-12-04", "model_id": "org/x", "lookups": -4}\n'
    api.files["README.md"] = b"# not counts"
    second, other = started(api, tmp_path / "two")
    try:
        assert [(c.model_id, c.lookups) for c in second.counted()] == [("org/wanted-model", 3)]
        second.note("org/wanted-model", ADDRESSES[0])
        other.scheduler.trigger().result()
        assert f"wanted/{other.replica}.jsonl" in api.commits[-1] and other.replica != store.replica
    finally:
        other.scheduler.stop()


def test_without_token_and_repo_the_counts_stay_in_memory():
    for env in ({}, {"HF_TOKEN": "hf_x"}, {"WANTED_REPO": REPO}):
        counts = wanted_store.resolve(env)
        assert not counts.persisted and counts.sink is None


def test_each_replica_rereads_the_others_files_after_its_commit_without_counting_twice(api, tmp_path):
    first, one = started(api, tmp_path / "one")
    second, two = started(api, tmp_path / "two")
    try:
        first.note("org/wanted-model", ADDRESSES[0])
        one.scheduler.trigger().result()
        second.note("org/wanted-model", ADDRESSES[1])
        second.note("org/second-only", ADDRESSES[1])
        two.scheduler.trigger().result()  # commits its own, then reads the first's back
        one.scheduler.trigger().result()  # and the first reads the second's
        for counts in (first, second):
            ranked = {c.model_id: c.lookups for c in counts.counted()}
            assert ranked == {"org/wanted-model": 2, "org/second-only": 1}
        assert two.load() == 1 and one.load() == 2  # read again: the others' counts replaced, not added
        assert {c.model_id: c.lookups for c in second.counted()} == {"org/wanted-model": 2, "org/second-only": 1}
    finally:
        one.scheduler.stop()
        two.scheduler.stop()


def test_replicas_sharing_the_secret_salt_a_day_alike_and_unlike_any_other_day():
    from components.sources.wanted_counts import day_salt, shared_secret

    secret = shared_secret({"WANTED_SECRET": "the replicas' secret"})
    day = date(2026, 12, 4)
    assert day_salt(day, secret) == day_salt(day, secret) != day_salt(date(2026, 12, 5), secret)
    assert day_salt(day, None) != day_salt(day, None)  # no secret: random, per process
    assert shared_secret({}) is None
    a, b = (Wanted(clock=lambda: day, secret=secret) for _ in range(2))
    assert a.salt == b.salt
