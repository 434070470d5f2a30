"""The Architectures page's handlers: on opening it picks the newest stack (or keeps a choice still in the data) and
draws the headline and the table for it; a change of picker redraws both for the stack picked."""

from __future__ import annotations

import pytest

from components.queries import architectures
from components.sources.dataset import SAMPLE_DIR, load
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import resolve_records
from components.web.gradio.pages.architectures import ArchitecturesPage
from components.web.html.architectures import headline_html, table_html
from tests.helpers import ROOT, served


@pytest.fixture(scope="module")
def bundled_sources():
    rankings = resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json"))
    records = resolve_records(str(ROOT / "data" / "models_snapshot.json"))
    for store in (rankings, records):
        store.begin(refresh=False)
    return served(load(SAMPLE_DIR), rankings.current(), records)


def drawn(now, stack) -> dict:
    figure = architectures.headline(now.snapshot, now.rankings, now.records, stack)
    return {
        "headline": headline_html(figure),
        "table": table_html(architectures.architectures(now.snapshot, now.records, stack)),
    }


def test_opening_picks_the_newest_stack_and_draws_it(bundled_sources):
    now = bundled_sources.now()
    answer = ArchitecturesPage(bundled_sources).on_open()
    newest = now.snapshot.picker_stack(None)
    assert newest is not None and answer["stack"]["value"] == newest.picker_value
    assert answer["stack"]["choices"] and {k: answer[k] for k in ("headline", "table")} == drawn(now, newest)
    assert 'id="arch-table"' in answer["table"]


def test_a_picker_change_redraws_for_the_stack_picked(bundled_sources):
    now = bundled_sources.now()
    older = now.snapshot.stacks[-1]
    assert older != now.snapshot.picker_stack(None)
    assert ArchitecturesPage(bundled_sources).on_stack(older.picker_value) == drawn(now, older)
