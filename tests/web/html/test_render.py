"""Everything from the data is text on the page, never markup."""

import re

import pandas as pd

from components.queries.details import lookup
from components.queries.views import normalise, select
from components.web.html import render
from tests.helpers import NEW_CC

HOSTILE = "evil/<img src=x onerror=alert(1)>"


def test_table_cells_escape_model_ids_and_link_to_the_hub(world):
    snap, rankings = world
    frame = render.table_frame(select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1")).frame)
    cells = " ".join(frame["Model"])
    assert "<img" not in cells and "&lt;img src=x onerror=alert(1)&gt;" in cells
    assert 'href="https://huggingface.co/Qwen/Qwen3-0.6B"' in cells
    assert 'href="https://huggingface.co/evil/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"' in cells


def test_unknown_results_show_as_recorded_and_escaped():
    assert render.badge("other", "<b>MAYBE</b>") == '<span class="badge badge-other">&lt;b&gt;MAYBE&lt;/b&gt;</span>'
    assert "not tested" in render.badge("not tested", "not tested")


def test_details_escape_every_field(world):
    snap, _ = world
    html = render.details(lookup(snap, HOSTILE, NEW_CC, "4.57.1"))
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html


def test_a_long_traceback_is_collapsed_with_its_last_line_in_view():
    error = "\n".join(f"  frame {i}" for i in range(40)) + "\nNCC_EOOM001: out of memory <b>"
    html = render._error_block(error)
    assert html.startswith('<details class="error">') and "NCC_EOOM001: out of memory &lt;b&gt;" in html


def test_details_explain_what_a_result_means(world):
    snap, _ = world
    html = render.details(lookup(snap, "Qwen/Qwen3-0.6B", NEW_CC, "4.57.1"))
    assert "32 tokens" in html and "says nothing about throughput" in html
    html = render.details(lookup(snap, "google/gemma-3-4b-it", NEW_CC, "4.57.1"))
    assert "Excluded because:</b> not prioritized" in html
    assert "not in the dataset" in render.details(lookup(snap, "nobody/nothing"))


def test_summary_counts_and_empty_state(world):
    snap, _ = world
    stack = snap.newest
    assert "<b>4</b> models · <b>1</b> pass (25%)" in render.summary_line(4, 4, 1, stack, "Selected")
    assert "showing the first 100 of" in render.summary_line(500, 100, 10, stack, "Selected")
    assert "No models match" in render.summary_line(0, 0, 0, stack, "Trending")


def test_header_labels_sample_data_and_lists_what_was_skipped(world):
    import dataclasses

    from components.sources.snapshot import Skipped

    snap, _ = world
    sample = dataclasses.replace(
        snap.provenance, kind="sample", source="bundled sample data", fallback_reason="offline"
    )
    html = render.header(sample, (Skipped("bad<1>.parquet", "unreadable"),), "Bundled snapshot as of 2026-11-30")
    assert "Sample data" in html and "not real results" in html and "offline" in html
    assert "bad&lt;1&gt;.parquet" in html and "1 problem(s)" in html


def test_table_frame_of_nothing_has_the_headers():
    for view in ("selected", "trending", "downloads"):
        headers = list(render.table_columns(view))
        assert list(render.table_frame(pd.DataFrame(columns=["model_id"]), view).columns) == headers


def test_only_ranked_views_show_a_rank_and_the_figure_they_rank_by(world):
    snap, rankings = world
    assert "Rank" not in " ".join(render.table_columns("selected"))
    selected = render.table_frame(select(snap, rankings, normalise()).frame, "selected")
    assert not selected["Model"].str.contains('class="rank"').any()
    for view, figure in (("trending", "Trending score"), ("downloads", "Downloads")):
        frame = render.table_frame(select(snap, rankings, normalise(view=view, task="text-generation")).frame, view)
        assert list(frame.columns)[-1] == figure
        ranks = [int(r) for r in frame["Model"].str.extract(r'class="rank"[^>]*>(\d+)<')[0]]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)  # one task: each rank once
        assert all(re.fullmatch(r"—|[\d,]+(\.\d)?( [kM])?", f) for f in frame[figure]), list(frame[figure])


def test_a_huge_error_is_cut_to_its_end():
    error = "x" * 300_000 + "\nNCC_EOOM001: the end"
    html = render._error_block(error)
    assert "NCC_EOOM001: the end" in html and "characters not shown here" in html
    assert len(html) < render.MAX_ERROR_CHARS * 2 + 2_000


def test_infinite_and_missing_figures_read_as_a_dash():
    from components.queries import formatting

    assert formatting.memory(float("inf"), 24.0) == "—"
    assert formatting.duration(float("-inf")) == "—"
    assert formatting.plain(float("inf")) is None


def test_counts_read_short_in_a_narrow_column():
    from components.queries.formatting import compact

    assert [compact(v) for v in (16015313, 374599, 4430, 103.5, None)] == ["16.0 M", "375 k", "4,430", "103.5", "—"]
