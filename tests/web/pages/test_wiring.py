"""Handlers meet components by name: Gradio's `inputs_kwargs` in, `{component: value}` out."""

import inspect
from types import SimpleNamespace

import gradio as gr
import pytest
from gradio import utils

from components.web.pages.wiring import answering, by_name, components


def handler(evt: gr.SelectData, **values) -> dict:
    return {"summary": f"{values['search']}:{evt}"}


def test_an_answer_by_name_reaches_the_components_and_gradio_still_sees_the_handlers_signature():
    owner = SimpleNamespace(summary=object(), search=object())
    event = answering(owner, handler)
    assert event("cell", search="qwen") == {owner.summary: "qwen:cell"}
    # Gradio injects the selected cell by the parameter's type, and passes the named inputs as keywords
    assert list(inspect.signature(event).parameters) == ["evt", "values"]
    assert utils.get_type_hints(event)["evt"] is gr.SelectData
    assert by_name(owner, ["search"]) == {"search": owner.search}
    assert components(owner, ["summary", "search"]) == [owner.summary, owner.search]


def test_gradio_refuses_an_answer_for_a_component_its_event_does_not_list():
    from gradio.blocks import convert_component_dict_to_list

    with gr.Blocks():
        owner = SimpleNamespace(box=gr.Textbox(), other=gr.Textbox())
    answer = answering(owner, lambda: {"other": "x"})()
    with pytest.raises(ValueError, match="not specified as output"):
        convert_component_dict_to_list([owner.box], answer)
    assert convert_component_dict_to_list([owner.box, owner.other], answer)[1] == "x"
