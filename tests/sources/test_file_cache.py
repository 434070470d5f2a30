"""Refreshes that cost what changed: an unchanged listing reads nothing, a changed file is the only one reread."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pandas as pd
import pytest

from components.sources import dataset, listing
from components.sources.file_cache import FileCache
from tests.helpers import NEW_CC, OLD_CC, row, write

REPO = "aws-neuron/torch-neuronx-model-support"


@pytest.fixture
def reads(monkeypatch):
    """The names of the files actually read, in order."""
    names: list[str] = []
    real = dataset.read_file

    def counting(name, key, opener):
        names.append(name)
        return real(name, key, opener)

    monkeypatch.setattr(dataset, "read_file", counting)
    return names


def three_files(folder):
    write(folder / "new.parquet", [row("a/one", cc=NEW_CC), row("a/two", cc=NEW_CC, result="FAIL")])
    write(folder / "old.parquet", [row("a/one", cc=OLD_CC)], drop=("exclusion",))
    write(folder / "sub" / "other.parquet", [row("b/three", cc=NEW_CC, lib_version="5.0.0")])


def same_rows(a, b) -> bool:
    def norm(snapshot):
        frame = snapshot.rows.astype(object).where(snapshot.rows.notna(), None)
        return frame.sort_values(["model_id", "neuronx_cc", "library_version"]).reset_index(drop=True)

    pd.testing.assert_frame_equal(norm(a), norm(b))
    return True


def bump(path, rows):
    """Rewrite `path` with new rows and a modification time that surely differs."""
    stat = path.stat()
    write(path, rows)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))


def test_an_unchanged_local_folder_reads_no_file(tmp_path, reads):
    three_files(tmp_path)
    cache = FileCache()
    first = dataset.load(tmp_path, cache=cache)
    assert len(reads) == 3
    again = dataset.load(tmp_path, cache=cache)
    assert len(reads) == 3 and cache.files_reread == 0
    assert again.rows is first.rows and again.provenance.loaded_at >= first.provenance.loaded_at


def test_one_changed_local_file_is_the_only_one_reread_and_the_result_equals_a_full_load(tmp_path, reads):
    three_files(tmp_path)
    cache = FileCache()
    dataset.load(tmp_path, cache=cache)
    bump(tmp_path / "old.parquet", [row("a/one", cc=OLD_CC, result="FAIL"), row("c/new", cc=OLD_CC)])
    (tmp_path / "sub" / "other.parquet").unlink()
    write(tmp_path / "added.parquet", [row("d/added", cc=NEW_CC)])
    del reads[:]
    refreshed = dataset.load(tmp_path, cache=cache)
    assert sorted(reads) == ["added.parquet", "old.parquet"] and cache.files_reread == 2
    assert same_rows(refreshed, dataset.load(tmp_path))
    assert "b/three" not in set(refreshed.rows["model_id"])  # a removed file takes its rows with it
    assert refreshed.provenance.files_read == 3


class DatasetFolderHub:
    """`HfApi().dataset_info` and `HfFileSystem().open` answered from a local folder: each file's blob id
    is its content's hash, the revision the hash of them all."""

    def __init__(self, folder):
        self.folder = folder
        self.opened: list[str] = []
        self.revisions: list[str] = []

    def siblings(self):
        import hashlib

        files = sorted(p for p in self.folder.rglob("*") if p.is_file())
        return [
            SimpleNamespace(
                rfilename=str(p.relative_to(self.folder)), size=p.stat().st_size,
                blob_id=hashlib.sha1(p.read_bytes()).hexdigest(),
            )
            for p in files
        ]  # fmt: skip

    def dataset_info(self, repo_id, *, revision=None, files_metadata=False, timeout=None):
        assert repo_id == REPO and files_metadata and timeout
        siblings = self.siblings()
        sha = str(abs(hash(tuple(s.blob_id for s in siblings))))
        self.revisions.append(sha)
        return SimpleNamespace(sha=sha, siblings=siblings)

    def open(self, path, mode):
        prefix = f"datasets/{REPO}@{self.revisions[-1]}/"
        assert path.startswith(prefix), path  # every file is read at the revision that was listed
        self.opened.append(path[len(prefix) :])
        return open(self.folder / path[len(prefix) :], mode)


@pytest.fixture
def hub(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    three_files(repo / "data")
    (repo / "README.md").write_text("# the card\n")
    fake = DatasetFolderHub(repo)
    monkeypatch.setattr(listing, "HfApi", lambda: fake)
    monkeypatch.setattr(listing, "HfFileSystem", lambda: fake)
    return fake


def test_an_unchanged_hub_revision_reads_no_file(hub):
    cache = FileCache()
    first = dataset.load(dataset.HUB_DATASET, cache=cache)
    assert sorted(hub.opened) == ["data/new.parquet", "data/old.parquet", "data/sub/other.parquet"]
    assert first.provenance.kind == "hub" and first.provenance.source == REPO
    (hub.folder / "README.md").write_text("# a new card: a new revision, the same data\n")
    again = dataset.load(dataset.HUB_DATASET, cache=cache)
    assert len(hub.opened) == 3 and len(hub.revisions) == 2
    assert again.rows is first.rows


def test_one_changed_blob_rereads_only_that_file_and_equals_a_full_load(hub):
    cache = FileCache()
    dataset.load(dataset.HUB_DATASET, cache=cache)
    write(hub.folder / "data" / "new.parquet", [row("a/one", cc=NEW_CC, result="FAIL"), row("e/late", cc=NEW_CC)])
    del hub.opened[:]
    refreshed = dataset.load(dataset.HUB_DATASET, cache=cache)
    assert hub.opened == ["data/new.parquet"]
    assert same_rows(refreshed, dataset.load(dataset.HUB_DATASET))
    assert "e/late" in set(refreshed.rows["model_id"])


def test_one_hub_file_named_whole_is_read_alone(hub):
    snapshot = dataset.load(f"hf://datasets/{REPO}/data/sub/other.parquet")
    assert hub.opened == ["data/sub/other.parquet"] and list(snapshot.rows["model_id"]) == ["b/three"]


def test_a_late_answer_from_an_abandoned_load_never_replaces_a_newer_one(tmp_path):
    three_files(tmp_path)
    cache = FileCache()
    late, fresh = cache.ticket(), cache.ticket()
    newer = dataset.load(tmp_path)
    cache.commit(fresh, ("a",), {}, newer, 0)
    cache.commit(late, ("b",), {}, dataset.load(tmp_path), 3)
    assert cache.unchanged(("a",)).rows is newer.rows and cache.unchanged(("b",)) is None


def truncate(path, size: int | None = None) -> None:
    """`path` cut short (its first half by default), written beside it and moved into place as a sync does."""
    data = path.read_bytes()
    staged = path.with_name(f".{path.name}.partial")
    staged.write_bytes(data[: len(data) // 2 if size is None else size])
    os.replace(staged, path)


def test_a_file_that_turns_unreadable_is_served_from_its_last_good_read(tmp_path, reads):
    three_files(tmp_path)
    cache = FileCache()
    first = dataset.load(tmp_path, cache=cache)
    truncate(tmp_path / "new.parquet")
    del reads[:]
    kept = dataset.load(tmp_path, cache=cache)
    assert reads == ["new.parquet"]  # it was tried, and failed
    assert same_rows(kept, first) and kept.stacks == first.stacks
    ((last_good),) = kept.last_good
    assert last_good.file == "new.parquet" and [s.library_version for s in last_good.stacks] == ["4.57.1"]
    ((note),) = kept.skipped
    assert note.file == "new.parquet" and "unreadable Parquet file" in note.reason
    assert note.reason.endswith("its rows from the last good read are served")
    # the same unreadable version is not read again; the other files still refresh as they change
    bump(tmp_path / "old.parquet", [row("a/one", cc=OLD_CC, result="FAIL")])
    del reads[:]
    again = dataset.load(tmp_path, cache=cache)
    assert reads == ["old.parquet"] and again.last_good == kept.last_good
    assert "a/two" in set(again.rows["model_id"])
    # another unreadable version keeps the same good rows; a good one is read and served
    truncate(tmp_path / "new.parquet", 8)
    assert dataset.load(tmp_path, cache=cache).last_good[0].file == "new.parquet"
    bump(tmp_path / "new.parquet", [row("a/one", cc=NEW_CC, result="FAIL")])
    fresh = dataset.load(tmp_path, cache=cache)
    assert not fresh.last_good and not fresh.skipped and "a/two" not in set(fresh.rows["model_id"])
    assert same_rows(fresh, dataset.load(tmp_path))


def test_a_file_that_never_read_well_is_skipped_and_a_removed_one_forgotten(tmp_path):
    three_files(tmp_path)
    cache = FileCache()
    dataset.load(tmp_path, cache=cache)
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 not parquet PAR1")
    skipped = dataset.load(tmp_path, cache=cache)
    assert not skipped.last_good and [s.file for s in skipped.skipped] == ["broken.parquet"]
    truncate(tmp_path / "new.parquet")
    dataset.load(tmp_path, cache=cache)
    (tmp_path / "new.parquet").unlink()  # gone: its rows go with it, as for any removed file
    gone = dataset.load(tmp_path, cache=cache)
    assert not gone.last_good and "a/two" not in set(gone.rows["model_id"])
