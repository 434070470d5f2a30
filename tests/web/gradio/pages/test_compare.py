"""The Compare page's handlers: on opening it picks the default pair (or keeps a choice still in the data) and
draws their comparison; a change of picker redraws it."""

from __future__ import annotations

from components.queries import compare
from components.web.gradio.pages.compare import ComparePage
from components.web.html.comparison import comparison_html
from tests.helpers import NEW_CC, served


def test_opening_picks_the_default_pair_and_draws_it(libraries):
    snapshot, _ = libraries
    page = ComparePage(served(snapshot))
    answer = page.on_open()
    a, b = compare.default_stacks(snapshot)
    assert a is not None and b is not None and a.ref != b.ref
    assert (answer["stack_a"]["value"], answer["stack_b"]["value"]) == (a.picker_value, b.picker_value)
    assert answer["stack_a"]["choices"] == answer["stack_b"]["choices"] and len(answer["stack_a"]["choices"]) > 2
    assert answer["result"] == comparison_html(compare.compare(snapshot, a, b), a, b)


def test_a_picker_change_redraws_with_the_stacks_picked(libraries):
    snapshot, _ = libraries
    page = ComparePage(served(snapshot))
    transformers = snapshot.resolve_stack(NEW_CC, "5.0.0")
    diffusers = snapshot.resolve_stack(NEW_CC, "diffusers==0.36.0")
    answer = page.on_change(transformers.picker_value, diffusers.picker_value)
    assert answer == {
        "result": comparison_html(compare.compare(snapshot, transformers, diffusers), transformers, diffusers)
    }
    assert "same stack" in page.on_change(diffusers.picker_value, diffusers.picker_value)["result"]


def test_a_link_naming_both_stacks_opens_them_and_an_unknown_one_falls_back(libraries):
    """The Grid's regressed rows link Compare with /compare's own arguments (`neuronx_cc_a`, `library_version_a`, …)."""
    from types import SimpleNamespace

    from tests.helpers import OLD_CC

    snapshot, _ = libraries
    page = ComparePage(served(snapshot))
    old, new = snapshot.resolve_stack(OLD_CC, "4.50.0"), snapshot.resolve_stack(NEW_CC, "5.0.0")
    params = {"neuronx_cc_a": OLD_CC.split("+")[0], "library_version_a": "4.50.0", "neuronx_cc_b": NEW_CC,
              "library_version_b": "5.0.0"}  # fmt: skip
    answer = page.on_open(request=SimpleNamespace(query_params=params))
    assert (answer["stack_a"]["value"], answer["stack_b"]["value"]) == (old.picker_value, new.picker_value)
    assert answer["result"] == comparison_html(compare.compare(snapshot, old, new), old, new)
    a, b = compare.default_stacks(snapshot)
    unknown = page.on_open(request=SimpleNamespace(query_params={"neuronx_cc_a": "9.9.9", "library_version_a": "<b>"}))
    assert (unknown["stack_a"]["value"], unknown["stack_b"]["value"]) == (a.picker_value, b.picker_value)
