"""`Snapshot.record` and `details.history` read a model's rows from the columns' arrays kept once per
snapshot: every value, and its type, is the one pandas' own `iat` reads from the frame."""

from __future__ import annotations

import pandas as pd
import pytest

from components.queries import details
from components.sources.memo import approx_bytes
from components.sources.snapshot import ByPosition


def test_every_row_read_by_record_is_the_frame_s_own(libraries):
    snapshot, _ = libraries
    assert len(snapshot.rows) > 1
    for position in range(len(snapshot.rows)):
        expected = {name: column.iat[position] for name, column in snapshot.rows.items()}
        got = snapshot.record(position)
        assert list(got) == list(expected)
        for name, value in expected.items():
            assert type(got[name]) is type(value), name
            assert (pd.isna(value) and pd.isna(got[name])) if pd.api.types.is_scalar(value) and pd.isna(value) \
                else got[name] == value, name  # fmt: skip


def test_a_model_s_history_holds_each_of_its_rows(libraries):
    snapshot, _ = libraries
    positions = snapshot.model_positions("Qwen/Qwen3-0.6B")
    history = details.history(snapshot, "Qwen/Qwen3-0.6B")
    assert len(history) == len(positions) > 1
    versions = {str(snapshot.rows["library_version"].iat[p]) for p in positions}
    assert {entry["library_version"] for entry in history} == versions
    assert snapshot.columns() is snapshot.columns()  # taken once per snapshot


@pytest.mark.parametrize(
    "values",
    [["a", None, "b", "a"], [3, 1, None, 3], [2.5, float("nan"), 2.5], [None, None], ["only"],
     [pd.Timestamp("2025-11-24", tz="UTC"), None, pd.Timestamp("2025-11-24", tz="UTC")],
     pd.array(["x", None, "y"], dtype="string[pyarrow]")],
)  # fmt: skip
def test_a_categorical_read_by_position_reads_what_pandas_reads(values):
    """Whatever the categories' type and wherever values are missing (`ByPosition`)."""
    column = pd.Categorical(values)
    fast = ByPosition(column)
    assert len(fast) == len(column)
    for position in range(len(column)):
        value, got = column[position], fast[position]
        assert type(got) is type(value)
        assert (pd.isna(value) and pd.isna(got)) if pd.api.types.is_scalar(value) and pd.isna(value) else got == value


def test_the_snapshot_weighs_the_categories_it_took_out_of_pandas():
    column = pd.Categorical([f"run.py of model {i} " * 20 for i in range(200)])
    assert approx_bytes({"run_py": ByPosition(column)}) > 200 * 400  # each string, not the object alone
