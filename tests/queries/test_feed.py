"""The Atom feed of result changes, on data made here: what becomes an entry, its id, order and links."""

from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree as ET

import pytest

from components.queries import feed
from components.sources.dataset import load
from tests.helpers import NEW_CC, OLD_CC, row, write

A = "{http://www.w3.org/2005/Atom}"
MID_CC = "2.20.1.0+bbbbbbbb"


def at(day: int) -> datetime:
    return datetime(2026, 11, day, tzinfo=UTC)


@pytest.fixture
def snapshot(tmp_path):
    write(tmp_path / "old.parquet", [
        row("org/regresses", cc=OLD_CC, lib_version="4.50.0", tested_at=at(1)),
        row("org/fixed", cc=OLD_CC, lib_version="4.50.0", result="FAIL", tested_at=at(1)),
        row("org/steady", cc=OLD_CC, lib_version="4.50.0", tested_at=at(1)),
    ])  # fmt: skip
    write(tmp_path / "mid.parquet", [
        row("org/regresses", cc=MID_CC, lib_version="4.55.0", result="FAIL", tested_at=at(5)),
        row("org/fixed", cc=MID_CC, lib_version="4.55.0", tested_at=at(6)),
        row("org/steady", cc=MID_CC, lib_version="4.55.0", tested_at=at(5)),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("org/regresses", cc=NEW_CC, lib_version="4.57.1", result="FAIL", tested_at=at(9)),
        row("org/fixed", cc=NEW_CC, lib_version="4.57.1", tested_at=at(9)),
        row("org/steady", cc=NEW_CC, lib_version="4.57.1", tested_at=at(9)),
        row("org/newcomer", cc=NEW_CC, lib_version="4.57.1", tested_at=at(10)),
        row("evil/<b>\x01", cc=NEW_CC, lib_version="4.57.1", tested_at=at(8)),
        row("org/excluded", cc=NEW_CC, lib_version="4.57.1", result="EXCLUDED", exclusion="too big", tested_at=at(10)),
    ])  # fmt: skip
    # another library: its one stack has no predecessor, so it brings no change
    write(tmp_path / "sd.parquet", [row("org/diffuser", cc=NEW_CC, library="diffusers", lib_version="0.36.0")])
    return load(tmp_path)


def entries(document: bytes) -> list[ET.Element]:
    return ET.fromstring(document).findall(f"{A}entry")


def test_changes_between_consecutive_stacks_newest_first(snapshot):
    found = [(c.model_id, c.kind, c.newer.neuronx_cc) for c in feed.changes(snapshot)]
    assert found == [
        ("org/newcomer", "newly-tested", NEW_CC),
        ("evil/<b>\x01", "newly-tested", NEW_CC),
        ("org/fixed", "fix", MID_CC),
        ("org/regresses", "regression", MID_CC),
    ]
    # never changed, or deliberately not tested: no entry
    assert not {"org/steady", "org/excluded"} & {c.model_id for c in feed.changes(snapshot)}
    assert feed.changes(snapshot) is feed.changes(snapshot)  # worked out once per snapshot


def test_a_regression_is_an_entry_naming_the_model_and_linking_to_it(snapshot):
    document = feed.feed(snapshot, "https://owner-space.hf.space/")
    regression = next(e for e in entries(document) if "org/regresses" in e.findtext(f"{A}title"))
    assert "regressed" in regression.findtext(f"{A}title") and "PASS → FAIL" in regression.findtext(f"{A}title")
    assert regression.findtext(f"{A}updated") == "2026-11-05T00:00:00Z"
    href = regression.find(f"{A}link").get("href")
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "owner-space.hf.space", "/")
    assert parse_qs(parts.query) == {"model": ["org/regresses"], "neuronx_cc": [MID_CC], "transformers": ["4.55.0"]}
    assert regression.find(f"{A}category").get("term") == "regression"


def test_ids_are_unique_and_stable(snapshot, tmp_path):
    ids = [e.findtext(f"{A}id") for e in entries(feed.feed(snapshot, "http://a"))]
    assert len(ids) == len(set(ids)) == 4
    again = load(tmp_path)  # another load of the same data, served from another address
    assert [e.findtext(f"{A}id") for e in entries(feed.feed(again, "https://b.example"))] == ids
    assert all(i.startswith("tag:huggingface.co,2026:") for i in ids)


def test_a_models_own_feed_holds_only_that_model(snapshot):
    document = feed.feed(snapshot, "http://a", "ORG/FIXED")
    assert [e.findtext(f"{A}title").split()[0] for e in entries(document)] == ["org/fixed"]
    root = ET.fromstring(document)
    assert "org/fixed" in root.findtext(f"{A}title")
    assert root.find(f"{A}link[@rel='self']").get("href") == "http://a/feed.atom?model=org%2Ffixed"
    assert entries(feed.feed(snapshot, "http://a", "org/steady")) == []
    assert entries(feed.feed(snapshot, "http://a", "org/never-run")) == []


def test_at_most_the_limit_and_hostile_text_stays_well_formed_data(snapshot):
    assert len(entries(feed.feed(snapshot, "http://a", limit=2))) == 2
    document = feed.feed(snapshot, "http://a")
    assert b"<b>" not in document and b"\x01" not in document
    titles = [e.findtext(f"{A}title") for e in entries(document)]
    assert any(t.startswith("evil/<b>\ufffd ") for t in titles)


def test_an_empty_dataset_is_a_valid_feed_without_entries(tmp_path):
    write(tmp_path / "one.parquet", [row("org/alone")])
    root = ET.fromstring(feed.feed(load(tmp_path), "http://a"))
    assert root.findall(f"{A}entry") == [] and root.findtext(f"{A}updated")


def test_only_the_pairs_that_can_hold_the_newest_changes_are_compared(snapshot):
    newest_pair, older_pair = feed.consecutive_pairs(snapshot)[:2]
    assert [c.model_id for c in feed.changes(snapshot, limit=2)] == ["org/newcomer", "evil/<b>\x01"]
    assert ("feed-pair", newest_pair[0].ref, newest_pair[1].ref) in snapshot._memo
    assert ("feed-pair", older_pair[0].ref, older_pair[1].ref) not in snapshot._memo  # its runs are all older
    assert [c.kind for c in feed.model_changes(snapshot, "org/fixed")] == ["fix"]
