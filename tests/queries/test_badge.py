"""The shields.io badge: the schema for each result, pinned stacks, and ids that cannot be models."""

import pytest

from components.domain.stacks import StackRef
from components.queries.badge import LABEL, badge
from components.queries.errors import MalformedId
from components.sources.dataset import load
from tests.helpers import NEW_CC, OLD_CC, row, write


@pytest.fixture
def badge_rows(tmp_path):
    write(tmp_path / "new.parquet", [
        row("org/passes", cc=NEW_CC),
        row("org/fails", cc=NEW_CC, result="FAIL", error="boom"),
        row("org/excluded", cc=NEW_CC, result="EXCLUDED", exclusion="too large"),
        row("org/odd", cc=NEW_CC, result="FLAKY <b>"),
    ])  # fmt: skip
    write(tmp_path / "old.parquet", [row("org/passes", cc=OLD_CC, lib_version="4.50.0", result="FAIL")])
    write(tmp_path / "sd.parquet", [row("org/diffuser", cc=NEW_CC, library="diffusers", lib_version="0.36.0")])
    return load(tmp_path)


def test_the_schema_for_pass_fail_and_the_rest(badge_rows):
    answers = {m: badge(badge_rows, m) for m in ("org/passes", "org/fails", "org/excluded", "org/untested", "org/odd")}
    for answer in answers.values():
        assert answer["schemaVersion"] == 1 and answer["label"] == LABEL and answer["cacheSeconds"] >= 300
    assert answers["org/passes"]["message"] == "PASS · neuronx-cc 2.28.7631.0"
    assert answers["org/passes"]["color"] == "green"
    assert (answers["org/fails"]["message"], answers["org/fails"]["color"]) == ("FAIL · neuronx-cc 2.28.7631.0", "red")
    assert (
        answers["org/excluded"]["message"].startswith("EXCLUDED · ") and answers["org/excluded"]["color"] == "lightgrey"
    )
    assert answers["org/untested"]["message"] == "not tested · neuronx-cc 2.28.7631.0"
    assert answers["org/untested"]["color"] == "lightgrey"
    assert answers["org/odd"]["message"].startswith("FLAKY <b> · ")  # as recorded; the JSON is data, not markup


def test_pinned_to_a_stack_and_never_another_stacks_result(badge_rows):
    assert badge(badge_rows, "org/passes", OLD_CC, "4.50.0")["message"] == "FAIL · neuronx-cc 2.9.1.0"
    assert badge(badge_rows, "org/passes", "2.9.1.0")["color"] == "red"  # the version without its +local tag
    assert badge(badge_rows, "org/passes", "", "4.50.0")["color"] == "red"
    unknown = badge(badge_rows, "org/passes", "2.99.0")
    assert unknown["message"] == "unknown stack" and unknown["color"] == "lightgrey"
    assert badge(badge_rows, "org/passes", "", "diffusers==0.36.0")["message"].startswith("not tested")


def test_an_unpinned_badge_speaks_for_the_newest_stack_of_the_models_library(badge_rows):
    assert badge(badge_rows, "org/diffuser") == badge(
        badge_rows, "org/diffuser", "", StackRef.from_params({"library": "diffusers"}).spec
    )
    assert badge(badge_rows, "org/diffuser")["message"] == "PASS · neuronx-cc 2.28.7631.0"
    assert badge(badge_rows, "ORG/PASSES")["color"] == "green"  # ids match case-insensitively, as in /lookup


@pytest.mark.parametrize("bad", ["", "a/b/c", "x" * 200, "<script>", "a b", None])
def test_a_malformed_id_is_refused(badge_rows, bad):
    with pytest.raises(MalformedId):
        badge(badge_rows, bad)
