"""components/compare.py: regressions, fixes, added, removed and notable changes between two stacks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from components.domain.errors import UnknownStack
from components.queries.api import Api
from components.queries.compare import LISTS, Thresholds, compare, default_stacks, resolve_pair
from components.sources.dataset import SAMPLE_DIR, load
from data import catalogue
from tests.helpers import row, served, write

OLD, NEW = "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"


def ts(day: int) -> datetime:
    return datetime(2026, 11, day, tzinfo=UTC)


def ids(entries: list[dict]) -> list[str]:
    return [e["model_id"] for e in entries]


@pytest.fixture
def two_stacks(tmp_path):
    """Two stacks, OLD (A) then NEW (B), with one model for each kind of change."""
    write(tmp_path / "old.parquet", [
        row("a/regressed", cc=OLD),
        row("a/fixed", cc=OLD, result="FAIL"),
        row("a/removed", cc=OLD),
        row("a/same", cc=OLD, wall_s=600, hbm_peak_gb=10.0),
        row("a/slower", cc=OLD, wall_s=600),
        row("a/bigger", cc=OLD, hbm_peak_gb=10.0),
        row("a/more-cores", cc=OLD, tp=1),
        row("a/small-move", cc=OLD, wall_s=100, hbm_peak_gb=2.0),
        row("a/now-excluded", cc=OLD),
        row("a/still-failing", cc=OLD, result="FAIL"),
        row("a/rerun", cc=OLD),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("a/regressed", cc=NEW, result="FAIL", error="boom"),
        row("a/fixed", cc=NEW),
        row("a/added", cc=NEW),
        row("a/same", cc=NEW, wall_s=700, hbm_peak_gb=11.0),  # +17% and +10%: not notable
        row("a/slower", cc=NEW, wall_s=900),  # +50%, +300 s
        row("a/bigger", cc=NEW, hbm_peak_gb=13.0),  # +30%, +3 GB
        row("a/more-cores", cc=NEW, tp=2, hbm_capacity_gb=48.0),
        row("a/small-move", cc=NEW, wall_s=150, hbm_peak_gb=2.9),  # +50% each, under 60 s and 1 GB
        row("a/now-excluded", cc=NEW, result="EXCLUDED", exclusion="not prioritized", tp=None, wall_s=None),
        row("a/still-failing", cc=NEW, result="FAIL"),
        # a re-run on one stack: the newer PASS counts, although the FAIL is written after it
        row("a/rerun", cc=NEW, result="PASS", tested_at=ts(5)),
        row("a/rerun", cc=NEW, result="FAIL", tested_at=ts(2)),
    ])  # fmt: skip
    return load(tmp_path)


def test_each_kind_of_change_lands_in_its_list(two_stacks):
    old, new = resolve_pair(two_stacks, OLD, "", NEW, "")
    answer = compare(two_stacks, old, new)
    assert ids(answer["regressions"]) == ["a/regressed"]
    assert ids(answer["fixes"]) == ["a/fixed"]
    assert ids(answer["added"]) == ["a/added"]
    assert ids(answer["removed"]) == ["a/removed"]
    assert ids(answer["changed"]) == ["a/bigger", "a/more-cores", "a/slower"]
    assert ids(answer["other_changes"]) == ["a/now-excluded"]  # an exclusion is not a regression
    listed = {m for name in LISTS for m in ids(answer[name])}
    assert not listed & {"a/same", "a/small-move", "a/still-failing", "a/rerun"}


def test_entries_carry_both_sides(two_stacks):
    answer = compare(two_stacks, *resolve_pair(two_stacks, OLD, "", NEW, ""))
    (regressed,) = answer["regressions"]
    assert (regressed["result_a"], regressed["result_b"]) == ("PASS", "FAIL")
    assert (regressed["kind_a"], regressed["kind_b"]) == ("pass", "fail")
    assert regressed["tp_a"] == 1 and regressed["wall_s_b"] == 600 and regressed["hbm_peak_gb_a"] == 6.5
    (added,) = answer["added"]
    assert added["result_a"] == "not tested" and added["tp_a"] is None and added["result_b"] == "PASS"
    (removed,) = answer["removed"]
    assert removed["result_b"] == "not tested" and removed["wall_s_b"] is None
    reasons = {e["model_id"]: e["reasons"] for e in answer["changed"]}
    assert reasons == {"a/bigger": ["peak memory"], "a/more-cores": ["cores"], "a/slower": ["wall time"]}
    assert answer["stack_a"]["neuronx_cc"] == OLD and answer["stack_b"]["neuronx_cc"] == NEW


def test_a_stack_compared_with_itself_changes_nothing(two_stacks):
    for stack in two_stacks.stacks:
        answer = compare(two_stacks, stack, stack)
        assert all(answer[name] == [] for name in LISTS)


def test_thresholds_decide_what_changed(two_stacks):
    old, new = resolve_pair(two_stacks, OLD, "", NEW, "")
    loose = compare(
        two_stacks, old, new, Thresholds(wall_change=0.1, wall_min_s=30, memory_change=0.05, memory_min_gb=0.5)
    )
    assert {"a/same", "a/small-move"} <= set(ids(loose["changed"]))
    strict = compare(
        two_stacks, old, new, Thresholds(wall_change=1.0, wall_min_s=60, memory_change=1.0, memory_min_gb=1)
    )
    assert ids(strict["changed"]) == ["a/more-cores"]
    assert compare(two_stacks, old, new)["thresholds"]["wall_change"] == 0.25


def test_defaults_are_the_stack_before_the_newest_and_the_newest(two_stacks, tmp_path):
    old, new = default_stacks(two_stacks)
    assert (old.neuronx_cc, new.neuronx_cc) == (OLD, NEW)
    assert resolve_pair(two_stacks) == (old, new)
    with pytest.raises(UnknownStack, match="9.9.9.*Known stacks: 2.28.7631.0"):  # never another stack's answer
        resolve_pair(two_stacks, "9.9.9", "", "", "")
    assert resolve_pair(two_stacks, "2.28.7631.0", "", "2.26.9117.0", "") == (new, old)  # the public part is enough
    write(tmp_path / "one" / "only.parquet", [row("a/m", cc=NEW)])
    one = load(tmp_path / "one")
    assert default_stacks(one) == (one.newest, one.newest)


def test_no_data_gives_empty_lists(tmp_path):
    (tmp_path / "empty").mkdir()
    empty = load(tmp_path / "empty")
    assert default_stacks(empty) == (None, None)
    answer = compare(empty, None, None)
    assert answer["stack_a"] is None and all(answer[name] == [] for name in LISTS)


def test_the_answer_is_memoised_per_snapshot(two_stacks):
    old, new = resolve_pair(two_stacks, OLD, "", NEW, "")
    assert compare(two_stacks, old, new) is compare(two_stacks, old, new)


def test_api_compare_defaults_and_docstring(two_stacks):
    answer = Api(served(two_stacks)).compare()
    assert answer["stack_a"]["neuronx_cc"] == OLD and answer["stack_b"]["neuronx_cc"] == NEW
    assert ids(answer["regressions"]) == ["a/regressed"]
    assert "description" in answer["thresholds"]
    assert all(word in Api.compare.__doc__ for word in ("25%", "60 s", "20%", "1 GB"))  # matches Thresholds()
    assert Thresholds() == Thresholds(0.25, 60.0, 0.20, 1.0)


# ---- the bundled sample ---------------------------------------------------------------------


@pytest.mark.skipif(not any(SAMPLE_DIR.glob("*.parquet")), reason="no bundled sample in data/sample")
def test_the_sample_lists_exactly_its_expected_changes():
    sample = load(SAMPLE_DIR)
    assert catalogue.COMPARE_NEWEST[1] == catalogue.COMPARE_NEWEST[3]  # the two newest compilers, same Transformers
    for key, expected in catalogue.EXPECTED_CHANGES.items():
        answer = compare(sample, *resolve_pair(sample, *key))
        assert (answer["stack_a"]["neuronx_cc"], answer["stack_a"]["library_version"]) == key[:2]
        assert (answer["stack_b"]["neuronx_cc"], answer["stack_b"]["library_version"]) == key[2:]
        for name, models in expected.items():
            assert set(ids(answer[name])) == set(models), (key, name)
        assert answer["other_changes"] == [], key  # "no other model changes result"
    newest = compare(sample, *resolve_pair(sample, *catalogue.COMPARE_NEWEST))
    assert set(ids(newest["regressions"])) == catalogue.REGRESSIONS_NEWEST
    assert set(ids(newest["fixes"])) == catalogue.FIXES_NEWEST
