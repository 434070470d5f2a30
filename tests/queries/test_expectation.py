"""Tests for components/queries/expectation.py through details.lookup: what to expect from an untested model,
on a dataset and records made here (fine-tunes of passing and failing base models, architectures with a
long, a short and no record)."""

from __future__ import annotations

import typing

import pytest

from components.queries import expectation as expect
from components.queries.answers import Expectation
from components.queries.causes import cause_of
from components.queries.details import lookup
from components.runtime import settings
from components.sources.dataset import load
from components.sources.records import parse_records
from tests.helpers import OLD_CC, row, write
from tests.queries.test_answers import violations

LLAMA, MISTRAL, GEMMA, OPT, PHI = (
    "LlamaForCausalLM", "MistralForCausalLM", "GemmaForCausalLM", "OPTForCausalLM", "PhiForCausalLM",
)  # fmt: skip
TRACEBACK = (
    'Traceback (most recent call last):\n  File "run.py", line 9, in <module>\n    main()\n'
    "RuntimeError: shape '[1, -1, 32, 128]' is invalid for input of size 69632\n"
)

CHAINED = (
    "    raise e.with_traceback(None) from e.__cause__\n"
    "torch._dynamo.exc.BackendCompilerFailed: backend='neuron' raised:\n"
    "NotImplementedError: Could not lower 'x'\n  in: Block.forward, modeling.py:172\n"
    '  Hint: a hint: with a colon\nSet TORCH_LOGS="+dynamo" for the internal stack trace.\n'
)


def rec(model_id, architecture, params=None, base=None):
    entry = {"id": model_id, "pipeline_tag": "text-generation", "config": {"architectures": [architecture]}}
    if params:
        entry["safetensors"] = {"total": params}
    if base:
        entry["cardData"] = {"base_model": base}
    return entry


@pytest.fixture
def fine_tunes(tmp_path):
    rows = [
        row("base/llama-8b"),
        row("base/mistral-7b", result="FAIL", error=TRACEBACK),
        *(row(f"gemma/g-{i}") for i in range(4)),
        row("opt/o-0", result="FAIL", error="boom"),
        row("opt/o-1", result="FAIL", error=CHAINED),
        row("opt/o-2", result="FAIL", error="x" * 500),
        row("phi/p-0"),
        row("phi/p-1", result="FAIL"),
        row("phi/p-2", result="EXCLUDED", exclusion="not prioritized", tp=None),
    ]
    write(tmp_path / "new.parquet", rows)
    write(tmp_path / "old.parquet", [row("base/llama-8b", cc=OLD_CC, lib_version="4.50.0", result="FAIL")])
    records = parse_records(
        [
            rec("base/llama-8b", LLAMA, 8_030_000_000),
            rec("base/mistral-7b", MISTRAL, 7_240_000_000),
            *(rec(f"gemma/g-{i}", GEMMA, 2_000_000_000) for i in range(4)),
            *(rec(f"opt/o-{i}", OPT, 1_300_000_000) for i in range(3)),
            *(rec(f"phi/p-{i}", PHI, 2_700_000_000) for i in range(3)),
            rec("ft/llama-chat", LLAMA, 8_030_000_000, base="base/llama-8b"),
            rec("ft/llama-merge", LLAMA, 8_030_000_000, base="ft/llama-chat"),  # two steps up
            rec("ft/mistral-chat", MISTRAL, 7_240_000_000, base="base/mistral-7b"),
            rec("ft/distilled", LLAMA, 1_000_000_000, base="base/llama-8b"),
            rec("ft/other-arch", MISTRAL, 8_000_000_000, base="base/llama-8b"),
            rec("new/gemma-7b", GEMMA, 7_000_000_000),
            rec("new/opt-2b", OPT, 2_000_000_000),
            rec("new/phi-3b", PHI, 3_000_000_000),
            rec("new/alien", "AlienForCausalLM", 1_000_000_000),
            rec("new/huge", GEMMA, 600_000_000_000),
        ],
        "test",
    )
    return load(tmp_path), records


def expected(fine_tunes, model_id, *stack):
    snapshot, records = fine_tunes
    answer = lookup(snapshot, model_id, *stack, records=records)
    assert answer["result"] == "not tested" and answer["kind"] == "not tested"  # an expectation is never a result
    assert set(answer["expectation"]) == {"verdict", "basis", "reason"}
    assert answer["expectation"]["verdict"] in expect.VERDICTS and answer["expectation"]["basis"] in expect.BASES
    return answer["expectation"]


def test_a_fine_tune_of_a_passing_base_model_of_the_same_architecture_likely_runs(fine_tunes):
    found = expected(fine_tunes, "ft/llama-chat")
    assert (found["verdict"], found["basis"]) == ("likely runs", "base model")
    assert "base/llama-8b passes" in found["reason"] and LLAMA in found["reason"] and "8.03 B" in found["reason"]
    merge = expected(fine_tunes, "ft/llama-merge")
    assert merge["verdict"] == "likely runs" and "base/llama-8b (2 steps up)" in merge["reason"]


def test_a_fine_tune_of_a_failing_base_model_likely_fails_naming_the_failure(fine_tunes):
    found = expected(fine_tunes, "ft/mistral-chat")
    assert (found["verdict"], found["basis"]) == ("likely fails", "base model")
    assert "base/mistral-7b fails" in found["reason"]
    # its error line as the run wrote it (never the masked signature), not the traceback's first line
    assert "RuntimeError: shape '[1, -1, 32, 128]' is invalid" in found["reason"] and "Traceback" not in found["reason"]
    assert "[N" not in found["reason"]
    # the same fine-tune on a stack where its base model failed, and on one where it passed
    assert expected(fine_tunes, "ft/llama-chat", OLD_CC, "4.50.0")["verdict"] == "likely fails"


def test_a_passing_base_model_of_another_size_or_architecture_leaves_it_to_the_architecture(fine_tunes):
    distilled = expected(fine_tunes, "ft/distilled")  # Llama has 1 run on the stack: too few
    assert (distilled["verdict"], distilled["basis"]) == ("unknown", "none")
    assert "its size differs (1.00 B parameters, the base model 8.03 B)" in distilled["reason"]
    assert "1 of 1 tested LlamaForCausalLM" in distilled["reason"] and "fewer than 3" in distilled["reason"]
    other = expected(fine_tunes, "ft/other-arch")  # Mistral: 1 run, failing
    assert other["verdict"] == "unknown" and f"its architecture differs ({LLAMA}" in other["reason"]


def test_without_a_base_model_the_architectures_record_decides_when_enough_was_tested(fine_tunes):
    gemma = expected(fine_tunes, "new/gemma-7b")
    assert (gemma["verdict"], gemma["basis"]) == ("likely runs", "architecture")
    assert "4 of 4 tested GemmaForCausalLM models pass" in gemma["reason"]
    assert "no base model has a run on this stack" in gemma["reason"]
    opt = expected(fine_tunes, "new/opt-2b")
    assert (opt["verdict"], opt["basis"]) == ("likely fails", "architecture") and "0 of 3 tested" in opt["reason"]
    phi = expected(fine_tunes, "new/phi-3b")  # 1 of 2 pass (the excluded model was not tested): too few, and mixed
    assert phi["verdict"] == "unknown" and "1 of 2 tested PhiForCausalLM" in phi["reason"]


def test_an_architecture_nobody_tested_is_unknown(fine_tunes):
    alien = expected(fine_tunes, "new/alien")
    assert (alien["verdict"], alien["basis"]) == ("unknown", "none")
    assert "no AlienForCausalLM model was tested on this stack" in alien["reason"]
    nobody = expected(fine_tunes, "who/knows")  # no Hub record at all
    assert nobody["verdict"] == "unknown" and "architecture is unknown" in nobody["reason"]


def test_a_model_too_large_for_the_harness_likely_fails_whatever_its_architecture(fine_tunes):
    huge = expected(fine_tunes, "new/huge")
    assert (huge["verdict"], huge["basis"]) == ("likely fails", "size") and "do not fit on 16 cores" in huge["reason"]


def test_a_tested_model_has_no_expectation(fine_tunes):
    snapshot, records = fine_tunes
    for model_id in ("base/llama-8b", "base/mistral-7b", "phi/p-2"):
        assert "expectation" not in lookup(snapshot, model_id, records=records)
    # an unknown stack gives no other stack's answer, and no expectation either
    assert "expectation" not in lookup(snapshot, "ft/llama-chat", "9.9.9", records=records)


def test_the_failure_summary_is_one_short_line(fine_tunes):
    snapshot, _ = fine_tunes
    stack = snapshot.newest
    assert expect.failure_summary(snapshot, stack, "opt/o-0") == "FAIL: boom"
    assert expect.failure_summary(snapshot, stack, "opt/o-1") == "FAIL: NotImplementedError: Could not lower 'x'"
    # the cause as /failures names it: one short line, however long the error
    long_one = expect.failure_summary(snapshot, stack, "opt/o-2")
    assert long_one == "FAIL: " + cause_of("x" * 500).summary and len(long_one) <= 6 + settings.CAUSE_SUMMARY.value
    assert expect.failure_summary(snapshot, stack, "phi/p-1") == "FAIL (no error recorded)"
    assert expect.failure_summary(snapshot, stack, "nobody/none") == ""


def test_the_about_page_states_the_rules_with_the_codes_thresholds():
    from tests.helpers import ROOT

    about = " ".join((ROOT / "assets" / "about.md").read_text(encoding="utf-8").split())
    assert f"within {expect.SIZE_RATIO:g}×" in about and f"at least {expect.MIN_TESTED} of its models" in about
    assert f"at least {expect.RUNS_SHARE:.0%} passed" in about and f"at most {expect.FAILS_SHARE:.0%}" in about
    assert all(f"**{verdict}**" in about for verdict in expect.VERDICTS)


def test_an_expectation_is_its_declared_type(fine_tunes):
    assert typing.get_type_hints(expect.expectation)["return"] is Expectation
    assert violations(expected(fine_tunes, "ft/llama-chat"), Expectation) == []
