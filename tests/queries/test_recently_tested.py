"""Recently tested (`view=recent`): the newest runs first, across libraries (each library's newest stack when no
stack is named, as Selected's search covers them), runs whose file does not record a time last; a stack named
keeps it to that stack. Search and task filter it as they do Selected."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pytest

from components.queries import export, links, ordering, preview, snippets, views
from components.sources.dataset import load
from components.sources.rankings import Rankings
from components.sources.records import parse_records
from tests.helpers import NEW_CC, OLD_CC, row, write


def at(day: int, hour: int = 8) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=UTC)


@pytest.fixture(scope="module")
def recent(tmp_path_factory):
    folder = tmp_path_factory.mktemp("recent")
    write(folder / "tf.parquet", [
        row("Qwen/Qwen3-8B", cc=NEW_CC, lib_version="5.0.0", tested_at=at(3)),
        row("Qwen/Qwen3-0.6B", cc=NEW_CC, lib_version="5.0.0", tested_at=at(20), result="FAIL", error="boom"),
    ])  # fmt: skip
    # an older file of the same stack, from before the dataset recorded a time
    write(folder / "tf-old.parquet", [row("org/untimed", cc=NEW_CC, lib_version="5.0.0")], drop=("tested_at",))
    write(folder / "tf-oldstack.parquet", [row("org/older-stack", cc=OLD_CC, lib_version="4.50.0", tested_at=at(28))])
    write(folder / "sd.parquet", [
        row("black-forest-labs/FLUX.1-schnell", cc=NEW_CC, library="diffusers", lib_version="0.36.0", tested_at=at(12)),
    ])  # fmt: skip
    write(folder / "st.parquet", [
        row("sentence-transformers/all-MiniLM-L6-v2", cc=NEW_CC, library="sentence-transformers",
            lib_version="5.1.2", tested_at=at(25)),
    ])  # fmt: skip
    rankings = Rankings(lists={}, fetched_at=at(30), origin="snapshot", source="t.json")
    records = parse_records([
        {"id": "Qwen/Qwen3-8B", "pipeline_tag": "text-generation"},
        {"id": "Qwen/Qwen3-0.6B", "pipeline_tag": "text-generation"},
        {"id": "black-forest-labs/FLUX.1-schnell", "pipeline_tag": "text-to-image"},
    ], "test")  # fmt: skip
    return load(folder), rankings, records


def shown(result: views.ViewResult) -> list[str]:
    return [r["model_id"] for r in result.records()]


def test_no_stack_named_lists_each_librarys_newest_stack_newest_run_first_untimed_last(recent):
    snap, rankings, records = recent
    result = views.select(snap, rankings, views.normalise(view="recent"), records)
    assert shown(result) == [
        "sentence-transformers/all-MiniLM-L6-v2",  # 25 Nov
        "Qwen/Qwen3-0.6B",  # 20 Nov
        "black-forest-labs/FLUX.1-schnell",  # 12 Nov
        "Qwen/Qwen3-8B",  # 3 Nov
        "org/untimed",  # its file records no time: last, whatever its name
    ]  # org/older-stack ran last of all, but on an older stack: not on a library's newest
    rows = result.records()
    assert rows[0]["tested_at"] == "2026-11-25T08:00:00+00:00" and rows[-1]["tested_at"] is None
    assert [r["library"] for r in rows[:3]] == ["sentence-transformers", "transformers", "diffusers"]
    # the line under the summary says the order, and how many runs have no time, without claiming they are old
    note = views.of("recent").note(result)
    assert "newest runs first" in note and "1 run from older files, which do not record when a run was made" in note


def test_a_stack_named_keeps_its_own_rows_newest_first(recent):
    snap, rankings, records = recent
    on_old = views.select(snap, rankings, views.normalise(view="recent", neuronx_cc=OLD_CC), records)
    assert shown(on_old) == ["org/older-stack"] and on_old.stack is not None
    on_new = views.select(snap, rankings, views.normalise(view="recent", library_version="5.0.0"), records)
    assert shown(on_new) == ["Qwen/Qwen3-0.6B", "Qwen/Qwen3-8B", "org/untimed"]
    assert "older files" not in views.of("recent").note(on_old)  # every run on it has its time


def test_search_and_task_filter_it_as_they_do_selected_and_it_takes_any_task(recent):
    snap, rankings, records = recent
    assert views.view_tasks(snap, rankings, records, "recent") == views.view_tasks(snap, rankings, records, "selected")
    assert "" in views.view_tasks(snap, rankings, records, "recent")
    assert shown(views.select(snap, rankings, views.normalise("qwen3", "recent"), records)) == [
        "Qwen/Qwen3-0.6B", "Qwen/Qwen3-8B"
    ]  # fmt: skip
    images = views.select(snap, rankings, views.normalise(view="recent", task="text-to-image"), records)
    assert shown(images) == ["black-forest-labs/FLUX.1-schnell"]
    assert views.select(snap, rankings, views.normalise("nothing-like-it", "recent"), records).total == 0


def test_its_header_order_and_a_sort_by_time_put_untimed_runs_last_both_ways(recent):
    snap, rankings, records = recent
    result = views.select(snap, rankings, views.normalise(view="recent"), records)
    assert ordering.view_order("recent", searching=True) == ordering.Order("tested", True)  # a search keeps it
    oldest_first = ordering.apply(result.frame, ordering.parse("tested"))
    assert list(oldest_first["model_id"])[:2] == ["Qwen/Qwen3-8B", "black-forest-labs/FLUX.1-schnell"]
    assert list(oldest_first["model_id"])[-1] == "org/untimed"
    assert list(ordering.apply(result.frame, ordering.parse("-tested"))["model_id"]) == shown(result)


def test_its_link_title_export_and_snippets_name_it(recent):
    snap, rankings, records = recent
    state = links.parse({"view": "recent", "q": "qwen"}, snap)
    assert state.query.view == "recent" and links.build(state) == "view=recent&q=qwen"
    assert preview.view_words(state.query) == "Recently tested · “qwen”"
    result = views.select(snap, rankings, views.normalise(view="recent"), records)
    assert export.file_name(result, "csv") == "torch-neuronx-support_recently-tested_2.28.7631.0_all-libraries.csv"
    table = export.export_table(result)
    assert str(table.schema.field("tested_at").type) == "timestamp[ms, tz=UTC]"
    times = table.column("tested_at").to_pylist()
    assert times[0] == pd.Timestamp(at(25)).to_pydatetime() and times[-1] is None
    pandas_code, sql = snippets.view_snippets(result)
    assert pandas_code.startswith("# The Recently tested view on each library's newest stack")
    assert 'rows.sort_values("tested_at", ascending=False' in pandas_code
    assert sql.rstrip().endswith("ORDER BY tested_at DESC NULLS LAST;")
    assert "model_id IN" not in sql  # nothing outside the dataset: no list of ids
