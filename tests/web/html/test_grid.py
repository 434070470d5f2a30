"""components/web/html/grid.py: the Grid page's content says what the grid answer says, cell by cell, each cell
links its models on that stack (and `architecture=` filters the Models view to them), and names are escaped."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from components.queries import links, views
from components.queries.grid import GridView, grid
from components.sources.app_sources import Moment
from components.sources.rankings import empty_rankings
from components.sources.records import ModelRecord, Records
from components.web.html.grid import grid_page, page_for
from tests.helpers import row, write
from tests.queries.grid_stacks import STACKS, four_stacks

CELL = re.compile(
    r'<td class="g-(\w+)">(?:<a href="([^"]*)">)?<b>\S+ (\w+)</b><small>(?:(\d+)✓ (\d+)✗)?</small>(.*?)</td>'
)


def painted(content: str) -> dict[str, dict]:
    """Each row of the painted grid: its name, notes and cells as (status, passed, failed, regressed, link)."""
    found = {}
    for name, head, cells in re.findall(
        r'<tr id="[^"]*"><th scope="row"><code>(.*?)</code>(.*?)</th>(.*?)</tr>', content
    ):
        parsed = []
        for status_class, href, status, passed, failed, rest in CELL.findall(cells):
            assert status_class == status
            regressed = re.search(r"↓ (\d+) regressed", rest)
            parsed.append((status, int(passed or 0), int(failed or 0), int(regressed[1]) if regressed else 0,
                           html.unescape(href)))  # fmt: skip
        found[html.unescape(name)] = {"head": head, "cells": parsed}
    return found


@pytest.fixture
def grid_data(tmp_path):
    return four_stacks(tmp_path)


def test_the_painted_grid_is_the_api_answer_cell_by_cell(grid_data):
    snapshot, records = grid_data
    answer = grid(snapshot, records)
    shown = painted(str(grid_page(answer, GridView(), ["transformers"], ["text-generation"])))
    assert list(shown) == [r["architecture"] for r in answer["rows"]]
    for r in answer["rows"]:
        cells = shown[r["architecture"]]["cells"]
        assert [(c[0], c[1], c[2], c[3]) for c in cells] == [
            (c["status"], c["passed"], c["failed"], c["regressed"]) for c in r["cells"]
        ], r["architecture"]
        head = shown[r["architecture"]]["head"]
        assert ("works since" in head) == (r["works_since"] is not None)
        assert ("regressed since" in head) == (r["regressed_since"] is not None)
    # the regression across a gap links Compare: the stack before the one it broke on, and that one
    gap = shown["GapForCausalLM"]["head"]
    link = dict(parse_qsl(urlsplit(html.unescape(re.search(r'href="([^"]*)"', gap)[1])).query))
    assert link == {"neuronx_cc_a": STACKS[1][0], "library_version_a": STACKS[1][1],
                    "neuronx_cc_b": STACKS[2][0], "library_version_b": STACKS[2][1]}  # fmt: skip


def test_the_grid_names_a_library_as_a_person_reads_it_and_links_it_as_pip_spells_it(grid_data):
    snapshot, records = grid_data
    page = str(grid_page(grid(snapshot, records), GridView(), ["transformers", "sentence-transformers"], []))
    assert '<option value="sentence-transformers">Sentence Transformers</option>' in page
    assert "Architectures of Transformers across its stacks (neuronx-cc · Transformers version)" in page
    assert 'href="api/v1/grid?library=transformers"' in page  # the JSON it shows, by pip's spelling


def test_each_cell_links_the_models_view_of_its_architecture_on_its_stack(grid_data):
    snapshot, records = grid_data
    answer = grid(snapshot, records)
    shown = painted(str(grid_page(answer, GridView(), ["transformers"], [])))
    moment = Moment(snapshot, empty_rankings("none"), records)
    for name, found in shown.items():
        for j, (status, passed, failed, _, href) in enumerate(found["cells"]):
            if not href:  # a cell without any run links nowhere
                assert status == "untested"
                continue
            params = dict(parse_qsl(urlsplit(href).query))
            assert params["architecture"] == name and params["neuronx_cc"] == STACKS[j][0].split("+")[0]
            state = links.opened(params, snapshot, moment.rankings, records)
            rows = views.select(snapshot, moment.rankings, state.query, records).frame
            assert set(rows["architecture"]) == {name}
            assert (rows["kind"] == "pass").sum() == passed and (rows["kind"] == "fail").sum() == failed
            assert links.build(state).startswith("architecture=")  # the link the page then shows keeps it


def test_the_page_keeps_what_a_link_asks_and_falls_back_on_what_it_cannot_read(grid_data):
    snapshot, records = grid_data
    moment = Moment(snapshot, empty_rankings("none"), records)
    view, content = page_for(moment, {"q": "gap", "sort": "regressed", "library": "nope", "task": "<b>"})
    assert view == GridView("transformers", "", "gap", "regressed")
    assert list(painted(str(content))) == ["GapForCausalLM"]
    assert '<option value="regressed" selected>' in str(content) and 'value="gap"' in str(content)
    assert (
        page_for(moment, {"q": "gap", "sort": "regressed"})[1] is page_for(moment, {"q": "gap", "sort": "regressed"})[1]
    )


def test_a_hostile_architecture_name_is_text(tmp_path):
    evil = "<img src=x onerror=alert(1)>ForCausalLM"
    write(tmp_path / "a.parquet", [row("evil/model-1B")])
    from components.sources.dataset import load

    snapshot = load(tmp_path)
    records = Records({"evil/model-1B": ModelRecord("evil/model-1B", architecture=evil)}, "test")
    content = str(grid_page(grid(snapshot, records), GridView(text="img"), ["transformers"], []))
    assert "<img" not in content and "&lt;img src=x onerror=alert(1)&gt;ForCausalLM" in content


def test_a_models_page_links_its_architectures_row_of_the_grid(grid_data):
    from components.queries import details
    from components.web.html import details as html_details

    snapshot, records = grid_data
    moment = Moment(snapshot, empty_rankings("none"), records)
    answer = next(
        a for a in (details.lookup(snapshot, m, "", "", records) for m in snapshot.model_ids) if a.get("architecture")
    )
    href = html.unescape(re.search(r'<a id="architecture-row" href="([^"]*)"', str(html_details.head(answer)))[1])
    page, _, anchor = href.partition("#")
    path, _, query = page.partition("?")
    assert path == "grid" and anchor
    _, content = page_for(moment, dict(parse_qsl(query)))
    row = re.search(rf'<tr id="{re.escape(anchor)}"><th scope="row"><code>(.*?)</code>', str(content))
    assert row and html.unescape(row[1]) == answer["architecture"]  # the row the link lands on is its architecture's
