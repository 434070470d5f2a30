"""The results table: every value from the data is escaped text, the headers sort, the rows open models."""

import re

import pandas as pd

from components.queries import links, ordering
from components.queries.views import Query, normalise, select
from components.web.html import table
from tests.helpers import NEW_CC


def _table(frame, view="selected", sort="", opened="", searching=False) -> str:
    order = ordering.parse(sort)
    query = Query(view=view)
    return str(
        table.results_table(
            frame, view, order, ordering.shown(order, view, searching),
            lambda model, asked: links.build(links.PageState(query, model, sort=asked)), opened,
        )
    )  # fmt: skip


def test_table_cells_escape_model_ids_and_open_them_here(world):
    snap, rankings = world
    html = _table(select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1")).frame)
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'data-model="evil/&lt;img src=x onerror=alert(1)&gt;"' in html
    assert 'href="./?model=Qwen%2FQwen3-0.6B"' in html  # a link to the model's answer, without scripts too
    assert 'href="./?model=evil%2F%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E"' in html


def test_numbers_are_cells_of_their_own_and_the_sorted_header_says_so(world):
    snap, rankings = world
    frame = select(snap, rankings, normalise()).frame
    html = _table(frame)
    assert html.count('aria-sort="descending"') == 1  # the view's own order: downloads
    assert re.search(r'<th[^>]*aria-sort="descending"[^>]*><a href="./\?sort=downloads"', html)
    by_wall = _table(ordering.apply(frame, ordering.parse("wall")), sort="wall")
    assert re.search(r'aria-sort="ascending"[^>]*><a href="./\?sort=-wall" data-sort="wall"', by_wall)
    assert 'class="c-wall num"' in html and 'role="gridcell"' in html
    searching = _table(frame, searching=True)
    assert "aria-sort" not in searching  # a search orders by how well names match: no column says so


def test_summary_counts_and_empty_state(world):
    snap, _ = world
    stack = snap.newest
    assert "<b>4</b> models · <b>1</b> pass (25%)" in table.summary_line(4, 4, 1, stack, "Selected")
    assert "showing the first 100 of" in table.summary_line(500, 100, 10, stack, "Selected")
    assert "No models match" in table.summary_line(0, 0, 0, stack, "Trending")


def test_a_summary_across_libraries_counts_each_and_names_a_shared_compiler_once():
    from components.sources.snapshot import Stack

    tf = Stack("2.28.7631.0+82129205", "transformers", "5.0.0", 9, 7)
    sd = Stack("2.28.7631.0+82129205", "diffusers", "0.36.0", 3, 2)
    line = str(table.summary_line(5, 5, 3, None, "Selected", [(tf, 4, 2), (sd, 1, 1)]))
    assert "on each library's newest stack (neuronx-cc 2.28.7631.0): " in line
    assert "Transformers 5.0.0 <b>4</b></span>, <span" in line and "Diffusers 0.36.0 <b>1</b>" in line
    older = Stack("2.26.9117.0+c4d2e7a1", "diffusers", "0.35.0", 3, 2)
    apart = str(table.summary_line(5, 5, 3, None, "Selected", [(tf, 4, 2), (older, 1, 1)]))
    assert "<small>(neuronx-cc 2.26.9117.0)</small>" in apart and "<small>(neuronx-cc 2.28.7631.0)</small>" in apart
    assert "No data loaded" in str(table.summary_line(0, 0, 0, None, "Selected", []))


def test_a_table_of_nothing_has_the_headers():
    for view in ("selected", "trending", "downloads"):
        html = _table(pd.DataFrame(columns=["model_id"]), view)
        headers = re.findall(r'data-sort="[a-z]+" rel="nofollow">([^<]+)<', html)
        assert headers == list(table.table_columns(view)) and "<tr data-model" not in html


def test_only_ranked_views_show_a_rank_and_the_figure_they_rank_by(world):
    snap, rankings = world
    assert "Rank" not in " ".join(table.table_columns("selected"))
    assert 'class="rank"' not in _table(select(snap, rankings, normalise()).frame)
    for view, figure in (("trending", "Trending score"), ("downloads", "Downloads")):
        html = _table(select(snap, rankings, normalise(view=view, task="text-generation")).frame, view)
        assert table.table_columns(view)[-1] == figure and f">{figure}<" in html
        ranks = [int(r) for r in re.findall(r'class="rank"[^>]*>(\d+)<', html)]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)  # one task: each rank once
        figures = re.findall(r'<td role="gridcell" class="c-[a-z]+ num">([^<]*)</td></tr>', html)
        assert figures and all(re.fullmatch(r"—|[\d,]+(\.\d)?( [kM])?", f) for f in figures), figures
