"""A model's own stack (`Snapshot.model_stack`) on every surface that answers for one model with no stack named:
`/lookup`, the badge, a link's state, title, description and card, the Models page's panel, and wanted. Every
model of the bundled sample, whatever its library, answers with its own run."""

from __future__ import annotations

from components.domain.results import KIND_LABELS, NOT_TESTED_RESULT, result_kind
from components.domain.stacks import StackRef
from components.queries import badge, details, links, preview, wanted
from components.sources.snapshot import Snapshot, Stack
from tests.helpers import served

FLUX = "black-forest-labs/FLUX.1-schnell"
MINILM = "sentence-transformers/all-MiniLM-L6-v2"


def own_run(snapshot: Snapshot, model_id: str) -> tuple[Stack, str]:
    """(stack, result) the model answers with, worked out here from its rows: the newest stack of the library
    of its newest run, and its result there ("not tested" without one)."""
    rank = {s.ref: i for i, s in enumerate(snapshot.stacks)}
    rows = snapshot.rows.iloc[snapshot.model_positions(model_id)]
    newest = min(rows.to_dict("records"), key=lambda r: rank[StackRef.of(r)])
    stack = next(s for s in snapshot.stacks if s.library == newest["library"])
    position = snapshot.row_for(model_id, stack)
    return stack, str(snapshot.rows["result"].iat[position]) if position is not None else NOT_TESTED_RESULT


def test_the_sample_has_a_model_of_each_library_with_its_expected_run(bundled_sample):
    assert {s.library for s in bundled_sample.stacks} == {"transformers", "diffusers", "sentence-transformers"}
    assert [(s.library, r) for s, r in (own_run(bundled_sample, FLUX), own_run(bundled_sample, MINILM))] == [
        ("diffusers", "FAIL"),
        ("sentence-transformers", "PASS"),
    ]
    assert bundled_sample.model_stack("nobody/never-ran") == bundled_sample.newest == bundled_sample.model_stack(None)


def test_every_sample_model_answers_with_its_own_run_on_every_surface(bundled_sample):
    moment = served(bundled_sample).now()
    for model_id in bundled_sample.model_ids:
        stack, result = own_run(bundled_sample, model_id)
        kind = result_kind(result, None) if result != NOT_TESTED_RESULT else "not tested"
        answer = details.lookup(bundled_sample, model_id)
        assert (StackRef.of(answer), answer["result"]) == (stack.ref, result), model_id
        if kind in ("pass", "fail"):
            assert badge.badge(bundled_sample, model_id)["message"].startswith(KIND_LABELS[kind]), model_id
        state = links.opened({"model": model_id}, bundled_sample, moment.rankings, moment.records)
        assert state.model == model_id and not state.unknown_stack
        assert (state.query.neuronx_cc, state.query.library_version) == (stack.neuronx_cc, stack.spec)
        card = preview.preview(moment, "", {"model": model_id})
        assert (card.kind, card.stack) == (answer["kind"], stack.label), model_id
        assert f": {card.verdict} on Trainium" in card.title and card.verdict.startswith(KIND_LABELS[kind])
        assert (wanted.untested(bundled_sample, model_id) is None) == (result != NOT_TESTED_RESULT), model_id


def test_a_diffusers_failure_and_a_sentence_transformers_pass_in_words(bundled_sample):
    moment = served(bundled_sample).now()
    flux = preview.preview(moment, "", {"model": FLUX})
    assert flux.title.startswith(f"{FLUX}: FAIL on Trainium") and "diffusers 0.36.0" in flux.description
    assert "library=diffusers" in flux.query
    minilm = preview.preview(moment, "", {"model": MINILM})
    assert minilm.title.startswith(f"{MINILM}: PASS on Trainium") and "sentence-transformers 5.1.2" in minilm.stack


def test_a_named_stack_is_answered_for_and_an_unknown_one_opens_the_models_own(bundled_sample):
    moment = served(bundled_sample).now()
    on_transformers = details.lookup(bundled_sample, FLUX, "", "4.57.1")
    assert on_transformers["result"] == NOT_TESTED_RESULT and on_transformers["library"] == "transformers"
    state = links.opened({"model": FLUX, "neuronx_cc": "9.9.9"}, bundled_sample, moment.rankings, moment.records)
    assert "9.9.9" in state.unknown_stack and "Known stacks" in state.unknown_stack
    assert state.query.library_version == "diffusers==0.36.0"  # the state applied, as the address bar shows it
    assert "library=diffusers" in links.build(state) and "9.9.9" not in links.build(state)
    card = preview.preview(moment, "", {"model": FLUX, "neuronx_cc": "9.9.9"})
    assert card.verdict == "FAIL" and "9.9.9" in card.unknown_stack
    no_model = links.opened({"neuronx_cc": "9.9.9"}, bundled_sample, moment.rankings, moment.records)
    assert "9.9.9" in no_model.unknown_stack and no_model.query.library_version == bundled_sample.newest.spec
