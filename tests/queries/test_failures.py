"""components/queries/failures.py: the causes on a stack, where each was first seen and fixed."""

from __future__ import annotations

import typing

import pytest

from components.domain.results import FAIL
from components.queries import failures
from components.queries.answers import CauseAnswer, FailuresAnswer, ModelCause
from components.queries.causes import NO_ERROR_TEXT
from components.sources.dataset import SAMPLE_DIR, load
from tests.helpers import row, write
from tests.queries.test_answers import violations
from tests.queries.tracebacks import eoom, nrt, python_error

OLD, MID, NEW = "2.24.5133.0+58f8de22", "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"


@pytest.fixture
def snap(tmp_path):
    write(tmp_path / "old.parquet", [
        row("a/oom", cc=OLD, result="FAIL", error=nrt("NRT_RESOURCE (4)", 1, 0, 100)),
        row("a/fixed", cc=OLD, result="FAIL", error=nrt("NRT_RESOURCE (4)", 2, 3, 200)),
        row("a/regressed", cc=OLD),
        row("a/shape", cc=OLD, result="FAIL", error=python_error("RuntimeError: shape '[1, 2]' bad size 9", 3)),
    ])  # fmt: skip
    write(tmp_path / "mid.parquet", [
        row("a/oom", cc=MID, result="FAIL", error=nrt("NRT_RESOURCE (4)", 2, 5, 7, "decode step 1")),
        row("a/fixed", cc=MID),
        row("a/regressed", cc=MID),
        row("a/shape", cc=MID, result="FAIL", error=python_error("RuntimeError: shape '[1, 8]' bad size 4", 9)),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("a/oom", cc=NEW, result="FAIL", error=nrt("NRT_RESOURCE (4)", 1, 9, 31337)),
        row("a/fixed", cc=NEW),
        row("a/regressed", cc=NEW, result="FAIL", error=nrt("NRT_RESOURCE (4)", 1, 2, 3)),
        row("a/shape", cc=NEW, result="FAIL", error=None),
        row("a/also-no-text", cc=NEW, result="FAIL", error="  "),
        row("a/weird", cc=NEW, result="FAIL", error=eoom(40.5, 8, "feedface01234567")),
        row("a/excluded", cc=NEW, result="EXCLUDED", exclusion="too big", error="RuntimeError: ignored"),
    ])  # fmt: skip
    return load(tmp_path)


def stack(snapshot, cc):
    return snapshot.resolve_stack(cc, "")


def test_every_fail_on_a_stack_is_in_exactly_one_cause(snap):
    for s in snap.stacks:
        answer = failures.failures(snap, s)
        listed = [m for c in answer["causes"] for m in c["models"]]
        positions = snap.stack_positions(s)
        fails = sorted(str(snap.rows["model_id"].iat[p]) for p in positions if snap.kind[p] == FAIL)
        assert sorted(listed) == fails
        assert len(listed) == len(set(listed)) == answer["failed"]
        assert [c["count"] for c in answer["causes"]] == sorted((c["count"] for c in answer["causes"]), reverse=True)
        assert all(c["count"] == len(c["models"]) for c in answer["causes"])


def test_the_newest_stack_ranks_causes_by_models_blocked_and_says_where_each_was_first_seen(snap):
    answer = failures.failures(snap, stack(snap, NEW))
    assert answer["stack"]["neuronx_cc"] == NEW and answer["failed"] == 5
    top, *rest = answer["causes"]
    assert top["code"] == "NRT_RESOURCE" and top["models"] == ["a/oom", "a/regressed"] and top["count"] == 2
    assert top["first_seen"]["neuronx_cc"] == OLD  # first blocked a model on the oldest stack
    no_text = next(c for c in rest if c["summary"] == NO_ERROR_TEXT)
    assert no_text["models"] == ["a/also-no-text", "a/shape"] and no_text["first_seen"]["neuronx_cc"] == NEW
    assert {c["code"] for c in rest} == {None, "NCC_EOOM001"}


def test_signatures_hold_across_stacks_and_fixed_in_names_the_newer_stacks_where_models_pass(snap):
    by_stack = {s.neuronx_cc: failures.failures(snap, s) for s in snap.stacks}
    signature = {cc: {c["code"]: c["signature"] for c in a["causes"]} for cc, a in by_stack.items()}
    assert signature[OLD]["NRT_RESOURCE"] == signature[MID]["NRT_RESOURCE"] == signature[NEW]["NRT_RESOURCE"]
    assert signature[OLD]["RuntimeError"] == signature[MID]["RuntimeError"]  # other shape, other line number
    old_oom = next(c for c in by_stack[OLD]["causes"] if c["code"] == "NRT_RESOURCE")
    assert old_oom["models"] == ["a/fixed", "a/oom"]
    assert [(f["neuronx_cc"], f["models"]) for f in old_oom["fixed_in"]] == [(NEW, ["a/fixed"]), (MID, ["a/fixed"])]


def test_the_cause_of_one_model_names_the_others_it_blocks(snap):
    new = stack(snap, NEW)
    cause = failures.cause_on_stack(snap, new, "a/regressed")
    assert cause["code"] == "NRT_RESOURCE" and cause["shared_with"] == ["a/oom"]
    assert set(cause) == {"signature", "code", "summary", "example", "docs", "shared_with"}
    assert failures.cause_on_stack(snap, new, "a/fixed") is None  # passed
    assert failures.cause_on_stack(snap, new, "a/excluded") is None  # excluded, not failed
    assert failures.cause_on_stack(snap, new, "nobody/ran-this") is None


def test_causes_are_computed_once_per_snapshot_one_stack_at_a_time(snap, monkeypatch):
    new = stack(snap, NEW)
    first = failures.stack_causes(snap, new)
    calls = []
    real = failures.cause_of
    monkeypatch.setattr(failures, "cause_of", lambda text: calls.append(text) or real(text))
    assert failures.stack_causes(snap, new) is first and calls == []
    failures.cause_on_stack(snap, new, "a/oom")  # a failed model's panel: its own stack only
    assert calls == []
    failures.stack_causes(snap, stack(snap, MID))
    assert len(calls) == 2  # the other stack's two distinct texts, once each


def test_across_stacks_counts_models_blocked_by_the_top_causes_oldest_stack_first(snap):
    (transformers,) = failures.across_stacks(snap, top=8)
    assert transformers["library"] == "transformers"
    assert [s["neuronx_cc"] for s in transformers["stacks"]] == [OLD, MID, NEW]
    oom = next(c for c in transformers["causes"] if c["code"] == "NRT_RESOURCE")
    assert oom["counts"] == [2, 1, 2] and transformers["causes"][0] is oom


def test_across_stacks_counts_a_cause_only_on_its_own_librarys_stacks(tmp_path):
    shape = python_error("RuntimeError: shape '[1, -1, 32, 128]' is invalid for input of size 4096", 7)
    oom = eoom(40.5, 8, "feedface01234567")
    write(tmp_path / "t.parquet", [
        row("t/a", cc=OLD, result="FAIL", error=shape), row("t/b", cc=OLD, result="FAIL", error=shape),
        row("t/c", cc=OLD, result="FAIL", error=oom),
    ])  # fmt: skip
    write(tmp_path / "t2.parquet", [row("t/a", cc=NEW, result="FAIL", error=shape), row("t/b", cc=NEW)])
    diffusers = [row(f"d/{i}", cc=NEW, library="diffusers", lib_version="0.36.0", transformers=None) for i in range(4)]
    diffusers.append(row("d/fail", cc=NEW, library="diffusers", lib_version="0.36.0", result="FAIL", error=oom))
    write(tmp_path / "d.parquet", diffusers)
    chart = failures.across_stacks(load(tmp_path), top=1)
    assert [c["library"] for c in chart] == ["transformers", "diffusers"]
    transformers, diffusers = chart
    assert [s["neuronx_cc"] for s in transformers["stacks"]] == [OLD, NEW]
    assert [s["library"] for s in diffusers["stacks"]] == ["diffusers"]
    # the Transformers cause has a count on each Transformers stack and none on the Diffusers one (no false 0)
    assert [(c["code"], c["counts"]) for c in transformers["causes"]] == [("RuntimeError", [2, 1])]
    # beyond `top`, each library still shows its first cause
    assert [(c["code"], c["counts"]) for c in diffusers["causes"]] == [("NCC_EOOM001", [1])]


def test_a_cause_reads_as_a_real_error_line_its_first_models_and_each_model_has_its_own(tmp_path):
    write(tmp_path / "x.parquet", [
        row("m/b", result="FAIL", error=python_error("RuntimeError: shape '[1, -1, 16, 64]' is invalid for input of size 1024", 3)),
        row("m/a", result="FAIL", error=python_error("RuntimeError: shape '[1, -1, 32, 128]' is invalid for input of size 4096", 9)),
        row("m/none", result="FAIL", error=None),
    ])  # fmt: skip
    snapshot = load(tmp_path)
    new = snapshot.newest
    shape, no_text = failures.failures(snapshot, new)["causes"]
    assert (
        shape["models"] == ["m/a", "m/b"]
        and shape["summary"] == "RuntimeError: shape '[N, -N, N, N]' is invalid for input of size N"
    )
    assert shape["example"] == "RuntimeError: shape '[1, -1, 32, 128]' is invalid for input of size 4096"  # m/a's
    assert no_text["example"] == NO_ERROR_TEXT
    assert (
        failures.cause_on_stack(snapshot, new, "m/b")["example"]
        == "RuntimeError: shape '[1, -1, 16, 64]' is invalid for input of size 1024"
    )
    assert {m: c["example"][-4:] for m, c in failures.causes_of(snapshot, new, ["m/a", "m/b"]).items()} == {
        "m/a": "4096",
        "m/b": "1024",
    }


def test_the_bundled_sample_reduces_to_about_a_dozen_causes():
    snapshot = load(SAMPLE_DIR)
    signatures, failed = set(), 0
    for s in snapshot.stacks:
        found = failures.stack_causes(snapshot, s)
        signatures |= {c.signature for c in found.causes}
        failed += len(found.by_model)
    assert failed == (snapshot.kind == FAIL).sum() > 250
    assert 8 <= len(signatures) <= 25


def test_the_answers_are_their_declared_types(snap):
    new = stack(snap, NEW)
    assert typing.get_type_hints(failures.failures)["return"] is FailuresAnswer
    assert violations(failures.failures(snap, new), FailuresAnswer) == []
    assert violations(failures.failures(snap, None), FailuresAnswer) == []
    assert violations(failures.cause_on_stack(snap, new, "a/oom"), ModelCause) == []
    assert [violations(c, CauseAnswer) for c in failures.causes_of(snap, new, ["a/oom", "a/weird"]).values()] == [
        [],
        [],
    ]
