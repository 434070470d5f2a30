import re
from datetime import UTC

import pytest

from components.domain.errors import UnknownStack
from components.queries.views import DOWNLOADS, SELECTED, TRENDING, normalise, query_words, select, task_choices
from components.sources.records import parse_records
from tests.helpers import NEW_CC, OLD_CC


def ids(result):
    return list(result.frame["model_id"])


def test_search_is_case_word_order_and_punctuation_insensitive(world):
    snap, rankings = world
    for text in ("qwen3 0.6b", "0.6B QWEN3", "qwen3-0.6b", "Qwen/Qwen3", "  qwen3   06b "):
        assert ids(select(snap, rankings, normalise(text))) == ["Qwen/Qwen3-0.6B"], text
    assert query_words("qwen3 0.6b") == ("qwen3", "06b")


def test_selected_names_no_stack_by_default_and_covers_each_librarys_newest_most_popular_first(world):
    snap, rankings = world
    result = select(snap, rankings, normalise())
    assert result.stack is None  # no stack named: each library's newest (here Transformers only)
    assert [(s.neuronx_cc, s.library_version) for s in result.stacks] == [(NEW_CC, "5.0.0")]
    assert ids(result) == ["Qwen/Qwen3-0.6B"] and result.records()[0]["library_version"] == "5.0.0"
    result = select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1"))
    assert ids(result)[:2] == ["Qwen/Qwen3-0.6B", "meta-llama/Llama-3.1-8B-Instruct"]  # ranked by downloads
    assert result.total == 4 and result.passed == 1


def test_unknown_stacks_are_refused_naming_the_known_ones(world):
    snap, rankings = world
    for cc, lv in (("9.9.9", "nope"), ("9.9.9", ""), (NEW_CC, "9.9"), ("", "9.9")):
        with pytest.raises(UnknownStack, match=f"Known stacks: {re.escape(NEW_CC)} with transformers==5.0.0"):
            select(snap, rankings, normalise(neuronx_cc=cc, library_version=lv))
    short = select(snap, rankings, normalise(neuronx_cc="2.9.1.0", library_version="4.50.0"))
    assert short.stack.neuronx_cc == OLD_CC  # the public part of a version is enough


def test_task_filters_selected_where_the_task_is_known(world):
    snap, rankings = world
    q = normalise(task="image-text-to-text", neuronx_cc=NEW_CC, library_version="4.57.1")
    result = ids(select(snap, rankings, q))
    assert "google/gemma-3-4b-it" in result
    assert "meta-llama/Llama-3.1-8B-Instruct" not in result  # known to be text-generation
    assert "evil/<img src=x onerror=alert(1)>" not in result  # task unknown: under "All tasks" only
    everything = ids(select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1")))
    assert "evil/<img src=x onerror=alert(1)>" in everything


def test_a_record_gives_the_task_and_architecture_and_the_task_list(world):
    snap, rankings = world
    records = parse_records(
        [
            {"id": "evil/<img src=x onerror=alert(1)>", "pipeline_tag": "text-generation"},  # not a Hub id: ignored
            {"id": "Qwen/Qwen3-0.6B", "pipeline_tag": "text-generation",
             "config": {"architectures": ["Qwen3ForCausalLM"]}},
            {"id": "google/gemma-3-4b-it", "pipeline_tag": "text-to-image"},  # the record beats the ranking
        ],
        "test",
    )  # fmt: skip
    q = normalise(task="text-to-image", neuronx_cc=NEW_CC, library_version="4.57.1")
    assert ids(select(snap, rankings, q, records)) == ["google/gemma-3-4b-it"]
    rows = select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1"), records).records()
    by_id = {r["model_id"]: r for r in rows}
    assert by_id["Qwen/Qwen3-0.6B"]["architecture"] == "Qwen3ForCausalLM"
    assert by_id["Qwen/Qwen3-0.6B"]["task"] == "text-generation"
    assert by_id["evil/<img src=x onerror=alert(1)>"]["task"] is None
    assert task_choices(snap, rankings, records) == ["text-generation", "image-text-to-text", "text-to-image"]
    ranked = select(snap, rankings, normalise(view=TRENDING, neuronx_cc=NEW_CC), records).records()
    assert {r["model_id"]: r["architecture"] for r in ranked}["Qwen/Qwen3-0.6B"] == "Qwen3ForCausalLM"
    # a task the Hub does not rank: Trending has nothing to rank
    assert select(snap, rankings, normalise(view=TRENDING, task="text-to-image"), records).records() == []


def test_trending_lists_ranked_models_in_rank_order_with_untested_ones(world):
    snap, rankings = world
    q = normalise(view=TRENDING, task="text-generation", neuronx_cc=NEW_CC, library_version="4.57.1")
    rows = select(snap, rankings, q).records()
    assert [(r["rank"], r["model_id"], r["result"]) for r in rows] == [
        (1, "meta-llama/Llama-3.1-8B-Instruct", "FAIL"),
        (2, "new/untested-7B", "not tested"),
        (3, "Qwen/Qwen3-0.6B", "PASS"),
    ]
    assert rows[1]["kind"] == "not tested" and rows[1]["neuronx_cc"] == NEW_CC


def test_an_excluded_ranked_model_says_why(world):
    snap, rankings = world
    q = normalise(view=DOWNLOADS, task="image-text-to-text", neuronx_cc=NEW_CC, library_version="4.57.1")
    (only,) = select(snap, rankings, q).records()
    assert only["result"] == "EXCLUDED" and only["exclusion"] == "not prioritized"


def test_a_ranked_view_ranks_one_task_at_a_time_text_generation_first(world):
    snap, rankings = world
    for view in (TRENDING, DOWNLOADS):
        rows = select(snap, rankings, normalise(view=view)).records()
        assert {r["task"] for r in rows} == {"text-generation"}
        ranks = [r["rank"] for r in rows]
        assert ranks == sorted(set(ranks)) and ranks[0] == 1  # each rank once, in order
    images = select(snap, rankings, normalise(view=TRENDING, task="image-text-to-text")).records()
    assert [(r["rank"], r["model_id"]) for r in images] == [(1, "google/gemma-3-4b-it"), (2, "vlm/untested")]


def test_counts_stay_integers_in_every_view(world):
    snap, rankings = world
    for view in (SELECTED, TRENDING, DOWNLOADS):
        for r in select(snap, rankings, normalise(view=view)).records():
            for name in ("tp", "wall_s", "rank", "downloads", "likes"):
                assert r.get(name) is None or type(r[name]) is int, (view, name, r[name])


def test_search_filters_within_a_ranking(world):
    snap, rankings = world
    rows = select(snap, rankings, normalise("untested", view=TRENDING)).records()
    assert [r["model_id"] for r in rows] == ["new/untested-7B"]
    rows = select(snap, rankings, normalise("untested", view=TRENDING, task="image-text-to-text")).records()
    assert [r["model_id"] for r in rows] == ["vlm/untested"]


def test_nonsense_inputs_become_defaults():
    q = normalise("x" * 10_000, view="<script>", task="<b>fly</b>", neuronx_cc=None, library_version=3)
    assert q.view == SELECTED and q.task == "" and len(q.text) == 200 and q.library_version == "3"


def test_records_are_plain_json(world):
    import json

    snap, rankings = world
    rows = select(snap, rankings, normalise(neuronx_cc=NEW_CC, library_version="4.57.1")).records()
    text = json.dumps(rows)
    assert "NaN" not in text
    excluded = next(r for r in rows if r["model_id"] == "google/gemma-3-4b-it")
    assert excluded["tp"] is None and excluded["wall_s"] is None
    qwen = next(r for r in rows if r["model_id"] == "Qwen/Qwen3-0.6B")
    assert qwen["tp"] == 1 and isinstance(qwen["tp"], int)


def test_answers_are_memoised_per_snapshot(world):
    snap, rankings = world
    q = normalise("qwen")
    assert select(snap, rankings, q) is select(snap, rankings, q)


def test_names_whose_words_start_as_typed_come_first(tmp_path):
    from datetime import datetime

    from components.sources.dataset import load
    from components.sources.rankings import RankedModel, Rankings
    from tests.helpers import row, write

    write(tmp_path / "a.parquet", [row("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B"), row("Qwen/Qwen3-8B")])
    popular = (RankedModel("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", 1, "text-generation", downloads=10**6),)
    rankings = Rankings(lists={("text-generation", "downloads"): popular},
                        fetched_at=datetime(2026, 11, 30, tzinfo=UTC), origin="snapshot", source="t.json")  # fmt: skip
    snap = load(tmp_path)
    assert ids(select(snap, rankings, normalise("qwen3"))) == [
        "Qwen/Qwen3-8B",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
    ]
    assert ids(select(snap, rankings, normalise(""))) == ["deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "Qwen/Qwen3-8B"]


def test_an_answer_weighs_at_least_what_its_rows_hold_as_dicts(world, tmp_path):
    import sys
    import tracemalloc

    from components.sources.dataset import load
    from tests.helpers import row, write

    _, rankings = world
    write(
        tmp_path / "many" / "many.parquet", [row(f"org/model-{i}", result=("PASS", "FAIL")[i % 2]) for i in range(500)]
    )
    snap = load(tmp_path / "many")
    for query in (normalise(), normalise("model 1"), normalise(view=TRENDING)):
        result = select(snap, rankings, query)
        weight = sys.getsizeof(result)
        tracemalloc.start()
        assert result.records()  # the copies handed out are dropped; the answer keeps its rows
        kept, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert weight >= kept + result.frame.memory_usage(deep=True).sum(), query


def test_the_memo_of_a_snapshot_stays_under_its_byte_bound(world):
    snap, rankings = world
    snap._memo.max_bytes = 64 * 1024
    for i in range(200):
        select(snap, rankings, normalise(f"q{i}" if i % 2 else "", view=(SELECTED, TRENDING, DOWNLOADS)[i % 3]))
        assert snap._memo.bytes <= snap._memo.max_bytes
    assert len(snap._memo) < 200


def test_a_size_range_keeps_models_of_known_size_in_it_and_counts_those_left_out(world):
    snap, rankings = world
    records = parse_records(
        [
            {"id": "Qwen/Qwen3-0.6B", "safetensors": {"total": 751_632_384}},
            {"id": "meta-llama/Llama-3.1-8B-Instruct", "safetensors": {"total": 8_030_261_248}},
            {"id": "new/untested-7B", "safetensors": {"total": 7_000_000_000}},
        ],
        "test",
    )
    stack = {"neuronx_cc": NEW_CC, "library_version": "4.57.1"}
    every = select(snap, rankings, normalise(**stack), records)
    sizes = {r["model_id"]: r["num_parameters"] for r in every.records()}
    assert sizes["Qwen/Qwen3-0.6B"] == 751_632_384 and sizes["google/gemma-3-4b-it"] is None
    assert every.size_unknown == 0  # no range picked: unknown sizes are shown, none left out
    mid = select(snap, rankings, normalise(**stack, size="1-10"), records)
    assert ids(mid) == ["meta-llama/Llama-3.1-8B-Instruct"] and mid.size_unknown == 2
    small = select(snap, rankings, normalise(**stack, size="-1"), records)
    assert ids(small) == ["Qwen/Qwen3-0.6B"]
    ranked = select(snap, rankings, normalise(view=TRENDING, **stack, size="1-10"), records).records()
    assert [(r["rank"], r["model_id"]) for r in ranked] == [
        (1, "meta-llama/Llama-3.1-8B-Instruct"),
        (2, "new/untested-7B"),
    ]
    assert all(type(r["num_parameters"]) is int for r in ranked)
    assert select(snap, rankings, normalise(**stack, size="100-"), records).records() == []
