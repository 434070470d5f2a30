"""The loader on small files made here: drift, broken files, wrong types, duplicates, nulls."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from components.sources.dataset import load
from components.sources.listing import DatasetError
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


def test_folders_are_searched_recursively(tmp_path):
    write(tmp_path / "data" / "cc=2.9" / "x.parquet", [row("a/deep", cc=OLD)])
    assert list(load(tmp_path).rows["model_id"]) == ["a/deep"]


def test_a_single_file_is_a_source(tmp_path):
    path = write(tmp_path / "one.parquet", [row("a/one")])
    snap = load(path)
    assert list(snap.rows["model_id"]) == ["a/one"]
    assert snap.provenance.source == "one.parquet"


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


def test_documented_types_are_enforced_when_values_convert(tmp_path):
    schema = pa.schema([("model_id", pa.string()), ("tp", pa.float64()), ("wall_s", pa.string()),
                        ("hbm_peak_gb", pa.string()), ("tested_at", pa.string()), ("neuronx_cc", pa.string()),
                        ("library", pa.string()), ("library_version", pa.string()), ("result", pa.string())])  # fmt: skip
    rows = [
        {"model_id": "a/ok", "tp": 2.0, "wall_s": "123", "hbm_peak_gb": "7.5", "tested_at": "2026-11-03T10:00:00Z",
         "neuronx_cc": NEW, "library": "transformers", "library_version": "4.57.1", "result": "PASS"},
        {"model_id": "a/bad", "tp": None, "wall_s": "soon", "hbm_peak_gb": "lots", "tested_at": "yesterday",
         "neuronx_cc": NEW, "library": "transformers", "library_version": "4.57.1", "result": "FAIL"},
    ]  # fmt: skip
    write(tmp_path / "typed.parquet", rows, schema=schema)
    snap = load(tmp_path)
    ok = snap.rows[snap.rows.model_id == "a/ok"].iloc[0]
    assert ok["tp"] == 2 and ok["wall_s"] == 123 and ok["hbm_peak_gb"] == 7.5
    assert ok["tested_at"] == datetime(2026, 11, 3, 10, tzinfo=UTC)
    bad = snap.rows[snap.rows.model_id == "a/bad"].iloc[0]
    assert pd.isna(bad["wall_s"]) and pd.isna(bad["hbm_peak_gb"]) and pd.isna(bad["tested_at"])
    reasons = " ".join(s.reason for s in snap.skipped)
    assert "'wall_s'" in reasons and "'hbm_peak_gb'" in reasons and "'tested_at'" in reasons
    assert str(snap.rows["tp"].dtype) == "Int32"


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


def test_rows_without_model_id_are_skipped_and_counted(tmp_path):
    write(tmp_path / "a.parquet", [row("a/m"), row(None), row("   ")])
    snap = load(tmp_path)
    assert list(snap.rows["model_id"]) == ["a/m"]
    assert any("2 row(s) without a model_id" in s.reason for s in snap.skipped)


def test_nulls_everywhere_do_not_crash(tmp_path):
    nulls = {k: None for k in row()}
    write(tmp_path / "a.parquet", [dict(nulls, model_id="a/nothing-known")], schema=None)
    snap = load(tmp_path)
    assert list(snap.rows["model_id"]) == ["a/nothing-known"]
    assert snap.stacks[0].neuronx_cc == "unknown"
    assert snap.stacks[0].passed == 0


def test_an_empty_folder_is_an_empty_snapshot(tmp_path):
    snap = load(tmp_path)
    assert len(snap) == 0 and snap.stacks == () and snap.newest is None
    assert snap.resolve_stack("", "") is None


def test_a_missing_source_is_a_clear_error(tmp_path):
    with pytest.raises(DatasetError, match="not found"):
        load(tmp_path / "nope")


def test_provenance_counts_files_rows_and_newest_run(tmp_path):
    write(tmp_path / "a.parquet", [row("a/1", tested_at=ts(2)), row("a/2", tested_at=ts(9))])
    write(tmp_path / "b.parquet", [row("a/3", cc=OLD, tested_at=ts(4))])
    p = load(tmp_path).provenance
    assert (p.files_read, p.rows_read, p.kind) == (2, 3, "local")
    assert p.newest_tested_at == ts(9)


def test_dictionary_encoded_and_large_string_columns_read(tmp_path):
    table = pa.Table.from_pylist([row("a/dict")])
    table = table.set_column(
        table.column_names.index("result"), "result", pa.compute.dictionary_encode(table.column("result"))
    )
    table = table.set_column(
        table.column_names.index("run_py"), "run_py", table.column("run_py").cast(pa.large_string())
    )
    pq.write_table(table, tmp_path / "d.parquet")
    snap = load(tmp_path)
    assert snap.rows.iloc[0]["result"] == "PASS" and snap.rows.iloc[0]["run_py"].startswith("# run")


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


# ---- columns under the names of the dataset's own documented query ----------------------------


def _without_tp(**fields) -> dict:
    r = row(**fields)
    del r["tp"]
    return r


def test_neuron_cores_is_tp(tmp_path):
    write(tmp_path / "st.parquet", [_without_tp(model_id="a/enc", neuron_cores=2), _without_tp(model_id="b/enc")])
    snapshot = load(tmp_path)
    cores = dict(zip(snapshot.rows["model_id"], snapshot.rows["tp"]))
    assert cores["a/enc"] == 2 and pd.isna(cores["b/enc"])
    assert "neuron_cores" not in snapshot.rows.columns and not snapshot.skipped


def test_tp_and_neuron_cores_that_disagree_keep_tp_and_say_so(tmp_path, caplog):
    write(
        tmp_path / "both.parquet",
        [
            row("a/one", tp=1, neuron_cores=1),
            row("b/two", tp=4, neuron_cores=8),
            row("c/three", tp=None, neuron_cores=2),
        ],
    )
    with caplog.at_level("WARNING", logger="components.sources.dataset"):
        snapshot = load(tmp_path)
    cores = dict(zip(snapshot.rows["model_id"], snapshot.rows["tp"]))
    assert cores == {"a/one": 1, "b/two": 4, "c/three": 2}  # tp wins; a row naming only the alias keeps it
    assert [s.reason for s in snapshot.skipped] == [
        "1 row(s) give 'tp' and 'neuron_cores' that disagree; 'tp' is shown"
    ]
    assert "disagree" in caplog.text and "both.parquet" in caplog.text
