"""Handlers meet components by name: Gradio's `inputs_kwargs` in, `{component: value}` out."""

import inspect
from types import SimpleNamespace

import gradio as gr
import pytest
from gradio import utils

from components.web.gradio.pages.wiring import answering, by_name, components


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


def test_every_page_event_that_reads_a_box_reads_it_as_text_not_against_the_sessions_choices(world):
    """A picker checked against the choices Gradio kept for the session fails for a tab whose session was
    dropped, and for Gradio's second dispatch of one pick (test_models.py shows both)."""
    import app
    from tests.helpers import served

    demo = app.build(served(*world))
    reading = [fn for fn in demo.fns.values() if fn.inputs and fn.fn is not None]
    assert {"on_stack", "on_select", "on_change", "on_open", "on_config"} <= {fn.name for fn in reading}
    assert [fn.name for fn in reading if fn.preprocess] == []


def test_a_number_list_or_object_in_place_of_text_reaches_the_handler_as_none():
    owner = SimpleNamespace(summary=object())
    event = answering(owner, lambda evt, **values: {"summary": (evt, values)})
    answer = event("cell", search=["x"], view={"a": 1}, cc=7, size=1.5, more=True, text="qwen", empty=None)
    assert answer[owner.summary] == ("cell", dict.fromkeys(["search", "view", "cc", "size", "more"]) | {
        "text": "qwen", "empty": None})  # fmt: skip
