"""A search that names no stack covers every library (issue 62): in Selected, each library's newest stack, a
model run with two libraries once, on its own stack; in Trending and Downloads, each ranked model on its own
stack. Naming a stack keeps the answer on that stack alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from components.queries import export, snippets, views
from components.sources.dataset import load
from components.sources.rankings import RankedModel, Rankings
from components.sources.records import parse_records
from tests.helpers import NEW_CC, OLD_CC, row, write

FLUX = "black-forest-labs/FLUX.1-schnell"
MINILM = "sentence-transformers/all-MiniLM-L6-v2"
BOTH = "org/both-libraries"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    folder = tmp_path_factory.mktemp("libraries")
    write(folder / "tf.parquet", [
        row("Qwen/Qwen3-8B", cc=NEW_CC, lib_version="5.0.0"),
        row(BOTH, cc=NEW_CC, lib_version="5.0.0", result="FAIL", error="boom"),
    ])  # fmt: skip
    write(folder / "old.parquet", [row("Qwen/Qwen3-8B", cc=OLD_CC, lib_version="4.50.0")])
    write(folder / "sd.parquet", [
        row(FLUX, cc=NEW_CC, library="diffusers", lib_version="0.36.0", result="FAIL", error="boom"),
        row(BOTH, cc=NEW_CC, library="diffusers", lib_version="0.36.0"),
    ])  # fmt: skip
    write(folder / "st.parquet", [row(MINILM, cc=NEW_CC, library="sentence-transformers", lib_version="5.1.2")])
    snapshot = load(folder)
    ranked = (RankedModel(FLUX, 1, "text-generation"), RankedModel("Qwen/Qwen3-8B", 2, "text-generation"),
              RankedModel("new/untested", 3, "text-generation"))  # fmt: skip
    rankings = Rankings(
        lists={("text-generation", "trending"): ranked},
        fetched_at=datetime(2026, 11, 30, tzinfo=UTC), origin="snapshot", source="t.json",
    )  # fmt: skip
    records = parse_records([
        {"id": FLUX, "pipeline_tag": "text-to-image"},
        {"id": MINILM, "pipeline_tag": "sentence-similarity"},
        {"id": "Qwen/Qwen3-8B", "pipeline_tag": "text-generation"},
    ], "test")  # fmt: skip
    return snapshot, rankings, records


def on(result: views.ViewResult) -> dict[str, str]:
    return {r["model_id"]: f"{r['library']} {r['library_version']}" for r in result.records()}


def test_a_search_naming_no_stack_finds_every_librarys_models_each_saying_its_stack(world):
    snap, rankings, records = world
    flux = views.select(snap, rankings, views.normalise("flux"), records)
    assert on(flux) == {FLUX: "diffusers 0.36.0"} and flux.records()[0]["neuronx_cc"] == NEW_CC
    assert on(views.select(snap, rankings, views.normalise("minilm"), records)) == {
        MINILM: "sentence-transformers 5.1.2"
    }
    everything = views.select(snap, rankings, views.normalise(), records)
    assert [s.library for s in everything.stacks] == ["transformers", "diffusers", "sentence-transformers"]
    # a model run with two libraries appears once, on its own stack: on one compiler Transformers comes first
    assert snap.model_stack(BOTH).library == "transformers"
    assert on(everything) == {
        "Qwen/Qwen3-8B": "transformers 5.0.0", BOTH: "transformers 5.0.0",
        FLUX: "diffusers 0.36.0", MINILM: "sentence-transformers 5.1.2",
    }  # fmt: skip
    assert everything.total == 4
    counts = {s.library: (n, p) for s, n, p in everything.per_library()}
    assert counts == {"transformers": (2, 1), "diffusers": (1, 0), "sentence-transformers": (1, 1)}


def test_a_task_the_data_has_lists_its_models_across_libraries(world):
    snap, rankings, records = world
    assert "text-to-image" in views.task_choices(snap, rankings, records)
    assert on(views.select(snap, rankings, views.normalise(task="text-to-image"), records)) == {
        FLUX: "diffusers 0.36.0"
    }


def test_naming_a_stack_keeps_the_answer_on_that_stack_alone(world):
    snap, rankings, records = world
    named = views.select(snap, rankings, views.normalise("flux", neuronx_cc=NEW_CC, library_version="5.0.0"), records)
    assert named.total == 0 and named.stack is not None and named.stacks == (named.stack,)
    assert (
        views.select(snap, rankings, views.normalise(task="text-to-image", library_version="5.0.0"), records).total == 0
    )
    diffusers = views.select(snap, rankings, views.normalise(library_version="diffusers==0.36.0"), records)
    assert set(on(diffusers).values()) == {"diffusers 0.36.0"} and BOTH in on(diffusers)


def test_a_ranked_view_naming_no_stack_answers_each_model_on_its_own_stack(world):
    snap, rankings, records = world
    trending = views.select(snap, rankings, views.normalise(view="trending"), records).records()
    assert [(r["model_id"], r["library"], r["result"]) for r in trending] == [
        (FLUX, "diffusers", "FAIL"),
        ("Qwen/Qwen3-8B", "transformers", "PASS"),
        ("new/untested", "transformers", "not tested"),  # never ran: the newest Transformers stack
    ]
    named = views.select(snap, rankings, views.normalise(view="trending", library_version="5.0.0"), records)
    assert [r["result"] for r in named.records()] == ["not tested", "PASS", "not tested"]


def test_the_file_name_says_what_it_holds(world):
    snap, rankings, records = world
    every = views.select(snap, rankings, views.normalise(), records)
    assert export.file_name(every, "csv") == "torch-neuronx-support_selected_2.28.7631.0_all-libraries.csv"
    diffusers = views.select(snap, rankings, views.normalise(library_version="diffusers==0.36.0"), records)
    assert (
        export.file_name(diffusers, "parquet") == "torch-neuronx-support_selected_2.28.7631.0_diffusers-0.36.0.parquet"
    )
    named = views.select(snap, rankings, views.normalise(library_version="5.0.0"), records)
    assert export.file_name(named, "csv").endswith("_transformers-5.0.0.csv")


def test_a_pasted_hub_address_searches_for_its_id(world):
    snap, rankings, records = world
    for text in ("https://huggingface.co/Qwen/Qwen3-8B/tree/main?x=1#y", "hf.co/Qwen/Qwen3-8B"):
        query = views.normalise(text)
        assert query.text == "Qwen/Qwen3-8B"
        assert list(on(views.select(snap, rankings, query, records))) == ["Qwen/Qwen3-8B"]
    assert views.normalise("https://huggingface.co/spaces/a/b").text == "https://huggingface.co/spaces/a/b"


def test_the_query_snippet_of_a_search_across_libraries_names_each_stack(world):
    snap, rankings, records = world
    pandas_code, sql = snippets.view_snippets(views.select(snap, rankings, views.normalise(), records))
    assert "each library's newest stack" in pandas_code and f"{NEW_CC} diffusers 0.36.0" in sql
