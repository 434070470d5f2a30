"""The results table: every cell from the data is escaped text, never markup."""

import re

import pandas as pd

from components.queries.views import normalise, select
from components.web.html import table
from tests.helpers import NEW_CC


def test_table_cells_escape_model_ids_and_link_to_the_hub(world):
    snap, rankings = world
    frame = table.table_frame(select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1")).frame)
    cells = " ".join(frame["Model"])
    assert "<img" not in cells and "&lt;img src=x onerror=alert(1)&gt;" in cells
    assert 'href="https://huggingface.co/Qwen/Qwen3-0.6B"' in cells
    assert 'href="https://huggingface.co/evil/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"' in cells


def test_summary_counts_and_empty_state(world):
    snap, _ = world
    stack = snap.newest
    assert "<b>4</b> models · <b>1</b> pass (25%)" in table.summary_line(4, 4, 1, stack, "Selected")
    assert "showing the first 100 of" in table.summary_line(500, 100, 10, stack, "Selected")
    assert "No models match" in table.summary_line(0, 0, 0, stack, "Trending")


def test_table_frame_of_nothing_has_the_headers():
    for view in ("selected", "trending", "downloads"):
        headers = list(table.table_columns(view))
        assert list(table.table_frame(pd.DataFrame(columns=["model_id"]), view).columns) == headers


def test_only_ranked_views_show_a_rank_and_the_figure_they_rank_by(world):
    snap, rankings = world
    assert "Rank" not in " ".join(table.table_columns("selected"))
    selected = table.table_frame(select(snap, rankings, normalise()).frame, "selected")
    assert not selected["Model"].str.contains('class="rank"').any()
    for view, figure in (("trending", "Trending score"), ("downloads", "Downloads")):
        frame = table.table_frame(select(snap, rankings, normalise(view=view, task="text-generation")).frame, view)
        assert list(frame.columns)[-1] == figure
        ranks = [int(r) for r in frame["Model"].str.extract(r'class="rank"[^>]*>(\d+)<')[0]]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)  # one task: each rank once
        assert all(re.fullmatch(r"—|[\d,]+(\.\d)?( [kM])?", f) for f in frame[figure]), list(frame[figure])
