"""Tests for components/queries/architectures.py and evidence.py, and the record fields of details.lookup:
a small dataset with scripts, and hand-written records with fine-tunes, base_model lists, cycles and unknowns."""

from __future__ import annotations

import pytest

from components.domain.errors import UnknownStack
from components.queries import architectures as arch
from components.queries.details import lookup
from components.runtime import settings
from components.sources.dataset import load
from components.sources.rankings import RankedModel, Rankings
from components.sources.records import parse_records
from tests.helpers import NEW_CC, OLD_CC, row, write

LLAMA, QWEN = "LlamaForCausalLM", "Qwen3ForCausalLM"


def script(model_id: str, tp: int) -> str:
    sharded = "import torch.distributed as dist\n" if tp > 1 else ""
    return f'#!/usr/bin/env python3\n"""Run {model_id}."""\n{sharded}MODEL_ID = "{model_id}"\nTP = {tp}  # Trainium cores\n'


def rec(model_id, architecture=LLAMA, params=None, base=None, task="text-generation", **extra):
    entry = {"id": model_id, "pipeline_tag": task, "config": {"architectures": [architecture]} if architecture else {}}
    if params:
        entry["safetensors"] = {"total": params}
    if base is not None:
        entry["cardData"] = {"base_model": base}
    return {**entry, **extra}


@pytest.fixture
def lab(tmp_path):
    rows = [
        row("meta/llama-1b", tp=1, run_py=script("meta/llama-1b", 1)),
        row("meta/llama-8b-it", tp=1, run_py=script("meta/llama-8b-it", 1)),
        row("meta/llama-70b", tp=8, run_py=script("meta/llama-70b", 8)),
        row("meta/llama-broken", tp=2, result="FAIL", error="boom", run_py=script("meta/llama-broken", 2)),
        row("meta/llama-skipped", result="EXCLUDED", exclusion="not prioritized", tp=None),
        row("qwen/qwen-4b", tp=1, run_py=script("qwen/qwen-4b", 1)),
        row("nobody/no-record", tp=1),
    ]
    write(tmp_path / "new.parquet", rows)
    write(tmp_path / "old.parquet", [row("meta/llama-1b", cc=OLD_CC, lib_version="4.50.0", result="FAIL")])
    snapshot = load(tmp_path)
    records = parse_records(
        [
            rec("meta/llama-1b", params=1_240_000_000),
            rec("meta/llama-8b-it", params=8_030_000_000, base="meta/llama-8b"),
            rec("meta/llama-70b", params=70_600_000_000),
            rec("meta/llama-broken", params=13_000_000_000),
            rec("meta/llama-skipped", params=3_000_000_000),
            rec("qwen/qwen-4b", QWEN, 4_020_000_000, task="text-to-image"),
            # untested fine-tunes
            rec("fan/llama-1b-ft", params=1_240_000_000, base="meta/llama-1b"),
            rec("fan/merge", params=8_000_000_000, base=["nobody/unknown", "fan/llama-1b-ft"]),  # list; 2 hops
            rec("fan/big-ft", params=30_000_000_000, base="meta/llama-70b"),  # 4 cores: no 4-core script
            rec("fan/huge", params=400_000_000_000, base="meta/llama-70b"),
            rec("loop/a", params=1_000_000_000, base="loop/b"),
            rec("loop/b", params=1_000_000_000, base="loop/a"),
            rec("fan/no-size", base="meta/llama-1b"),
            rec("fan/gguf", architecture=None, base="meta/llama-8b-it"),
            rec("fan/sharded-ft", params=80_000_000_000),
            rec("fan/gated-ft", params=1_240_000_000, base="meta/llama-1b", gated="manual", private=True),
        ],
        "test",
    )
    return snapshot, records


def test_architectures_count_tested_and_passed_per_stack(lab):
    snapshot, records = lab
    rows = arch.architectures(snapshot, records, snapshot.newest)
    llama = rows[0]
    assert llama["architecture"] == LLAMA
    assert (llama["tested"], llama["passed"]) == (4, 3)  # the excluded model was not tested
    assert [m["model_id"] for m in llama["models"]][:2] == ["meta/llama-1b", "meta/llama-skipped"]  # smallest first
    assert {r["architecture"] for r in rows} == {LLAMA, QWEN}  # nobody/no-record has no record: left out
    assert arch.architectures(snapshot, records, snapshot.newest, "text-to-image")[0]["architecture"] == QWEN
    old = snapshot.resolve_stack(OLD_CC, "4.50.0")
    assert arch.architectures(snapshot, records, old) == [
        {"architecture": LLAMA, "tested": 1, "passed": 0,
         "models": [{"model_id": "meta/llama-1b", "result": "FAIL", "kind": "fail", "tp": 1, "num_parameters": 1_240_000_000}]}
    ]  # fmt: skip


def test_the_headline_counts_architectures_of_the_top_trending_models(lab):
    snapshot, records = lab
    ids = ["fan/llama-1b-ft", "meta/llama-70b", "qwen/qwen-4b", "fan/gguf", "loop/a"]
    ranked = tuple(RankedModel(m, i + 1, "text-generation") for i, m in enumerate(ids))
    from datetime import UTC, datetime

    rankings = Rankings({("text-generation", "trending"): ranked}, datetime(2026, 1, 1, tzinfo=UTC), "snapshot", "t")
    figure = arch.headline(snapshot, rankings, records, snapshot.newest)
    # Llama (3 ranked) has passing models; Qwen3 (1 ranked) passes too; fan/gguf has no architecture
    assert (figure["passing"], figure["architectures"], figure["unknown"], figure["ranked"]) == (2, 2, 1, 5)
    assert figure["share"] == 1.0 and "top 100 trending text-generation" in figure["definition"]
    old = arch.headline(snapshot, rankings, records, snapshot.resolve_stack(OLD_CC, "4.50.0"))
    assert old["share"] == 0.0 and old["passing"] == 0
    empty = Rankings({}, datetime(2026, 1, 1, tzinfo=UTC), "snapshot", "t")
    assert arch.headline(snapshot, empty, records, snapshot.newest)["share"] is None


def test_an_unknown_stack_is_a_clear_error(lab):
    snapshot, _ = lab
    assert snapshot.resolve_stack() == snapshot.newest
    assert snapshot.resolve_stack(NEW_CC.split("+")[0]) == snapshot.newest  # without the local tag
    for cc, lv in (("9.9.9", ""), (NEW_CC, "0.0.1"), ("<script>", "")):
        with pytest.raises(UnknownStack, match="Known stacks") as info:
            snapshot.resolve_stack(cc, lv)
        assert NEW_CC in str(info.value)


def test_a_tested_row_carries_task_architecture_and_instance(lab):
    snapshot, records = lab
    small = lookup(snapshot, "meta/llama-1b", records=records)
    assert (small["task"], small["architecture"], small["instance"]) == ("text-generation", LLAMA, "trn2.3xlarge")
    assert lookup(snapshot, "meta/llama-70b", records=records)["instance"] == "trn2.48xlarge"
    unknown = lookup(snapshot, "nobody/no-record", records=records)
    assert unknown["task"] is None and unknown["architecture"] is None and unknown["instance"] == "trn2.3xlarge"
    assert "evidence" not in small and "suggested_run_py" not in small


def test_an_untested_fine_tune_gets_its_base_model_architecture_and_a_suggested_script(lab):
    snapshot, records = lab
    answer = lookup(snapshot, "fan/llama-1b-ft", records=records)
    assert answer["result"] == "not tested" and answer["neuronx_cc"] == NEW_CC
    assert answer["evidence"]["base_model"] == {
        "model_id": "meta/llama-1b",
        "result": "PASS",
        "kind": "pass",
        "tp": 1,
        "hops": 1,
    }
    found = answer["evidence"]["architecture"]
    assert (found["name"], found["tested"], found["passed"]) == (LLAMA, 4, 3)
    assert found["closest"][0]["model_id"] == "meta/llama-1b"
    assert answer["suggested_from"] == "meta/llama-1b" and answer["suggested_tp"] == 1
    suggested = answer["suggested_run_py"]
    assert suggested.startswith("#!/usr/bin/env python3\n# UNTESTED")
    assert 'MODEL_ID = "fan/llama-1b-ft"' in suggested and "meta/llama-1b" in suggested.split("\n", 3)[2]
    assert "cache_sync_command" not in answer and answer["install_command"].startswith("pip install")


def test_base_model_lists_hops_cycles_and_unknowns(lab):
    snapshot, records = lab
    merge = lookup(snapshot, "fan/merge", records=records)["evidence"]["base_model"]
    assert merge == {"model_id": "meta/llama-1b", "result": "PASS", "kind": "pass", "tp": 1, "hops": 2}
    loop = lookup(snapshot, "loop/a", records=records)
    assert loop["evidence"]["base_model"] is None and loop["evidence"]["architecture"]["name"] == LLAMA
    # a base model that was run, but not on this stack, is no evidence for this stack
    old = lookup(snapshot, "fan/llama-1b-ft", OLD_CC, "4.50.0", records=records)
    assert old["evidence"]["base_model"]["result"] == "FAIL"
    gguf = lookup(snapshot, "fan/gguf", records=records)
    assert gguf["evidence"]["base_model"]["model_id"] == "meta/llama-8b-it"
    assert gguf["evidence"]["architecture"] is None and "architecture is unknown" in gguf["suggested_note"]


def test_cores_come_from_the_size_and_a_single_core_script_is_never_stretched(lab):
    snapshot, records = lab
    big = lookup(snapshot, "fan/big-ft", records=records)  # 30 B: 4 cores; only an 8-core script passes
    assert big["suggested_from"] == "meta/llama-70b" and big["suggested_tp"] == 4
    assert "TP = 4  # Trainium cores" in big["suggested_run_py"] and "TP = 8" not in big["suggested_run_py"]
    huge = lookup(snapshot, "fan/huge", records=records)
    assert "suggested_run_py" not in huge and "do not fit on 16 cores" in huge["suggested_note"]
    no_size = lookup(snapshot, "fan/no-size", records=records)
    assert no_size["suggested_tp"] == 1 and "parameter count is unknown" in no_size["suggested_run_py"]


def test_an_untested_model_without_any_record(lab):
    snapshot, records = lab
    answer = lookup(snapshot, "who/knows", records=records, record_unknown="the Hub could not be asked")
    assert answer["evidence"] == {"base_model": None, "architecture": None}
    assert answer["record_unknown"] == "the Hub could not be asked"
    assert answer["task"] is None and "suggested_run_py" not in answer


def test_closest_by_size_is_by_ratio():
    models = [{"model_id": f"m/{n}", "num_parameters": n} for n in (1, 10, 100, 1000)]
    assert [m["num_parameters"] for m in arch.closest_by_size(models, 30, limit=2)] == [10, 100]
    assert settings.BASE_HOPS.value == 3


def test_gated_and_private_records_are_answered_like_any_other(lab):
    snapshot, records = lab
    answer = lookup(snapshot, "fan/gated-ft", records=records)
    assert answer["gated"] == "manual" and answer["suggested_from"] == "meta/llama-1b"
    assert "gated" not in lookup(snapshot, "fan/llama-1b-ft", records=records)
