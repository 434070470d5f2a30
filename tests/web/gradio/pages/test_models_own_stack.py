"""The Models page opened from a link that names no stack, or a stack the data lacks: the panel answers on the
model's own stack (`Snapshot.model_stack`), and an unknown stack gets a notice naming it and the known ones."""

import pytest

from components.domain.stacks import library_name
from tests.helpers import page_opened


def value(update):
    return update["value"] if isinstance(update, dict) else update


@pytest.mark.parametrize(
    ("model", "library", "version"),
    [
        ("stabilityai/sd-turbo", "diffusers", "0.36.0"),
        ("BAAI/bge-small-en-v1.5", "sentence-transformers", "5.1.2"),
        ("Qwen/Qwen3-0.6B", "transformers", "5.0.0"),
    ],
)
def test_a_model_link_opens_the_models_own_stack(tab, model, library, version):
    answer = page_opened(tab, {"model": model})
    details = str(answer["details"]) + str(value(answer["facts"]))  # the head, and the stack table below the commands
    assert "PASS" in details and "not tested" not in details.lower(), model
    # the link names no stack: the pickers say "All libraries", the panel answers on the model's own stack
    assert (value(answer["library"]), value(answer["version"])) == ("", "")
    assert f"<code>{version}</code>" in details and library_name(library) in details
    assert answer["link"] == f"model={model.replace('/', '%2F')}"
    assert 'id="unknown-stack"' not in details


def test_an_unknown_stack_shows_the_models_own_answer_beside_a_notice(tab):
    answer = page_opened(tab, {"model": "stabilityai/sd-turbo", "neuronx_cc": "9.9.9"})
    details = str(answer["details"])
    assert 'id="unknown-stack"' in details and "9.9.9" in details and "Known stacks" in details
    assert "Shown instead: neuronx-cc 2.28.7631.0 · Diffusers 0.36.0" in details
    assert "PASS" in details and value(answer["library"]) == "diffusers"
    assert "9.9.9" not in answer["link"] and "library=diffusers" in answer["link"]  # the state applied
