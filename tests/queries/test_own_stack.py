"""A model's own stack (`Snapshot.model_stack`) on every surface that answers for one model with no stack named:
`/lookup`, the badge, a link's state, title, description and card, the Models page's panel, and wanted. Every
model of the bundled sample, whatever its library, answers with its own run."""

from __future__ import annotations

from urllib.parse import parse_qsl

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
        # the link names no stack: the table covers every library, the model answers on its own stack
        assert (state.query.neuronx_cc, state.query.library_version) == ("", "")
        card = preview.preview(moment, "", {"model": model_id})
        assert (card.kind, card.stack) == (answer["kind"], stack.label), model_id
        assert f": {card.verdict} on Trainium" in card.title and card.verdict.startswith(KIND_LABELS[kind])
        assert (wanted.untested(bundled_sample, model_id) is None) == (result != NOT_TESTED_RESULT), model_id


def test_a_diffusers_failure_and_a_sentence_transformers_pass_in_words(bundled_sample):
    moment = served(bundled_sample).now()
    flux = preview.preview(moment, "", {"model": FLUX})
    assert flux.title.startswith(f"{FLUX}: FAIL on Trainium") and "Diffusers 0.36.0" in flux.description
    assert flux.query == "model=black-forest-labs%2FFLUX.1-schnell"  # no stack named: its own, as /lookup answers
    minilm = preview.preview(moment, "", {"model": MINILM})
    assert minilm.title.startswith(f"{MINILM}: PASS on Trainium") and "Sentence Transformers 5.1.2" in minilm.stack


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


def test_another_librarys_stack_says_where_the_model_ran_never_asks_for_a_test_nor_counts_0_of_0(bundled_sample):
    from components.web.html.evidence import evidence_html

    stack, _ = own_run(bundled_sample, "Qwen/Qwen3-8B")
    answer = details.lookup(bundled_sample, "Qwen/Qwen3-8B", "", "diffusers==0.36.0")
    assert (answer["result"], answer["library"]) == (NOT_TESTED_RESULT, "diffusers")
    own = answer["ran_with"]
    assert (own["library"], own["library_version"], own["result"]) == ("transformers", stack.library_version, "PASS")
    assert links.parse(dict(parse_qsl(own["link"])), bundled_sample).query.library_version == stack.spec
    assert "request_test" not in answer and answer["evidence"] == {"base_model": None, "architecture": None}
    assert (
        answer["expectation"]["basis"] == "library"
        and "run with Transformers, not Diffusers" in (answer["expectation"]["reason"])
    )
    html = str(evidence_html(answer))
    assert 'id="ran-with"' in html and "was run with Transformers, not" in html and "PASS" in html
    assert f'href="./?{own["link"].replace("&", "&amp;")}"' in html
    assert "Want it tested" not in html and "0 of 0" not in html and "with Diffusers 0.36.0" not in html
    # a Diffusers model on a Transformers stack, likewise
    flux = details.lookup(bundled_sample, FLUX, "", "5.0.0")
    assert flux["ran_with"]["library"] == "diffusers" and "request_test" not in flux
    # the model's own library on an older stack is a gap the evidence speaks to, as before
    older = details.lookup(bundled_sample, "Qwen/Qwen3-8B", "2.21.18209.0", "")
    assert "ran_with" not in older


def test_an_architecture_with_no_model_on_the_stack_is_said_in_words_not_0_of_0():
    from components.queries.run_request import evidence_lines
    from components.web.html.evidence import evidence_html

    answer = {"model_id": "a/b", "result": NOT_TESTED_RESULT, "kind": "not tested",
              "evidence": {"base_model": None, "architecture": {"name": "XForY", "tested": 0, "passed": 0}}}  # fmt: skip
    assert "Architecture XForY: no model of it was run on this stack." in evidence_lines(answer)
    html = str(evidence_html(answer))
    assert "no model of it was run on this stack" in html and "0 of 0" not in html


def test_an_untested_text_model_is_never_offered_a_test_with_a_library_that_does_not_generate_text(bundled_sample):
    from components.sources.records import parse_records

    records = parse_records([{"id": "new/text-model", "pipeline_tag": "text-generation"},
                             {"id": "new/image-model", "pipeline_tag": "text-to-image"}], "test")  # fmt: skip
    on_diffusers = details.lookup(bundled_sample, "new/text-model", "", "diffusers==0.36.0", records)
    assert on_diffusers["result"] == NOT_TESTED_RESULT and "request_test" not in on_diffusers
    assert "request_test" in details.lookup(bundled_sample, "new/text-model", "", "", records)  # its own: Transformers
    assert "request_test" in details.lookup(bundled_sample, "new/image-model", "", "diffusers==0.36.0", records)
