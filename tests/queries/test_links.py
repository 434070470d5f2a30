import re
from urllib.parse import parse_qs

from components.queries.links import PageState, build, parse
from components.queries.views import Query
from tests.helpers import NEW_CC, OLD_CC


def test_a_link_opens_its_state(world):
    snap, _ = world
    state = parse({"model": "qwen/QWEN3-0.6b", "neuronx_cc": OLD_CC, "transformers": "4.50.0",
                   "view": "trending", "task": "text-generation", "q": "qwen"}, snap)  # fmt: skip
    assert state.model == "Qwen/Qwen3-0.6B"
    assert state.query == Query("qwen", "trending", "text-generation", OLD_CC, "4.50.0")


def test_missing_unknown_and_hostile_values_fall_back_to_defaults(world):
    snap, _ = world
    hostile = "<script>alert(1)</script>" * 1000
    state = parse({"model": hostile, "neuronx_cc": hostile, "transformers": "../../etc/passwd", "view": hostile,
                   "task": "javascript:alert(1)", "q": hostile, "unknown": "x"}, snap)  # fmt: skip
    assert state.model == ""
    assert state.query.view == "selected" and state.query.task == ""
    assert (state.query.neuronx_cc, state.query.library_version) == (NEW_CC, "5.0.0")
    assert len(state.query.text) <= 200
    assert parse({}, snap).query == Query("", "selected", "", "", "")  # no stack named: every library


def test_build_and_parse_round_trip(world):
    snap, _ = world
    state = PageState(Query("qwen 0.6b", "downloads", "text-generation", OLD_CC, "4.50.0"), "Qwen/Qwen3-0.6B")
    link = build(state)
    params = {k: v[0] for k, v in parse_qs(link).items()}
    assert parse(params, snap) == state
    assert "view" not in build(PageState(Query(), ""))  # defaults are left out


def test_a_model_not_in_the_data_is_kept_to_be_answered_not_tested(world):
    snap, _ = world
    assert parse({"model": " does/not-exist "}, snap).model == "does/not-exist"
    for bad in ("<b>x</b>", "a/b/c", "../../etc/passwd", "x" * 300):
        assert parse({"model": bad}, snap).model == "", bad


def test_tasks_on_offer_and_untested_models(world):
    snap, _ = world
    assert parse({"task": "text-to-image"}, snap, ["text-generation", "text-to-image"]).query.task == "text-to-image"
    assert parse({"task": "fill-mask"}, snap, ["text-generation"]).query.task == ""
    assert parse({"model": "someone/Fine-Tune-7B"}, snap).model == "someone/Fine-Tune-7B"  # a Hub id, untested
    assert parse({"model": "not a/hub/id"}, snap).model == ""


def test_a_library_deep_link_opens_that_library(libraries):
    snap, _ = libraries
    assert parse({"library": "diffusers"}, snap).query.library_version == "diffusers==0.36.0"  # its newest version
    state = parse({"library": "sentence-transformers", "library_version": "5.1.2"}, snap)
    assert state.query.library_version == "sentence-transformers==5.1.2"
    link = parse_qs(build(state))
    assert link["library"] == ["sentence-transformers"] and link["library_version"] == ["5.1.2"]
    assert "transformers" not in link  # the Transformers key is for Transformers versions
    assert parse(link and {k: v[0] for k, v in link.items()}, snap) == state  # round trip
    assert parse_qs(build(parse({"transformers": "4.57.1"}, snap)))["transformers"] == ["4.57.1"]
    # an unknown library falls back to the compiler's first stack, as any unknown value does
    assert parse({"library": "timm"}, snap).query.library_version == "5.0.0"


def test_a_size_link_opens_its_range_and_a_broken_one_falls_back_to_any_size(world):
    snap, _ = world
    assert parse({"size": "1-10"}, snap).query.size == "1-10"
    assert parse({"size": "100-"}, snap).query.size == "100-"
    assert parse({"size": " 0.5 - 7.0 "}, snap).query.size == "0.5-7"  # shown as applied
    for bad in ("10-1", "-", "abc", "1-10-100", "<b>1</b>-2", "1e9-"):
        assert parse({"size": bad}, snap).query.size == "", bad
    state = parse({"size": "10-100", "q": "qwen"}, snap)
    assert "size=10-100" in build(state)
    assert parse({k: v[0] for k, v in parse_qs(build(state)).items()}, snap) == state


def test_the_open_model_is_read_from_the_pages_link_in_any_of_its_forms():
    from components.queries.links import model_of

    link = build(PageState(Query(neuronx_cc=NEW_CC), "Qwen/Qwen3-0.6B"))
    for form in (link, "?" + link, "https://owner-app.hf.space/?" + link):
        assert model_of(form) == "Qwen/Qwen3-0.6B"
    assert model_of("") == "" and model_of("?view=trending") == ""
    assert len(model_of("model=" + "a" * 5000)) == 200  # read only so far


def test_a_model_asked_for_is_read_as_a_link_reads_it(world):
    from components.queries.links import model_in_data

    snap, _ = world
    assert model_in_data(snap, "qwen/QWEN3-0.6b") == "Qwen/Qwen3-0.6B"  # its id in the data
    assert model_in_data(snap, "evil/<img src=x onerror=alert(1)>") == "evil/<img src=x onerror=alert(1)>"
    assert model_in_data(snap, "someone/untested-7b") == "someone/untested-7b"  # not tested: still a model
    assert model_in_data(snap, "<b>x</b>") == "" and model_in_data(snap, "") == ""


def test_link_params_names_every_parameter_a_link_carries_or_is_read_by():
    """The first response asks Gradio once for all links that differ only in these (`LINK_PARAMS`): a name
    `build` writes, or the parser reads, that is missing from it would make every such link its own key."""
    import inspect

    from components.domain.stacks import StackRef
    from components.queries import links

    written = set()
    for library_version in ("4.50.0", "diffusers==0.36.0"):
        state = PageState(
            Query("q", "downloads", "text-generation", OLD_CC, library_version, "1-8"), "org/m", sort="-cores"
        )
        written |= set(parse_qs(build(state)))
    assert written <= set(links.LINK_PARAMS) and {"model", "q", "view", "task", "size", "sort"} <= written
    source = inspect.getsource(StackRef.from_params) + inspect.getsource(links.parse)
    read = set(re.findall(r'get\("(\w+)"\)', source))
    assert read and read <= set(links.LINK_PARAMS)


def test_a_hub_address_in_model_opens_that_model(world):
    snap, _ = world
    for address in ("https://huggingface.co/qwen/qwen3-0.6b/tree/main", "hf.co/Qwen/Qwen3-0.6B?x#y"):
        assert parse({"model": address}, snap).model == "Qwen/Qwen3-0.6B"
    assert parse({"model": "https://huggingface.co/not/tested"}, snap).model == "not/tested"
    assert parse({"model": "https://huggingface.co/spaces/a/b"}, snap).model == ""
