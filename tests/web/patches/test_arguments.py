"""Too few values: a clear error naming what is missing; Gradio's own check wherever the patch no longer fits.
(The argument types of the endpoints: tests/hardening/test_limits.py.)"""

from __future__ import annotations

import gradio as gr
import pytest

from components.web.patches import arguments
from components.web.patches.guard import apply_patch
from tests.web.patches.conftest import fresh


def search(query: str, view: str, task: str) -> str:
    return query


@pytest.fixture
def demo():
    with gr.Blocks() as demo:
        boxes = [gr.Textbox() for _ in range(3)]
        gr.Button().click(search, boxes, boxes[0], api_name="search")
    return demo


def test_it_fits_this_gradio():
    arguments.PATCH.check()


def test_a_call_with_too_few_values_names_the_missing_arguments(monkeypatch, demo):
    monkeypatch.setattr(gr.Blocks, "validate_inputs", gr.Blocks.validate_inputs)  # put back afterwards
    assert apply_patch(fresh(arguments.PATCH))
    with pytest.raises(gr.Error) as error:
        demo.validate_inputs(demo.fns[0], ["qwen"])
    assert error.value.message == "search: 3 arguments wanted, 1 given; missing: view, task"
    demo.validate_inputs(demo.fns[0], ["qwen", "all", ""])  # enough: Gradio's own check passes it


def test_without_the_method_it_stands_down(monkeypatch, stands_down):
    monkeypatch.delattr(gr.Blocks, "validate_inputs")
    assert "Blocks.validate_inputs is missing" in stands_down(arguments.PATCH)
    assert not hasattr(gr.Blocks, "validate_inputs")


def test_a_gradio_that_no_longer_calls_it_keeps_its_own(monkeypatch, stands_down):
    async def preprocess_data(self, block_fn, inputs, state, explicit_call=False):
        return inputs

    monkeypatch.setattr(gr.Blocks, "preprocess_data", preprocess_data)
    gradios = gr.Blocks.validate_inputs
    assert "no longer calls validate_inputs" in stands_down(arguments.PATCH)
    assert gr.Blocks.validate_inputs is gradios
