"""What a page's first response says, as text, over data made here (`world`: three stacks, a hostile id)."""

from __future__ import annotations

import pytest

from components.queries import preview
from components.runtime import settings
from tests.helpers import served


@pytest.fixture
def moment(world):
    snapshot, rankings = world
    return served(snapshot, rankings).now()


def test_a_tested_model_names_result_stack_cores_and_wall_time(moment):
    card = preview.preview(moment, "", {"model": "Qwen/Qwen3-0.6B", "transformers": "4.57.1"})
    assert card.title == "Qwen/Qwen3-0.6B: PASS on Trainium · torch-neuronx model support"
    assert card.description == (
        "Qwen/Qwen3-0.6B: PASS on neuronx-cc 2.28.7631.0 · Transformers 4.57.1, 1 core, wall time 10 min."
    )
    assert card.query.startswith("model=Qwen%2FQwen3-0.6B&neuronx_cc=2.28.7631.0") and not card.sample


def test_a_failure_gives_the_exception_line_not_the_traceback_header(moment):
    card = preview.preview(moment, "", {"model": "meta-llama/Llama-3.1-8B-Instruct", "transformers": "4.57.1"})
    assert card.verdict == "FAIL" and card.detail == "NCC_EOOM001: out of memory"
    assert "2 cores" in card.description and "Traceback" not in card.description


def test_an_older_stack_in_the_link_is_the_stack_described(moment):
    card = preview.preview(moment, "", {"model": "Qwen/Qwen3-0.6B", "neuronx_cc": "2.9.1.0", "transformers": "4.50.0"})
    assert card.verdict == "FAIL" and "neuronx-cc 2.9.1.0 · Transformers 4.50.0" in card.description


def test_an_untested_model_says_not_tested_and_the_expectation(moment):
    card = preview.preview(moment, "", {"model": "new/untested-7B"})
    assert card.kind == "not tested" and card.verdict.startswith("not tested (expected: ")
    assert card.description.startswith("new/untested-7B: not tested (expected: ")


def test_a_value_that_is_no_model_gives_the_pages_own_text(moment):
    for params in ({"model": "<script>x</script>"}, {"model": ""}, {}):
        card = preview.preview(moment, "", params)
        assert card.title == preview.APP_NAME and not card.model
        assert "models tested" in card.description


def test_each_page_says_what_it_shows(moment):
    for page, (name, what) in preview.PAGES.items():
        if not page:
            continue
        card = preview.preview(moment, page, {"model": "Qwen/Qwen3-0.6B"})  # only the Models page opens a model
        assert not card.model and card.description.startswith(what)
        assert card.title == (preview.APP_NAME if page == "" else f"{name} · {preview.APP_NAME}")


def test_the_first_rows_are_the_default_views(moment):
    first = preview.first_rows(moment)  # no stack named: each library's newest (transformers 5.0.0 has one model)
    result = first.result
    assert (
        list(first.frame["model_id"])
        == list(result.frame["model_id"].head(settings.FIRST_ROWS.value))
        == ["Qwen/Qwen3-0.6B"]
    )
    assert result.stack is None and result.stacks == (moment.snapshot.newest,) and first.state.sort == ""
