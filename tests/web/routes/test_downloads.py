"""The download links: every row a page link's filters match, as a file, from a route of their own."""

import io
from urllib.parse import parse_qs, urlsplit

import pandas as pd
import pyarrow.parquet as pq
import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from components.queries import links, views
from components.web.html import downloads as download_links
from components.web.routes import downloads
from tests.helpers import NEW_CC, served


@pytest.fixture
def downloads_http(world):
    snapshot, rankings = world
    return TestClient(Starlette(routes=downloads.routes(served(snapshot, rankings))))


def test_a_link_downloads_every_matching_row(downloads_http, world):
    answer = downloads_http.get("/export/csv", params={"q": "qwen", "neuronx_cc": NEW_CC, "transformers": "4.57.1"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert (
        answer.headers["content-disposition"]
        == 'attachment; filename="torch-neuronx-support_selected_2.28.7631.0_transformers-4.57.1.csv"'
    )
    frame = pd.read_csv(io.StringIO(answer.text))
    assert list(frame["model_id"]) == ["Qwen/Qwen3-0.6B"] and set(frame["library_version"]) == {"4.57.1"}
    parquet = pq.read_table(
        io.BytesIO(
            downloads_http.get("/export/parquet", params={"view": "trending", "task": "text-generation"}).content
        )
    )
    assert parquet.num_rows == len(views.select(*world, views.normalise(view="trending", task="text-generation")).frame)


def test_a_recently_tested_file_says_so_and_keeps_each_runs_time(downloads_http):
    answer = downloads_http.get("/export/parquet", params={"view": "recent"})
    assert 'filename="torch-neuronx-support_recently-tested_' in answer.headers["content-disposition"]
    times = pq.read_table(io.BytesIO(answer.content)).column("tested_at").to_pylist()
    assert times and times == sorted(times, reverse=True)  # the world's runs all have a time
    csv = downloads_http.get("/export/csv", params={"view": "recent"})
    assert "tested_at" in csv.text.splitlines()[0] and csv.headers["content-disposition"].endswith('all-libraries.csv"')


def test_hostile_text_stays_data_and_odd_requests_get_a_clear_no(downloads_http):
    answer = downloads_http.get(
        "/export/csv", params={"q": "<img src=x onerror=alert(1)>", "view": "%00", "task": "../../"}
    )
    assert answer.status_code == 200  # an empty view, with its header row
    assert (
        downloads_http.get("/export/exe").status_code == 404
        and "csv, parquet" in downloads_http.get("/export/exe").text
    )
    assert downloads_http.get("/export/csv?q=" + "x" * 5000).status_code == 414


def test_the_page_links_name_the_filters_shown(world):
    state = links.PageState(views.normalise("qwen 3", "downloads", "text-generation", NEW_CC, "4.57.1"), "a/model")
    html = str(download_links.links_html(state))
    href = html.split('href="')[1].split('"')[0].replace("&amp;", "&")
    assert urlsplit(href).path == "export/csv"  # relative: it works under any root path
    params = parse_qs(urlsplit(href).query)
    assert params["q"] == ["qwen 3"] and params["view"] == ["downloads"] and "model" not in params
    assert 'id="download-parquet"' in html
