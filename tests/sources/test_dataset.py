"""The loader on small files made here: drift, broken files, wrong types, duplicates, nulls."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd

from components.sources.dataset import load
from tests.helpers import row, write

OLD, MID, NEW = "2.9.1.0+aaaaaaaa", "2.10.2.0+bbbbbbbb", "2.28.7631.0+82129205"


def ts(day: int) -> datetime:
    return datetime(2026, 11, day, tzinfo=UTC)


def test_files_with_different_schemas_are_unioned(tmp_path):
    write(tmp_path / "old.parquet", [row("a/old-only", cc=OLD)], drop=("exclusion", "nki"))
    write(tmp_path / "new.parquet", [row("a/new", cc=NEW, exclusion="not prioritized", result="EXCLUDED", extra_col=7)])
    snap = load(tmp_path)
    assert set(snap.rows["model_id"]) == {"a/old-only", "a/new"}
    old = snap.rows[snap.rows.model_id == "a/old-only"].iloc[0]
    assert pd.isna(old["exclusion"])  # null, not an error
    new = snap.rows[snap.rows.model_id == "a/new"].iloc[0]
    assert new["exclusion"] == "not prioritized"
    assert new["extra_col"] == "7"  # unknown columns are kept (as text)
    assert not snap.skipped


def test_broken_files_are_reported_and_the_good_ones_kept(tmp_path):
    good = write(tmp_path / "good.parquet", [row("a/good")])
    (tmp_path / "zero.parquet").write_bytes(b"")
    data = good.read_bytes()
    (tmp_path / "truncated.parquet").write_bytes(data[: len(data) // 2])
    (tmp_path / "corrupt.parquet").write_bytes(b"PAR1 this is not parquet at all PAR1")
    snap = load(tmp_path)
    assert list(snap.rows["model_id"]) == ["a/good"]
    assert {s.file for s in snap.skipped} == {"zero.parquet", "truncated.parquet", "corrupt.parquet"}
    assert all("unreadable Parquet file" in s.reason for s in snap.skipped)
    assert snap.provenance.files_read == 1
    assert str(tmp_path) not in " ".join(s.reason for s in snap.skipped)


def test_newest_run_of_a_model_on_one_stack_wins(tmp_path):
    write(
        tmp_path / "a.parquet", [row("a/m", result="FAIL", tested_at=ts(1)), row("a/m", result="PASS", tested_at=ts(5))]
    )
    write(tmp_path / "b.parquet", [row("a/m", result="FAIL", tested_at=ts(3))])
    snap = load(tmp_path)
    assert len(snap.rows) == 1
    assert snap.rows.iloc[0]["result"] == "PASS"


def test_same_model_on_two_stacks_is_two_rows(tmp_path):
    write(tmp_path / "a.parquet", [row("a/m", cc=OLD), row("a/m", cc=NEW)])
    assert len(load(tmp_path)) == 2


def test_stacks_newest_first_in_version_order(tmp_path):
    write(tmp_path / "a.parquet", [row("a/m", cc=OLD), row("a/m", cc=NEW, lib_version="5.9.0"),
                                   row("a/m", cc=MID), row("a/m", cc=NEW, lib_version="5.10.0"),
                                   row("a/m", cc="garbage-version")])  # fmt: skip
    snap = load(tmp_path)
    assert [(s.neuronx_cc, s.library_version) for s in snap.stacks] == [
        (NEW, "5.10.0"), (NEW, "5.9.0"), (MID, "4.57.1"), (OLD, "4.57.1"), ("garbage-version", "4.57.1"),
    ]  # fmt: skip
    assert snap.compilers() == [NEW, MID, OLD, "garbage-version"]


def test_an_empty_folder_is_an_empty_snapshot(tmp_path):
    snap = load(tmp_path)
    assert len(snap) == 0 and snap.stacks == () and snap.newest is None
    assert snap.resolve_stack("", "") is None


def test_provenance_counts_files_rows_and_newest_run(tmp_path):
    write(tmp_path / "a.parquet", [row("a/1", tested_at=ts(2)), row("a/2", tested_at=ts(9))])
    write(tmp_path / "b.parquet", [row("a/3", cc=OLD, tested_at=ts(4))])
    p = load(tmp_path).provenance
    assert (p.files_read, p.rows_read, p.kind) == (2, 3, "local")
    assert p.newest_tested_at == ts(9)


def test_duplicates_among_many_rows_leave_exactly_one_newest_row_each(tmp_path):
    rows = [row(f"org/m{i}", tested_at=ts(1 + i % 5), result="FAIL") for i in range(30)]
    rows += [row(f"org/m{i}", tested_at=ts(20), result="PASS") for i in range(0, 30, 3)]  # a newer rerun of every third
    rows += [row(f"org/m{i}", cc=OLD, tested_at=ts(2)) for i in range(10)]
    write(tmp_path / "a.parquet", rows[::-1])
    snap = load(tmp_path)
    newest = snap.rows[snap.rows.neuronx_cc == NEW]
    assert len(newest) == 30 and newest["model_id"].is_unique
    passed = set(newest[newest.result == "PASS"]["model_id"])
    assert passed == {f"org/m{i}" for i in range(0, 30, 3)}
    assert [(s.neuronx_cc, s.models, s.passed) for s in snap.stacks] == [(NEW, 30, 10), (OLD, 10, 10)]
