"""Wanted: lookups of untested models counted per model and day, each address once a model a day, bounded,
and ranked with the Hub's downloads and the expectation (on data made here, `world`)."""

from __future__ import annotations

from datetime import date, timedelta
from types import SimpleNamespace

import pytest

from components.queries import wanted
from components.sources.records import parse_records
from components.sources.records_store import NOT_ON_HUB

UNTESTED = "meta-llama/Llama-3.1-8B-Instruct"  # run on 4.57.1 only: no row on the newest stack (5.0.0)


class Clock:
    def __init__(self, day: date = date(2026, 12, 4)):
        self.day = day

    def __call__(self) -> date:
        return self.day


@pytest.fixture
def world_snapshot(world):
    return world[0]


def test_one_address_looking_a_model_up_100_times_counts_once(world_snapshot):
    counts = wanted.Wanted(clock=Clock())
    noted = [wanted.note_lookup(counts, world_snapshot, UNTESTED, "203.0.113.7") for _ in range(100)]
    assert noted.count(True) == 1
    assert [(c.model_id, c.lookups) for c in counts.counted()] == [(UNTESTED, 1)]
    assert wanted.note_lookup(counts, world_snapshot, UNTESTED, "203.0.113.8")  # another address counts
    assert counts.counted()[0].lookups == 2


def test_the_next_day_the_same_address_counts_again_and_its_hash_is_gone(world_snapshot):
    clock = Clock()
    counts = wanted.Wanted(clock=clock)
    assert wanted.note_lookup(counts, world_snapshot, UNTESTED, "203.0.113.7")
    salt = counts.salt
    clock.day += timedelta(days=1)
    assert wanted.note_lookup(counts, world_snapshot, UNTESTED, "203.0.113.7")
    assert counts.salt != salt and len(counts.seen) == 1
    assert counts.counted()[0].lookups == 2 and counts.counted()[0].last_day == clock.day


def test_only_untested_models_and_hub_ids_count(world_snapshot):
    counts = wanted.Wanted(clock=Clock())
    assert not wanted.note_lookup(counts, world_snapshot, "Qwen/Qwen3-0.6B", "a")  # has a row on the newest stack
    assert not wanted.note_lookup(counts, world_snapshot, "not an id", "a")
    assert not wanted.note_lookup(counts, world_snapshot, "<script>x</script>", "a")
    assert wanted.note_lookup(counts, world_snapshot, "someone/new-model", "a")  # held: the Hub has not confirmed it
    assert wanted.note_lookup(counts, world_snapshot, "META-LLAMA/llama-3.1-8b-instruct", "a")  # its canonical id
    assert {c.model_id for c in counts.counted()} == {UNTESTED}
    assert [(c.model_id, c.lookups) for c in counts.held()] == [("someone/new-model", 1)]


def test_an_id_counts_once_the_hub_knows_it_and_one_it_does_not_know_never_does(world_snapshot):
    counts, told = wanted.Wanted(clock=Clock()), []
    counts.sink = lambda day, model_id: told.append(model_id)  # what a store would persist
    for address in ("a", "b"):
        assert wanted.note_lookup(counts, world_snapshot, "someone/new-model", address)
        assert wanted.note_lookup(counts, world_snapshot, "foo/bar-does-not-exist", address)
    offline = wanted.ranking(counts, world_snapshot, parse_records([], "test"))  # nothing known yet (offline)
    assert offline["models"] == [] and told == []
    assert [(m["model_id"], m["lookups"]) for m in offline["not_checked"]] == [
        ("foo/bar-does-not-exist", 2),
        ("someone/new-model", 2),
    ]
    # the records store's background look-up answered: one has a record, the Hub has no such model as the other
    checked = parse_records([{"id": "Someone/New-Model", "downloads": 7}], "test").added(
        [], {"foo/bar-does-not-exist": NOT_ON_HUB}
    )
    answer = wanted.ranking(counts, world_snapshot, checked)
    assert [(m["model_id"], m["lookups"], m["downloads"]) for m in answer["models"]] == [("Someone/New-Model", 2, 7)]
    assert answer["not_checked"] == [] and told == ["Someone/New-Model"] * 2
    assert not wanted.note_lookup(counts, world_snapshot, "foo/bar-does-not-exist", "c", checked)  # known unknown
    assert counts.held() == []


def test_a_model_that_ran_on_its_own_librarys_newest_stack_is_not_wanted(libraries):
    world_snapshot, _ = libraries
    counts = wanted.Wanted(clock=Clock())
    assert not wanted.note_lookup(counts, world_snapshot, "stabilityai/sd-turbo", "a")  # a diffusers PASS
    assert not wanted.note_lookup(counts, world_snapshot, "BAAI/bge-small-en-v1.5", "a")  # sentence-transformers
    assert counts.counted() == [] and counts.held() == []


def test_at_most_max_ids_the_rarest_dropped_first():
    clock = Clock()
    counts = wanted.Wanted(clock=clock, max_ids=3)
    for address in ("a", "b", "c"):
        counts.note("org/popular", address)
    counts.note("org/twice", "a")
    counts.note("org/twice", "b")
    counts.note("org/once-old", "a")
    clock.day += timedelta(days=1)
    counts.note("org/once-new", "a")  # a fourth id: the rarest, and of those the longest unseen, goes
    assert [c.model_id for c in counts.counted()] == ["org/popular", "org/twice", "org/once-new"]


def test_days_past_the_window_drop_out():
    clock = Clock()
    counts = wanted.Wanted(clock=clock, window_days=2)
    counts.note("org/old", "a")
    clock.day += timedelta(days=2)
    counts.note("org/new", "a")
    assert [c.model_id for c in counts.counted()] == ["org/new"]


def test_the_memory_of_askers_is_bounded_and_full_counts_nothing_more():
    counts = wanted.Wanted(clock=Clock(), max_seen=2)
    assert counts.note("org/m", "a") and counts.note("org/m", "b")
    assert not counts.note("org/m", "c")
    assert counts.counted()[0].lookups == 2


def test_the_ranking_has_downloads_and_expectation_and_leaves_out_tested_models(world_snapshot):
    records = parse_records(
        [{"id": UNTESTED, "downloads": 1234, "pipeline_tag": "text-generation"}, {"id": "org/other", "downloads": 5}],
        "test",
    )
    counts = wanted.Wanted(clock=Clock())
    for address in ("a", "b", "c"):
        counts.note(UNTESTED, address)
    counts.note("org/other", "a")
    counts.note("Qwen/Qwen3-0.6B", "a")  # counted directly, yet tested on the newest stack: left out
    answer = wanted.ranking(counts, world_snapshot, records)
    assert [m["model_id"] for m in answer["models"]] == [UNTESTED, "org/other"]
    first = answer["models"][0]
    assert first["lookups"] == 3 and first["downloads"] == 1234 and first["task"] == "text-generation"
    assert first["expectation"] in ("likely runs", "likely fails", "unknown")
    assert answer["stack"]["library_version"] == "5.0.0" and answer["persisted"] is False
    assert len(wanted.ranking(counts, world_snapshot, records, limit=1)["models"]) == 1


def test_a_hub_id_in_another_case_counts_under_its_records_id(world_snapshot):
    records = parse_records([{"id": "Someone/New-Model", "downloads": 7}], "test")
    counts = wanted.Wanted(clock=Clock())
    assert wanted.note_lookup(counts, world_snapshot, "someone/new-model", "a", records)
    assert wanted.note_lookup(counts, world_snapshot, "SOMEONE/NEW-MODEL", "b", records)
    assert [(c.model_id, c.lookups) for c in counts.counted()] == [("Someone/New-Model", 2)]


def test_the_ids_not_checked_are_asked_for_in_the_background_never_waited_for(world_snapshot):
    asked: list[str] = []
    store = SimpleNamespace(want=lambda ids: asked.extend(ids))  # RecordsStore.want queues, never waits
    sources = SimpleNamespace(
        now=lambda: SimpleNamespace(snapshot=world_snapshot, records=parse_records([], "t")), records=store
    )
    counts = wanted.Wanted(clock=Clock())
    wanted.note_lookup(counts, world_snapshot, "someone/new-model", "a")
    answer = wanted.current(counts, sources)
    assert asked == ["someone/new-model"] and [m["model_id"] for m in answer["not_checked"]] == asked
