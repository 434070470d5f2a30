"""Where a dataset's files are: a folder (searched recursively), one file, or nothing there."""

from __future__ import annotations

import pytest

from components.sources.dataset import load
from components.sources.errors import DatasetError
from components.sources.listing import check_local_source, list_source
from tests.helpers import row, write

OLD = "2.9.1.0+aaaaaaaa"


def test_folders_are_searched_recursively(tmp_path):
    write(tmp_path / "data" / "cc=2.9" / "x.parquet", [row("a/deep", cc=OLD)])
    assert list(load(tmp_path).rows["model_id"]) == ["a/deep"]


def test_a_single_file_is_a_source(tmp_path):
    path = write(tmp_path / "one.parquet", [row("a/one")])
    snap = load(path)
    assert list(snap.rows["model_id"]) == ["a/one"]
    assert snap.provenance.source == "one.parquet"


def test_a_missing_source_is_a_clear_error(tmp_path):
    with pytest.raises(DatasetError, match="not found"):
        load(tmp_path / "nope")


def test_a_local_listing_keys_each_file_by_size_and_time_and_opens_it(tmp_path):
    path = write(tmp_path / "sub" / "a.parquet", [row("a/one")])
    (tmp_path / "notes.txt").write_text("not data")
    listing, kind, label = list_source(str(tmp_path))
    assert (kind, label, list(listing.files)) == ("local", tmp_path.name, ["sub/a.parquet"])
    stat = path.stat()
    assert listing.files["sub/a.parquet"] == f"{stat.st_size}:{stat.st_mtime_ns}"
    with listing.opener("sub/a.parquet") as handle:
        assert handle.read(4) == b"PAR1"
    write(path, [row("a/one"), row("a/two")])
    assert list_source(str(tmp_path))[0].identity != listing.identity  # a rewritten file is a new listing


def test_a_hub_path_that_names_no_dataset_is_refused_before_any_call():
    with pytest.raises(DatasetError, match="not a Hub dataset path"):
        list_source("hf://models/org/name")


def test_the_command_line_check_names_what_it_found(tmp_path):
    (tmp_path / "readme.md").write_text("#")
    with pytest.raises(DatasetError, match=r"no Parquet files in .* \(found 1 other file\(s\): readme.md\)"):
        check_local_source(tmp_path)
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match="no readable Parquet file"):
        check_local_source(tmp_path)
    write(tmp_path / "good.parquet", [row("a/one")])
    check_local_source(tmp_path)  # one readable file is enough
