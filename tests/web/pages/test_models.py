"""The Models tab's handlers: inputs and answers by name, the filters as one value, the pickers."""

from types import SimpleNamespace

import pytest

from components.web.pages.filters import Filters
from components.web.pages.models import PANEL, TABLE, ModelsTab
from tests.helpers import NEW_CC, OLD_CC, served


@pytest.fixture
def tab(libraries):
    snapshot, rankings = libraries
    return ModelsTab(served(snapshot, rankings))


def value(update):
    return update["value"] if isinstance(update, dict) else update


def test_the_filters_name_a_library_and_its_version():
    assert Filters(library="transformers", version="4.57.1").library_version == "4.57.1"
    assert Filters(library="diffusers", version="0.36.0").library_version == "diffusers==0.36.0"
    assert Filters(version="4.57.1").library_version == "4.57.1"
    query = Filters.of({"search": " qwen ", "view": "TRENDING", "cc": NEW_CC}).query()
    assert (query.text, query.view, query.neuronx_cc) == ("qwen", "trending", NEW_CC)


def test_a_deep_link_to_a_library_sets_all_three_pickers(tab):
    answer = tab.on_load(SimpleNamespace(query_params={"library": "diffusers"}))
    assert value(answer["library"]) == "diffusers" and value(answer["version"]) == "0.36.0"
    assert value(answer["cc"]) == NEW_CC
    assert [v for _, v in answer["library"]["choices"]] == ["transformers", "diffusers", "sentence-transformers"]
    assert answer["shown"] == ["stabilityai/sd-turbo"] and "library=diffusers" in answer["link"]


def test_another_library_takes_its_newest_version_and_the_open_model_follows(tab):
    base = {"view": "selected", "cc": NEW_CC, "library": "sentence-transformers", "version": "5.0.0"}
    answer = tab.on_library(**base, model="BAAI/bge-small-en-v1.5")
    assert value(answer["version"]) == "5.1.2"  # 5.0.0 is a Transformers version
    assert answer["shown"] == ["BAAI/bge-small-en-v1.5"]
    assert value(answer["install"]).endswith("sentence-transformers==5.1.2")
    assert "Trainium cores:</b> 1" in str(answer["details"])  # from the neuron_cores column


def test_a_compiler_without_the_library_falls_back_to_its_first_stack(tab):
    answer = tab.on_stack(view="selected", cc=OLD_CC, library="diffusers", version="0.36.0")
    assert (value(answer["library"]), value(answer["version"])) == ("transformers", "4.50.0")
    assert "transformers=4.50.0" in answer["link"] and answer["shown"] == ["Qwen/Qwen3-0.6B"]


def test_before_a_model_is_opened_the_details_hold_a_guide_not_empty_boxes(tab):
    answer = tab.on_load(None)
    assert "Open a model" in str(answer["details"])
    assert all(answer[name]["visible"] is False for name in ("install", "cache_sync", "run_py", "run_command"))
    opened = tab.on_load(SimpleNamespace(query_params={"model": "Qwen/Qwen3-0.6B"}))
    assert "Open a model" not in str(opened["details"]) and value(opened["run_py"]).startswith("# run Qwen/Qwen3-0.6B")
    assert set(opened) >= set(TABLE) | set(PANEL)


def test_columns_the_app_does_not_know_are_shown_as_other_fields(tab):
    answer = tab.on_stack(
        view="selected", cc=NEW_CC, library="diffusers", version="0.36.0", model="stabilityai/sd-turbo"
    )
    details = str(answer["details"])
    assert "Other fields" in details and '<th scope="row">diffusers</th><td>0.36.0</td>' in details


def test_a_compared_model_opens_on_its_own_librarys_stack(libraries):
    from components.web.pages.compare import CompareTab

    snapshot, _ = libraries
    transformers = snapshot.resolve_stack(NEW_CC, "5.0.0")
    diffusers = snapshot.resolve_stack(NEW_CC, "diffusers==0.36.0")
    html = str(CompareTab.render(snapshot, transformers, diffusers))
    added = html.split('id="compare-added"')[1].split("</section>")[0]
    assert "stabilityai/sd-turbo" in added and "library=diffusers&amp;library_version=0.36.0" in added


def test_a_size_link_sets_the_picker_says_what_was_left_out_and_keeps_its_own_range(world):
    from components.sources.records import parse_records
    from components.sources.records_store import RecordsStore

    snapshot, rankings = world
    records = parse_records([{"id": "Qwen/Qwen3-0.6B", "safetensors": {"total": 751_632_384}}], "test")
    store = RecordsStore(records, live=False)
    store.begin()
    tab = ModelsTab(served(snapshot, rankings, store))
    answer = tab.on_load(SimpleNamespace(query_params={"size": "-1", "transformers": "4.57.1"}))
    assert value(answer["size"]) == "-1" and answer["shown"] == ["Qwen/Qwen3-0.6B"]
    assert "size=-1" in answer["link"]
    assert "3 models of unknown size left out" in str(answer["summary"])
    assert "&#39;Qwen/Qwen3-0.6B&#39;" in str(answer["snippets"]) and "union_by_name" in str(answer["snippets"])
    custom = tab.on_load(SimpleNamespace(query_params={"size": "0.5-0.8"}))
    assert ("0.5–0.8 B", "0.5-0.8") in custom["size"]["choices"] and value(custom["size"]) == "0.5-0.8"
    assert value(tab.on_load(None)["size"]) == ""  # no size picked: every model, unknown sizes too


def test_a_pasted_config_is_checked_and_broken_text_says_why(tab):
    config = (
        '{"architectures": ["<b>Evil</b>ForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,'
        ' "num_attention_heads": 4}'
    )
    answer = tab.on_config(config_json=config, cc=NEW_CC, library="transformers", version="4.57.1")
    html = str(answer["config_answer"])
    assert "estimate" in html and "Unknown" in html and "<b>Evil" not in html  # an id is data
    assert "config-run-py" not in html  # no passing script of that architecture to adapt
    broken = tab.on_config(config_json="[1, 2]", cc=NEW_CC, library="transformers", version="4.57.1")
    assert "JSON list" in str(broken["config_answer"])


def test_the_cache_command_comes_with_what_it_needs_to_work_as_pasted(tab):
    from components.queries.details import CACHE_SYNC_NOTES

    opened = tab.on_load(SimpleNamespace(query_params={"model": "Qwen/Qwen3-0.6B"}))
    assert value(opened["cache_sync"]).startswith("hf buckets sync ")
    info = opened["cache_sync"]["info"]
    assert all(note in info for note in CACHE_SYNC_NOTES)
    assert 'pip install -U "huggingface_hub>=1.5"' in info and "--dry-run" in info
    assert "TORCH_NEURONX_NEFF_CACHE_DIR" in info
