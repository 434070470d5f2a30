"""Gradio settings applied at launch: bounded sessions, rare analytics, no repeated import probes."""

from __future__ import annotations

import os
import sys

import pytest

from components.web.patches import serving


@pytest.fixture
def clean(monkeypatch):
    monkeypatch.delenv("GRADIO_ANALYTICS_CACHE_FREQUENCY", raising=False)
    monkeypatch.setattr(serving, "PROBED", ("surely_not_installed_module",))
    yield monkeypatch
    sys.modules.pop("surely_not_installed_module", None)


def test_launch_arguments_bound_the_sessions(clean):
    assert serving.tune_gradio() == {"state_session_capacity": serving.SESSION_CAPACITY}


def test_analytics_are_summarised_rarely_unless_set(clean):
    serving.tune_gradio()
    assert os.environ["GRADIO_ANALYTICS_CACHE_FREQUENCY"] == str(serving.ANALYTICS_EVERY)
    clean.setenv("GRADIO_ANALYTICS_CACHE_FREQUENCY", "7")
    serving.tune_gradio()
    assert os.environ["GRADIO_ANALYTICS_CACHE_FREQUENCY"] == "7"  # a deployment's own choice wins


def test_a_missing_optional_library_fails_to_import_at_once(clean):
    serving.tune_gradio()
    with pytest.raises(ImportError):
        import surely_not_installed_module  # noqa: F401


def test_an_installed_library_is_left_alone(clean):
    clean.setattr(serving, "PROBED", ("json",))
    serving.tune_gradio()
    import json

    assert json.dumps([1]) == "[1]"


def test_sessions_keep_no_copy_of_the_page_or_of_answers(clean):
    import gradio as gr
    from gradio import state_holder

    serving.tune_gradio()
    with gr.Blocks() as demo:
        box = gr.Textbox("default")
        gr.Dataframe(headers=["a"])
    holders = state_holder.StateHolder()
    holders.set_blocks(demo)
    session = holders["a-plain-http-call"]
    assert isinstance(session, serving.LeanSessionState) and session.config_values == {}
    session._update_value_in_config(box._id, [{"row": i} for i in range(10_000)])
    assert session.config_values == {}
    shared = list(session.components)  # Gradio's share-link route still gets every block's config
    assert {c["id"] for c in shared} >= {box._id} and len(shared) >= 2
