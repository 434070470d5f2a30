"""A refresh merges only the stacks whose files changed, and gives exactly what a full load gives."""

from __future__ import annotations

import dataclasses
import os

import pandas as pd
import pytest

from components.runtime import settings
from components.sources import dataset, parts
from components.sources.file_cache import FileCache
from components.sources.snapshot import Snapshot
from tests.helpers import NEW_CC, OLD_CC, row, write

MID_CC = "2.21.8407.0+b37daac0"


@pytest.fixture
def built(monkeypatch):
    """The stacks `build_part` merged, one list per load."""
    merged: list[list[tuple]] = []
    real = parts.build_part

    def counting(tables):
        first = tables[0]
        merged[-1].append(tuple(first.column(n)[0].as_py() for n in ("neuronx_cc", "library", "library_version")))
        return real(tables)

    monkeypatch.setattr(parts, "build_part", counting)

    def load(folder, cache):
        merged.append([])
        return dataset.load(folder, cache=cache)

    return merged, load


def frame(snapshot: Snapshot) -> pd.DataFrame:
    """The rows as plain values in one order (a refresh may place the stacks in another order)."""
    rows = snapshot.rows.astype(object).where(snapshot.rows.notna(), None)
    return rows.sort_values(["model_id", "neuronx_cc", "library", "library_version"]).reset_index(drop=True)


def assert_same(refreshed: Snapshot, full: Snapshot) -> None:
    pd.testing.assert_frame_equal(frame(refreshed), frame(full))
    names = {c: str(d) for c, d in full.rows.dtypes.items()}
    assert {c: str(d) for c, d in refreshed.rows.dtypes.items()} == names  # categories stay categories
    assert [s.ref for s in refreshed.stacks] == [s.ref for s in full.stacks]
    for stack in full.stacks:
        mine = refreshed.rows.iloc[refreshed.stack_positions(stack)]
        assert set(mine["model_id"]) == set(full.rows.iloc[full.stack_positions(stack)]["model_id"])


def rewrite(path, rows, **kwargs):
    """Write `path` again with a modification time that surely differs."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    write(path, rows, **kwargs)
    os.utime(path, ns=(before + 10**9, before + 10**9))


def four_stacks(folder):
    write(folder / "a.parquet", [row("m/one", cc=OLD_CC), row("m/two", cc=OLD_CC, result="FAIL", error="E1 old")])
    write(folder / "b.parquet", [row("m/one", cc=MID_CC), row("m/three", cc=MID_CC)])
    # one file, two stacks
    write(folder / "c.parquet", [row("m/one", cc=NEW_CC), row("m/two", cc=NEW_CC, lib_version="5.0.0")])
    # a stack spread over two files: the newest run of a model wins across them
    write(folder / "d.parquet", [row("m/four", cc=NEW_CC, tested_at=pd.Timestamp("2026-01-01", tz="UTC"))])


def test_one_changed_file_merges_only_its_stacks_and_equals_a_full_load(tmp_path, built):
    merged, load = built
    four_stacks(tmp_path)
    cache = FileCache()
    load(tmp_path, cache)
    assert len(merged[-1]) == 4  # OLD, MID, NEW 4.57.1, NEW 5.0.0
    rewrite(
        tmp_path / "b.parquet",
        [row("m/one", cc=MID_CC, result="FAIL", error="E2 a new text"), row("m/five", cc=MID_CC)],
    )
    refreshed = load(tmp_path, cache)
    assert merged[-1] == [(MID_CC, "transformers", "4.57.1")]
    assert_same(refreshed, dataset.load(tmp_path))
    assert set(refreshed.rows["error"].dropna()) == {"E1 old", "E2 a new text"}  # old codes, grown vocabulary
    assert "m/three" not in set(refreshed.rows["model_id"]) and "m/five" in set(refreshed.rows["model_id"])


def test_a_stack_over_two_files_is_merged_again_when_either_changes(tmp_path, built):
    merged, load = built
    four_stacks(tmp_path)
    cache = FileCache()
    load(tmp_path, cache)
    newer = pd.Timestamp("2027-01-01", tz="UTC")
    rewrite(tmp_path / "d.parquet", [row("m/one", cc=NEW_CC, result="FAIL", tested_at=newer)])
    refreshed = load(tmp_path, cache)
    assert merged[-1] == [(NEW_CC, "transformers", "4.57.1")]  # not NEW_CC 5.0.0, also in c.parquet
    assert_same(refreshed, dataset.load(tmp_path))
    stack = refreshed.resolve_stack(NEW_CC, "4.57.1")
    assert refreshed.record(refreshed.row_for("m/one", stack))["result"] == "FAIL"  # d's newer run wins
    assert refreshed.row_for("m/four", stack) is None  # d no longer has it


def test_a_tie_in_time_goes_to_the_earlier_file_after_a_refresh_as_in_a_full_load(tmp_path, built):
    _, load = built
    same_time = pd.Timestamp("2026-06-01", tz="UTC")
    write(tmp_path / "a.parquet", [row("m/one", result="PASS", tested_at=same_time)])
    write(tmp_path / "b.parquet", [row("m/one", result="FAIL", tested_at=same_time)])
    cache = FileCache()
    load(tmp_path, cache)
    rewrite(tmp_path / "b.parquet", [row("m/one", result="ERROR", tested_at=same_time)])
    refreshed = load(tmp_path, cache)
    assert list(refreshed.rows["result"]) == ["PASS"] == list(dataset.load(tmp_path).rows["result"])


def test_a_removed_file_takes_its_stack_and_its_extra_columns_with_it(tmp_path, built):
    merged, load = built
    four_stacks(tmp_path)
    write(tmp_path / "e.parquet", [row("m/six", cc="2.30.1.0+cafecafe", diffusers="0.35.1")])
    cache = FileCache()
    assert "diffusers" in load(tmp_path, cache).rows.columns
    (tmp_path / "e.parquet").unlink()
    refreshed = load(tmp_path, cache)
    assert merged[-1] == []  # every remaining stack taken as it was
    assert "diffusers" not in refreshed.rows.columns and "m/six" not in set(refreshed.rows["model_id"])
    assert_same(refreshed, dataset.load(tmp_path))


def test_a_new_file_with_a_new_column_and_new_texts_joins_the_kept_stacks(tmp_path, built):
    merged, load = built
    four_stacks(tmp_path)
    cache = FileCache()
    load(tmp_path, cache)
    write(tmp_path / "e.parquet", [row("m/six", cc="2.30.1.0+cafecafe", diffusers="0.35.1", run_py="# brand new\n")])
    refreshed = load(tmp_path, cache)
    assert merged[-1] == [("2.30.1.0+cafecafe", "transformers", "4.57.1")]
    assert_same(refreshed, dataset.load(tmp_path))
    assert refreshed.rows["diffusers"].notna().sum() == 1


def test_twenty_refreshes_of_one_file_keep_matching_a_full_load(tmp_path, built):
    _, load = built
    four_stacks(tmp_path)
    cache = FileCache()
    load(tmp_path, cache)
    for i in range(20):
        rows = [row(f"m/r{j}", cc=MID_CC, error=f"E{i}-{j}" if j % 2 else None) for j in range(i + 1)]
        rewrite(tmp_path / "b.parquet", rows)
        refreshed = load(tmp_path, cache)
    assert_same(refreshed, dataset.load(tmp_path))


def test_search_keys_taken_from_a_previous_snapshot_are_those_a_fresh_one_makes(tmp_path):
    four_stacks(tmp_path)
    old = dataset.load(tmp_path)
    write(tmp_path / "e.parquet", [row("Org/New-Model_7B", cc=NEW_CC)])
    fresh = dataset.load(tmp_path)
    again = Snapshot(fresh.rows, fresh.provenance, previous=old)
    assert again._model_keys.equals(fresh._model_keys) and again._model_tokens.equals(fresh._model_tokens)
    assert again.matching_models(("new", "7b")).sum() == 1


def test_texts_no_file_holds_any_more_are_let_go_and_the_rows_stay_right(tmp_path, built, monkeypatch):
    merged, load = built
    four_stacks(tmp_path)
    monkeypatch.setattr(settings, "VOCABULARY_COMPACT", dataclasses.replace(settings.VOCABULARY_COMPACT, value=5))
    cache = FileCache()
    load(tmp_path, cache)
    sizes, stacks_merged = [], []
    for i in range(6):
        rows = [row(f"m/r{j}", cc=MID_CC, result="FAIL", error=f"E{i}-{j}") for j in range(4)]
        rewrite(tmp_path / "b.parquet", rows)
        refreshed = load(tmp_path, cache)
        stacks_merged.append(len(merged[-1]))
        assert_same(refreshed, dataset.load(tmp_path))
        sizes.append(len(cache.categories()["error"].categories))
    # each refresh leaves 4 texts behind; past 5 (and more than the 5 in use) they are let go
    assert max(sizes) <= 4 + 5 + 4 + 1 and sizes[-1] < 4 * 6
    # after letting go, the next refresh merges every stack once; otherwise only the changed one
    assert 4 in stacks_merged[1:] and set(stacks_merged) == {1, 4}
    again = load(tmp_path, cache)  # nothing changed: the same rows, whatever was compacted
    assert_same(again, dataset.load(tmp_path))


def test_a_dictionary_that_repeats_a_text_is_shared_with_each_text_once():
    """No Parquet writer we have repeats a dictionary entry, but a table can: the vocabulary stays unique."""
    import pyarrow as pa

    cache = FileCache()
    first = pa.table({"error": pa.array(["y", None, "z"]).dictionary_encode()})
    cache.share(first, ["error"])
    repeated = pa.DictionaryArray.from_arrays(pa.array([0, 1, None, 2, 3], pa.int32()), pa.array(["x", "x", "y", "x"]))
    shared = cache.share(pa.table({"error": repeated}), ["error"])
    categories = list(cache.categories()["error"].categories)
    decoded = [categories[c] if c >= 0 else None for c in shared.column("error").to_pylist()]  # -1: no value
    assert decoded == ["x", "x", None, "y", "x"]
    assert sorted(categories) == ["x", "y", "z"]
