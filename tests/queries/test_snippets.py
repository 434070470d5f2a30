"""Tests for components/queries/snippets.py: every snippet is run as it is, its path swapped for a copy of
the bundled sample in which one more file lacks the `exclusion` column, and gives what the app answers."""

from __future__ import annotations

import contextlib
import io
import shutil

import pandas as pd
import pyarrow.parquet as pq
import pytest

from components.queries import snippets, views
from components.queries.details import lookup
from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import resolve_records
from tests.helpers import ROOT

NEWEST_WITH_EXCLUSION = "neuronxcc-2.28.7631.0+82129205_transformers-5.0.0.parquet"


@pytest.fixture(scope="module")
def drifted(tmp_path_factory):
    """The bundled sample with `exclusion` dropped from the newest file too: (data path, sources)."""
    folder = tmp_path_factory.mktemp("sample")
    for path in (ROOT / "data" / "sample").glob("*.parquet"):
        shutil.copy(path, folder / path.name)
    table = pq.read_table(folder / NEWEST_WITH_EXCLUSION)
    assert "exclusion" in table.column_names
    pq.write_table(table.drop_columns(["exclusion"]), folder / NEWEST_WITH_EXCLUSION)
    rankings = resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json"))
    records = resolve_records(str(ROOT / "data" / "models_snapshot.json"))
    sources = Sources(DatasetStore(str(folder)), rankings, records)
    sources.start()
    return str(folder), sources.now()


def run_pandas(code: str):
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<snippet>", "exec"), namespace)  # noqa: S102 - the snippet is the thing tested
    return namespace["rows"]


def run_sql(code: str):
    duckdb = pytest.importorskip("duckdb")
    return duckdb.sql(code).df()


def test_a_model_snippet_returns_its_rows_on_every_stack(drifted):
    data, now = drifted
    for model_id in ("Qwen/Qwen3-0.6B", "meta-llama/Llama-3.1-8B-Instruct", "BAAI/bge-small-en-v1.5"):
        answer = lookup(now.snapshot, model_id, records=now.records)
        code = answer["query_snippet"]
        assert snippets.HUB_DATASET in code  # as served: the public dataset
        rows = run_pandas(code.replace(snippets.HUB_DATASET, data))
        stacks = {(e["neuronx_cc"], e["library"], e["library_version"]) for e in answer["history"]}
        assert set(zip(rows["neuronx_cc"], rows["library"], rows["library_version"])) == stacks, model_id
        assert len(rows) == len(answer["history"])
        assert "exclusion" in rows.columns and rows["tp"].notna().any()


def test_an_untested_model_snippet_runs_and_finds_no_rows(drifted):
    data, now = drifted
    answer = lookup(now.snapshot, "nobody/not-tested", records=now.records)
    assert answer["result"] == "not tested"
    assert run_pandas(answer["query_snippet"].replace(snippets.HUB_DATASET, data)).empty


def shown(result: views.ViewResult) -> set[str]:
    """The model ids of the view's rows the dataset holds (a ranked model nobody ran has none)."""
    return {r["model_id"] for r in result.records() if r["result"] != "not tested"}


QUERIES = [
    views.normalise(),
    views.normalise("qwen3"),
    views.normalise("llama 8b", neuronx_cc="2.26.9117.0", library_version="4.57.1"),
    views.normalise(task="text-generation", size="1-10"),
    views.normalise(size="-1"),
    views.normalise(library_version="diffusers==0.36.0"),
    views.normalise(view="trending"),
    views.normalise("qwen", view="downloads", task="image-text-to-text"),
    views.normalise(view="recent"),
]


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: repr(q)[6:60])
def test_each_view_snippet_returns_the_rows_the_view_shows(drifted, query):
    data, now = drifted
    result = views.select(now.snapshot, now.rankings, query, now.records)
    expected = shown(result)
    pandas_code, sql = snippets.view_snippets(result)
    assert "union_by_name = true" in sql and snippets.HUB_DATASET in sql
    rows = run_pandas(pandas_code.replace(snippets.HUB_DATASET, data))
    assert set(rows["model_id"]) == expected and len(rows) == len(expected)
    table = run_sql(sql.replace(snippets.HUB_DATASET, data))
    assert set(table["model_id"]) == expected and len(table) == len(expected)


def test_the_recently_tested_snippets_return_its_rows_newest_first(drifted):
    data, now = drifted
    result = views.select(now.snapshot, now.rankings, views.normalise(view="recent"), now.records)
    times = [r["tested_at"] for r in result.records()]
    dated = [t for t in times if t is not None]
    assert dated == sorted(dated, reverse=True) and times[len(dated) :] == [None] * (len(times) - len(dated))
    pandas_code, sql = snippets.view_snippets(result)
    rows = run_pandas(pandas_code.replace(snippets.HUB_DATASET, data))
    table = run_sql(sql.replace(snippets.HUB_DATASET, data))
    for got in (rows, table):
        stamps = [None if pd.isna(t) else pd.Timestamp(t).isoformat() for t in got["tested_at"]]
        assert stamps == times  # the view's order, untimed runs last


def test_a_view_that_needs_the_hub_lists_the_ids_and_says_why(drifted):
    _, now = drifted
    result = views.select(now.snapshot, now.rankings, views.normalise(view="trending"), now.records)
    pandas_code, sql = snippets.view_snippets(result)
    assert "Trending ranking (not in the dataset" in pandas_code and "shown = [" in pandas_code
    assert "model_id IN (" in sql
    plain, _ = snippets.view_snippets(views.select(now.snapshot, now.rankings, views.normalise("qwen"), now.records))
    assert "shown" not in plain  # the stack and the search text are the dataset's own


def test_hostile_values_stay_literals(drifted, tmp_path):
    from components.sources.dataset import load
    from tests.helpers import row, write

    evil = "evil/x'); import os; os.system('echo pwned') #\"\n"
    write(tmp_path / "f.parquet", [row(evil), row("good/model")])
    answer = snippets.model_snippet(evil, str(tmp_path))
    assert list(run_pandas(answer)["model_id"]) == [evil]
    result = views.select(load(tmp_path), drifted[1].rankings, views.normalise("x os"))
    pandas_code, sql = snippets.view_snippets(result)
    assert set(run_pandas(pandas_code.replace(snippets.HUB_DATASET, str(tmp_path)))["model_id"]) == {evil}
    assert set(run_sql(sql.replace(snippets.HUB_DATASET, str(tmp_path)))["model_id"]) == {evil}
