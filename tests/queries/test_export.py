"""components/queries/export.py: the current view's rows as CSV and Parquet that read back as the same data."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from components.queries import export
from components.queries.views import TRENDING, normalise, select
from components.sources.dataset import load
from components.sources.rankings import empty_rankings
from tests.helpers import NEW_CC, row, write

HOSTILE = ('=HYPERLINK("http://x","y")', "+1+1", "-2", "@SUM(A1)", "<script>alert(1)</script>", 'a,"b"\nc')


def read(result, fmt: str) -> pd.DataFrame:
    """The file `export.to_bytes` makes, read back."""
    content = export.to_bytes(result, fmt)
    assert isinstance(content, bytes)
    if fmt == "csv":
        return pd.read_csv(io.BytesIO(content), keep_default_na=False, na_values=[""], dtype=str)
    return pd.read_parquet(io.BytesIO(content))


def values(column: pd.Series) -> list:
    return [None if pd.isna(v) else v for v in column]


def test_the_files_hold_the_filtered_view(world):
    snap, rankings = world
    result = select(snap, rankings, normalise("qwen", neuronx_cc=NEW_CC, library_version="4.57.1"))
    for fmt in export.FORMATS:
        assert export.file_name(result, fmt) == f"torch-neuronx-support_selected_2.28.7631.0_transformers-4.57.1.{fmt}"
        back = read(result, fmt)
        assert list(back["model_id"]) == ["Qwen/Qwen3-0.6B"]
        assert list(back.columns[:12]) == [
            "model_id", "result", "kind", "tp", "wall_s", "hbm_peak_gb", "hbm_capacity_gb", "exclusion",
            "neuronx_cc", "library", "library_version", "task",
        ]  # fmt: skip


def test_every_matching_row_not_only_the_page(tmp_path):
    write(tmp_path / "many.parquet", [row(f"org/model-{i:03d}") for i in range(250)])
    snap = load(tmp_path)
    result = select(snap, empty_rankings("none"), normalise())
    assert len(read(result, "csv")) == 250
    assert len(read(result, "parquet")) == 250


def test_ranked_views_keep_rank_order_and_untested_models(world):
    snap, rankings = world
    result = select(
        snap, rankings, normalise(view=TRENDING, task="text-generation", neuronx_cc=NEW_CC, library_version="4.57.1")
    )
    back = read(result, "parquet")
    assert list(back["rank"]) == [1, 2, 3]
    assert list(back["result"]) == ["FAIL", "not tested", "PASS"]
    assert values(back["tp"]) == [2, None, 1]
    assert export.file_name(result, "csv").startswith("torch-neuronx-support_trending_")


def test_parquet_round_trips_every_value(world):
    snap, rankings = world
    result = select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1"))
    back = read(result, "parquet")
    expected = pd.DataFrame(result.records())
    assert list(back["model_id"]) == list(expected["model_id"])
    assert "evil/<img src=x onerror=alert(1)>" in set(back["model_id"])
    for column in ("tp", "wall_s", "hbm_peak_gb", "exclusion", "result"):
        assert values(back[column]) == values(expected[column]), column


def test_hostile_text_stays_text(tmp_path):
    write(
        tmp_path / "x.parquet", [row(f"org/m{i}", result="EXCLUDED", exclusion=text) for i, text in enumerate(HOSTILE)]
    )
    snap = load(tmp_path)
    result = select(snap, empty_rankings("none"), normalise())
    parquet = read(result, "parquet").set_index("model_id")["exclusion"]
    assert [parquet[f"org/m{i}"] for i in range(len(HOSTILE))] == list(HOSTILE)
    csv = read(result, "csv").set_index("model_id")["exclusion"]
    got = [csv[f"org/m{i}"] for i in range(len(HOSTILE))]
    assert got[:4] == ["'" + t for t in HOSTILE[:4]]  # defused: a spreadsheet shows them as text
    assert got[4:] == list(HOSTILE[4:])  # markup, commas, quotes and newlines survive unchanged


def test_numbers_are_not_defused(world):
    snap, rankings = world
    result = select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1"))
    frame = export.csv_frame(export.export_table(result))
    assert frame["tp"].dropna().tolist() == [1, 2, 1]
    assert export.defuse("-1") == "'-1" and export.defuse("Qwen/-x") == "Qwen/-x"


def test_an_unknown_format_is_refused(world):
    snap, rankings = world
    with pytest.raises(ValueError, match="csv, parquet"):
        export.to_bytes(select(snap, rankings, normalise()), "xlsx")


def test_the_files_are_made_in_memory_and_nothing_is_written(world, tmp_path, monkeypatch):
    snap, rankings = world
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    monkeypatch.chdir(scratch)
    result = select(snap, rankings, normalise())
    for _ in range(3):
        for fmt in export.FORMATS:
            assert len(export.to_bytes(result, fmt)) > 100
    assert list(scratch.rglob("*")) == []
