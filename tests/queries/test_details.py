import json

from components.queries import details
from components.queries.details import cache_sync_command, history, install_command, lookup
from tests.helpers import NEW_CC, OLD_CC


def test_lookup_gives_the_row_commands_and_history(world):
    snap, _ = world
    answer = lookup(snap, "qwen/qwen3-0.6b", NEW_CC, "4.57.1")
    assert answer["model_id"] == "Qwen/Qwen3-0.6B" and answer["result"] == "PASS"
    assert answer["cache_sync_command"] == (
        f"hf buckets sync hf://buckets/aws-neuron/torch-neuronx-neff-cache/neuronxcc-{NEW_CC} /tmp/neff_cache"
    )
    assert f"neuronx-cc=={NEW_CC}" in answer["install_command"]
    assert "transformers==4.57.1" in answer["install_command"]
    assert answer["run_py"].startswith("# run Qwen/Qwen3-0.6B")
    assert answer["tested_at"].startswith("2025-11-24T") and answer["tested_at"].endswith("+00:00")
    json.dumps(answer)  # plain JSON all the way down


def test_within_shared_a_tested_models_answer_is_made_once_and_each_caller_gets_its_own(world, monkeypatch):
    snap, _ = world
    made = []
    tested = details._tested
    monkeypatch.setattr(details, "_tested", lambda *a: made.append(a[1]) or tested(*a))
    with details.shared():
        first = lookup(snap, "Qwen/Qwen3-0.6B", NEW_CC, "4.57.1")
        first["result"] = "changed by its caller"
        second = lookup(snap, "qwen/qwen3-0.6b", NEW_CC, "4.57.1", record_unknown="not on the Hub")
        other_stack = lookup(snap, "Qwen/Qwen3-0.6B")
    assert made == ["Qwen/Qwen3-0.6B", "Qwen/Qwen3-0.6B"]  # once per stack
    assert second == lookup(snap, "Qwen/Qwen3-0.6B", NEW_CC, "4.57.1") and second["result"] == "PASS"
    assert other_stack["library_version"] == "5.0.0"
    lookup(snap, "Qwen/Qwen3-0.6B", NEW_CC, "4.57.1")
    assert len(made) == 4  # outside the block: made at each call, as before
    with details.shared():  # an untested model's answer still says why its record is unknown
        assert lookup(snap, "nobody/nothing", record_unknown="not on the Hub")["record_unknown"] == "not on the Hub"


def test_lookup_defaults_to_the_newest_stack(world):
    snap, _ = world
    assert lookup(snap, "Qwen/Qwen3-0.6B")["library_version"] == "5.0.0"


def test_cache_command_follows_the_row_compiler(world):
    snap, _ = world
    old = lookup(snap, "Qwen/Qwen3-0.6B", OLD_CC, "4.50.0")
    assert old["cache_sync_command"].endswith(f"neuronxcc-{OLD_CC} /tmp/neff_cache")
    assert old["result"] == "FAIL" and old["error"] == "boom"


def test_unknown_model_is_not_tested_not_an_error(world):
    snap, _ = world
    answer = lookup(snap, "nobody/nothing")
    assert {k: answer[k] for k in ("model_id", "result", "kind")} == {
        "model_id": "nobody/nothing",
        "result": "not tested",
        "kind": "not tested",
    }
    assert answer["evidence"] == {"base_model": None, "architecture": None}  # no record: nothing to go on
    assert "suggested_run_py" not in answer and "cache_sync_command" not in answer


def test_model_known_elsewhere_but_not_on_the_stack_says_not_tested_with_history(world):
    snap, _ = world
    answer = lookup(snap, "google/gemma-3-4b-it", NEW_CC, "5.0.0")
    assert answer["result"] == "not tested" and answer["library_version"] == "5.0.0"
    assert [h["library_version"] for h in answer["history"]] == ["4.57.1"]


def test_history_is_newest_first_and_marks_last_pass_and_first_failure(world):
    snap, _ = world
    entries = history(snap, "meta-llama/Llama-3.1-8B-Instruct")
    assert [(e["neuronx_cc"], e["result"]) for e in entries] == [(NEW_CC, "FAIL"), (OLD_CC, "PASS")]
    assert entries[1]["last_pass"] and entries[0]["first_fail_after_pass"]
    qwen = history(snap, "Qwen/Qwen3-0.6B")
    assert [e["library_version"] for e in qwen] == ["5.0.0", "4.57.1", "4.50.0"]
    assert qwen[0]["last_pass"] and not any(e["first_fail_after_pass"] for e in qwen)


def test_commands_quote_hostile_versions():
    cmd = cache_sync_command("2.1; rm -rf ~")
    assert (
        cmd
        == "hf buckets sync 'hf://buckets/aws-neuron/torch-neuronx-neff-cache/neuronxcc-2.1; rm -rf ~' /tmp/neff_cache"
    )
    assert "'torch==2.9 && curl evil'" in install_command({"torch": "2.9 && curl evil"})
    assert install_command({}) == ""


def test_the_install_line_pins_the_stacks_library(libraries, caplog):
    snap, _ = libraries
    diffusers = lookup(snap, "stabilityai/sd-turbo", library_version="diffusers==0.36.0")
    assert (
        diffusers["install_command"].endswith(" diffusers==0.36.0") and "neuronx-cc==" in diffusers["install_command"]
    )
    encoder = lookup(snap, "BAAI/bge-small-en-v1.5", library_version="sentence-transformers==5.1.2")
    assert encoder["install_command"].endswith(" sentence-transformers==5.1.2") and encoder["tp"] == 1
    with caplog.at_level("WARNING", logger="components.queries.details"):
        line = install_command({"library": "timm", "library_version": "1.0.0", "neuronx_cc": "2.28"})
        install_command({"library": "timm", "library_version": "1.0.1", "neuronx_cc": "2.28"})
        odd = install_command({"library": "not a;package", "library_version": "1", "neuronx_cc": "2.28"})
    assert line.endswith(" timm==1.0.0") and "package" not in odd and odd.endswith(" neuronx-cc==2.28")
    assert caplog.text.count("'timm' has no known install recipe") == 1  # said once, not per row
