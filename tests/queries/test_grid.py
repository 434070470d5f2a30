"""components/queries/grid.py: the support grid, exactly as issue 64 defines it, on four stacks made here and on
the bundled sample."""

from __future__ import annotations

import pytest

from components.queries.api import Api
from components.queries.errors import ArgumentRefused
from components.queries.grid import grid, libraries
from components.sources.dataset import SAMPLE_DIR, load
from components.sources.records import load_records
from components.sources.records_store import RecordsStore
from tests.helpers import ROOT, served
from tests.queries.grid_stacks import S1, S2, S3, S4, TG, four_stacks


@pytest.fixture
def made(tmp_path):
    return four_stacks(tmp_path)


def cell(status, passed=0, failed=0, excluded=0, other=0, regressed=0):
    return {"status": status, "passed": passed, "failed": failed, "excluded": excluded, "other": other,
            "regressed": regressed}  # fmt: skip


def by_name(answer):
    return {r["architecture"]: r for r in answer["rows"]}


def test_the_four_stacks_give_every_status_and_both_since_fields(made):
    answer = grid(*made)
    assert answer["library"] == "transformers" and answer["task"] == ""
    assert answer["stacks"] == [S1, S2, S3, S4]
    assert answer["unknown_architecture_models"] == 2  # a record without an architecture, and no record
    rows = by_name(answer)
    assert rows["WorksForCausalLM"] == {
        "architecture": "WorksForCausalLM", "models": 2,
        "cells": [cell("pass", 1), cell("untested", excluded=1), cell("pass", 1), cell("pass", 1)],
        "works_since": S1, "regressed_since": None,
    }  # fmt: skip
    assert rows["GapForCausalLM"]["cells"] == [
        cell("partial", 1, 1),
        cell("fail", failed=1),
        cell("fail", failed=2, regressed=1),
        cell("fail", failed=2),
    ]  # the regression across S2, where the model has no run, counts on S3
    assert rows["GapForCausalLM"]["regressed_since"] == S3 and rows["GapForCausalLM"]["works_since"] is None
    assert rows["NewForCausalLM"]["cells"][-1] == cell("partial", 1, 1)
    assert rows["NewForCausalLM"]["regressed_since"] is None and rows["NewForCausalLM"]["works_since"] is None
    # regressed on S2 (its newest run there, a FAIL, counts; not the older PASS), fixed on S3: history
    assert [c["regressed"] for c in rows["FixedForCausalLM"]["cells"]] == [0, 1, 0, 0]
    assert rows["FixedForCausalLM"]["cells"][1] == cell("fail", failed=1, regressed=1)
    assert rows["FixedForCausalLM"]["works_since"] == S3 and rows["FixedForCausalLM"]["regressed_since"] is None
    assert rows["FailsForCausalLM"]["cells"][0] == cell("fail", failed=1, other=1)
    assert {c["status"] for r in answer["rows"] for c in r["cells"]} == {"pass", "fail", "partial", "untested"}
    assert [r["architecture"] for r in answer["rows"]] == [
        "FailsForCausalLM", "GapForCausalLM", "NewForCausalLM", "WorksForCausalLM", "FixedForCausalLM"
    ]  # most models first, then by name  # fmt: skip


def test_a_task_counts_only_its_models_in_rows_cells_and_counts(made):
    answer = grid(*made, task=TG)
    rows = by_name(answer)
    assert rows["NewForCausalLM"]["models"] == 1  # the failing newcomer is an image-text-to-text model
    assert rows["NewForCausalLM"]["cells"][-1] == cell("pass", 1) and rows["NewForCausalLM"]["works_since"] == S1
    assert answer["unknown_architecture_models"] == 1  # the model without a record has no known task
    assert answer["task"] == TG
    assert grid(*made, task="text-to-image")["rows"] == []


def test_the_answer_is_computed_once_per_data_moment(made):
    assert grid(*made) is grid(*made)
    assert grid(*made, task=TG) is not grid(*made)


def test_the_endpoint_refuses_an_unknown_library_or_task_naming_the_known_ones(made):
    snapshot, records = made
    answers = Api(served(snapshot, records=RecordsStore(records, live=False)))
    answers.sources.records.begin()
    with pytest.raises(
        ArgumentRefused, match="parameter 'library' is 'diffusers'; the data has the libraries transformers"
    ):
        answers.grid("diffusers")
    with pytest.raises(
        ArgumentRefused, match=r"parameter 'task' is 'bogus'; the data has the tasks \"\" \(all tasks\)"
    ):
        answers.grid("", "bogus")
    assert answers.grid("Transformers", "Text-Generation") == grid(snapshot, records, "transformers", TG)


@pytest.fixture(scope="module")
def sample():
    return load(SAMPLE_DIR), load_records(ROOT / "data" / "models_snapshot.json")


def test_on_the_sample_the_stacks_are_oldest_first_and_the_issues_examples_hold(sample):
    answer = grid(*sample)
    assert [(s["neuronx_cc"].split("+")[0], s["library_version"]) for s in answer["stacks"]] == [
        ("2.21.18209.0", "4.55.4"), ("2.24.5133.0", "4.56.2"), ("2.26.9117.0", "4.57.1"),
        ("2.26.10342.0", "4.57.1"), ("2.28.7631.0", "4.57.1"), ("2.28.7631.0", "5.0.0"),
    ]  # fmt: skip
    rows = by_name(answer)
    assert len(rows) == 65
    newest_457, newest = answer["stacks"][4], answer["stacks"][5]
    lfm = rows["Lfm2VlForConditionalGeneration"]
    assert lfm["cells"][4]["status"] == "partial" and lfm["regressed_since"] is None
    llama = rows["LlamaForCausalLM"]
    assert llama["cells"][2]["regressed"] >= 1 and llama["regressed_since"] is None
    assert rows["PhiForCausalLM"]["regressed_since"] == newest
    assert rows["Gemma2ForCausalLM"]["regressed_since"] == newest_457
    assert rows["Qwen3ForCausalLM"]["models"] == 13


def test_another_library_has_its_own_stacks(sample):
    snapshot, records = sample
    assert libraries(snapshot) == ["transformers", "diffusers", "sentence-transformers"]
    answer = grid(snapshot, records, "diffusers")
    assert [s["library_version"] for s in answer["stacks"]] == ["0.36.0"] and answer["rows"]


def test_a_snapshot_holding_re_runs_counts_each_models_newest_run_on_a_stack(made):
    """The loader keeps one run per model and stack; rows given otherwise may hold several: the newest counts."""
    import pandas as pd

    from components.sources.snapshot import Snapshot

    snapshot, records = made
    rows = snapshot.rows.astype({"result": "object", "tested_at": "object"})
    rerun = rows[(rows["model_id"] == "works/a-1B") & (rows["library_version"] == "4.57.1")].copy()
    rerun["result"] = "FAIL"
    rerun["tested_at"] = pd.Timestamp("2020-01-01", tz="UTC")  # older than the PASS: the PASS counts
    newer = rerun.copy()
    newer["tested_at"] = pd.Timestamp("2030-01-01", tz="UTC")
    newer = newer[newer["neuronx_cc"] == S4["neuronx_cc"]]  # newer than the PASS on S4: the FAIL counts there
    both = Snapshot(pd.concat([rows, rerun, newer], ignore_index=True), snapshot.provenance)
    works = by_name(grid(both, records))["WorksForCausalLM"]
    assert [c["status"] for c in works["cells"]] == ["pass", "untested", "pass", "fail"]
    assert works["cells"][3]["regressed"] == 1 and works["regressed_since"] == S4
