"""The support grid as files and as a feed: `GET /export/csv?page=grid&…` (and Parquet) through the export route,
and `GET /grid.atom`, on the four stacks of `tests/queries/grid_stacks.py`."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pandas as pd
import pyarrow.parquet as pq
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.queries.grid import grid
from components.sources.records_store import RecordsStore
from components.web.routes import downloads, grid_feed
from tests.helpers import served
from tests.queries.grid_stacks import STACKS, TG, four_stacks

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def grid_data(tmp_path):
    return four_stacks(tmp_path)


@pytest.fixture
def grid_http(grid_data):
    snapshot, records = grid_data
    store = RecordsStore(records, live=False)
    store.begin()
    sources = served(snapshot, records=store)
    return TestClient(Starlette(routes=[*downloads.routes(sources), *grid_feed.routes(sources)]))


def test_the_grid_downloads_as_csv_and_parquet_one_row_per_architecture_and_stack(grid_http, grid_data):
    answer = grid_http.get("/export/csv", params={"page": "grid", "task": TG})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert (
        'filename="torch-neuronx-support_grid_transformers_text-generation.csv"'
        in answer.headers["content-disposition"]
    )
    frame = pd.read_csv(io.StringIO(answer.text), dtype=str, keep_default_na=False)
    expected = grid(*grid_data, task=TG)
    assert len(frame) == len(expected["rows"]) * len(STACKS)
    gap = frame[frame["architecture"] == "GapForCausalLM"]
    assert list(gap["status"]) == ["partial", "fail", "fail", "fail"] and list(gap["regressed"]) == ["0", "0", "1", "0"]
    assert set(gap["regressed_since_neuronx_cc"]) == {STACKS[2][0]} and set(gap["works_since_neuronx_cc"]) == {""}
    table = pq.read_table(io.BytesIO(grid_http.get("/export/parquet", params={"page": "grid"}).content))
    assert table.num_rows == len(grid(*grid_data)["rows"]) * len(STACKS)
    assert table.schema.field("passed").type == "int64"


def test_the_feed_has_an_entry_per_architecture_that_starts_working_or_regresses(grid_http):
    answer = grid_http.get("/grid.atom")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/atom+xml")
    entries = ET.fromstring(answer.content).findall(f"{ATOM}entry")
    found = {(e.find(f"{ATOM}category").get("term"), e.find(f"{ATOM}title").text.split()[0]) for e in entries}
    # a regression across a gap, a regression later fixed, and the fix (an architecture passing where it did not);
    # an architecture untested in the middle of passing stacks and one first tested passing start nothing
    assert found == {("regressed", "GapForCausalLM"), ("regressed", "FixedForCausalLM"), ("works", "FixedForCausalLM")}
    ids = [e.find(f"{ATOM}id").text for e in entries]
    assert len(set(ids)) == len(ids) and ids == [
        e.find(f"{ATOM}id").text for e in ET.fromstring(grid_http.get("/grid.atom").content).findall(f"{ATOM}entry")
    ]
    link = entries[0].find(f"{ATOM}link").get("href")
    assert link.startswith("http://testserver/?architecture=")


def test_a_repeat_of_the_grid_route_sends_the_kept_json_of_the_kept_answer(grid_data, monkeypatch):
    from components.web.routes import api_v1

    snapshot, records = grid_data
    store = RecordsStore(records, live=False)
    store.begin()
    encoded: list[object] = []
    real = api_v1.body_json
    monkeypatch.setattr(api_v1, "body_json", lambda answer: encoded.append(answer) or real(answer))
    grid_http = TestClient(Starlette(routes=api_v1.routes(served(snapshot, records=store))))
    first, again = grid_http.get("/api/v1/grid"), grid_http.get("/api/v1/grid")
    assert first.content == again.content and first.headers["etag"] == again.headers["etag"]
    assert encoded == [grid(snapshot, store.current())]  # encoded once, kept in the snapshot's memo
    other = grid_http.get("/api/v1/grid", params={"task": TG})  # another answer: encoded for itself
    assert other.json() == grid(snapshot, records, task=TG) and other.content != first.content
    assert len(encoded) == 2
    assert grid_http.get("/api/v1/grid", headers={"If-None-Match": first.headers["etag"]}).status_code == 304
