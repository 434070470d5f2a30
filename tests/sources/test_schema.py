"""One file's table given the documented schema: types enforced where values convert, aliases folded in,
what was lost counted."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from components.sources.dataset import load
from components.sources.schema import HEAVY_TYPE, coerce, normalise_table
from tests.helpers import row, write

NEW = "2.28.7631.0+82129205"


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


def test_a_table_gets_every_documented_column_and_keeps_extra_ones_as_text():
    table = pa.table({"model_id": [" a/one ", None], "tp": ["4", "many"], "extra": [1, 2], "run_py": ["x", "y"]})
    normalised, notes = normalise_table(table)
    assert normalised.column("model_id").to_pylist() == ["a/one"]  # trimmed; the row without one dropped
    assert normalised.column("tp").to_pylist() == [4] and normalised.column("extra").to_pylist() == ["1"]
    assert normalised.column("run_py").type == HEAVY_TYPE  # long free text stored once per distinct value
    assert "exclusion" in normalised.column_names  # a documented column the file lacks is there, empty
    assert notes == ["1 value(s) of 'tp' were not whole numbers and are shown as blank",
                     "1 row(s) without a model_id were skipped"]  # fmt: skip


def test_coerce_counts_what_it_could_not_convert():
    converted, lost = coerce(pa.chunked_array([["1.5", "x", None]]), pa.float64())
    assert converted.to_pylist() == [1.5, None, None] and lost == 1
