"""`python app.py` with bad paths: it stops (exit 1) with an error naming the whole path it was given."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import ROOT, free_port, row, write


def start(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(ROOT / "app.py"), *args, "--port", str(free_port())]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_a_path_that_does_not_exist_is_named_whole(tmp_path):
    missing = tmp_path / "nonexistent" / "path"
    done = start("--dataset", str(missing))
    assert done.returncode == 1
    assert f"'{missing}' is neither a Parquet file nor a folder" in done.stderr


@pytest.mark.parametrize("what", ["empty folder", "folder without Parquet", "a text file", "broken Parquet"])
def test_a_dataset_with_nothing_readable_stops_and_says_what_was_found(tmp_path, what):
    source = tmp_path / "data"
    source.mkdir()
    expected = {
        "empty folder": f"no Parquet files in '{source}' (found nothing)",
        "folder without Parquet": f"no Parquet files in '{source}' (found 1 other file(s): notes.txt)",
        "a text file": f"no readable Parquet file in '{source / 'README.md'}'",
        "broken Parquet": f"no readable Parquet file in '{source}': '{source / 'x.parquet'}' (ArrowInvalid",
    }[what]
    if what == "folder without Parquet":
        (source / "notes.txt").write_text("hello")
    elif what == "a text file":
        source = source / "README.md"
        source.write_text("# not data")
    elif what == "broken Parquet":
        (source / "x.parquet").write_text("not parquet")
    done = start("--dataset", str(source))
    assert done.returncode == 1, done.stderr
    assert expected in done.stderr


def test_a_missing_rankings_file_is_named_whole(tmp_path):
    data = write(tmp_path / "d.parquet", [row()])
    missing = tmp_path / "nowhere" / "rankings.json"
    done = start("--dataset", str(data), "--rankings", str(missing))
    assert done.returncode == 1
    assert f"--rankings '{missing}'" in done.stderr and "file not found" in done.stderr
