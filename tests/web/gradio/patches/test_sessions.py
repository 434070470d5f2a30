"""Sessions without a copy of the page; Gradio's own sessions wherever the patch no longer fits."""

from __future__ import annotations

import gradio as gr
from gradio import state_holder

from components.web.gradio.patches import sessions
from components.web.gradio.patches.guard import apply_patch
from tests.web.gradio.patches.conftest import fresh


def test_it_fits_this_gradio():
    sessions.PATCH.check()


def test_sessions_keep_no_copy_of_the_page_or_of_answers(monkeypatch):
    monkeypatch.setattr(state_holder, "SessionState", sessions.ORIGINAL)
    assert apply_patch(fresh(sessions.PATCH))
    with gr.Blocks() as demo:
        box = gr.Textbox("default")
        gr.Dataframe(headers=["a"])
    holders = state_holder.StateHolder()
    holders.set_blocks(demo)
    session = holders["a-plain-http-call"]
    assert isinstance(session, sessions.LeanSessionState) and session.config_values == {}
    session._update_value_in_config(box._id, [{"row": i} for i in range(10_000)])
    assert session.config_values == {}
    shared = list(session.components)  # Gradio's share-link route still gets every block's config
    assert {c["id"] for c in shared} >= {box._id} and len(shared) >= 2


def test_a_lean_session_sets_every_attribute_gradios_sets():
    with gr.Blocks() as demo:
        gr.Textbox()
    assert set(vars(sessions.LeanSessionState(demo))) >= set(vars(sessions.ORIGINAL(demo)))


def test_without_gradios_session_class_it_stands_down(monkeypatch, stands_down):
    monkeypatch.delattr(state_holder, "SessionState")
    assert stands_down(sessions.PATCH) == "patch sessions stands down: gradio.state_holder.SessionState is missing"
    assert not hasattr(state_holder, "SessionState")


def test_a_gradio_whose_sessions_hold_more_keeps_its_own(monkeypatch, stands_down):
    init = sessions.ORIGINAL.__init__

    def __init__(self, blocks):
        init(self, blocks)
        self.something_new = {}

    monkeypatch.setattr(state_holder, "SessionState", sessions.ORIGINAL)
    monkeypatch.setattr(sessions.ORIGINAL, "__init__", __init__)
    assert "now also sets something_new" in stands_down(sessions.PATCH)
    assert state_holder.SessionState is sessions.ORIGINAL
