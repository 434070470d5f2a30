"""Sessions without a copy of the page, and a constructor read once for the components updates make; Gradio's
own behaviour wherever either patch no longer fits."""

from __future__ import annotations

import inspect
from concurrent.futures import ThreadPoolExecutor

import anyio
import gradio as gr
import pytest
from gradio import component_meta, state_holder

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


def test_an_update_makes_the_sessions_own_block_and_its_config_waits_for_a_share_link(monkeypatch):
    monkeypatch.setattr(state_holder, "SessionState", sessions.ORIGINAL)
    assert apply_patch(fresh(sessions.PATCH))
    with gr.Blocks() as demo:
        picker = gr.Dropdown(choices=["a", "b"], value="a")
        demo.load(lambda: gr.update(choices=["x", "y"], value="y"), outputs=picker)
    holders = state_holder.StateHolder()
    holders.set_blocks(demo)
    session = holders["a-visitor"]
    load = next(iter(demo.fns.values()))
    with ThreadPoolExecutor(1) as thread:  # its own thread: Playwright's sync API may hold this one's loop
        answer = thread.submit(anyio.run, lambda: demo.process_api(load, [], state=session, request=None)).result()
    assert [list(c) for c in answer["data"][0]["choices"]] == [["x", "x"], ["y", "y"]]
    assert session[picker._id] is not picker and session[picker._id].choices == [("x", "x"), ("y", "y")]
    assert picker.choices == [("a", "a"), ("b", "b")]  # the page's own block is untouched
    assert session.config_values == {}  # no config built for the update
    shared = {c["id"]: c for c in session.components}  # built now, from the session's block
    assert [list(c) for c in shared[picker._id]["props"]["choices"]] == [["x", "x"], ["y", "y"]]


def test_a_state_keeps_its_value_and_time_to_live_in_a_lean_session():
    with gr.Blocks() as demo:
        kept = gr.State(time_to_live=30)
    session = sessions.LeanSessionState(demo)
    session[kept._id] = {"n": 1}
    assert session[kept._id] == {"n": 1} and session._state_ttl[kept._id][0] == 30


def test_a_gradio_whose_setitem_assigns_more_keeps_its_own(monkeypatch, stands_down):
    def __setitem__(self, key, value):
        self.state_data[key] = value
        self.something_else[key] = value

    monkeypatch.setattr(state_holder, "SessionState", sessions.ORIGINAL)
    monkeypatch.setattr(sessions.ORIGINAL, "__setitem__", __setitem__)
    assert "SessionState.__setitem__ now assigns" in stands_down(sessions.PATCH)
    assert state_holder.SessionState is sessions.ORIGINAL


# ---- ARGSPECS -------------------------------------------------------------------------------------------


@pytest.fixture
def pythons_inspect(monkeypatch):
    """component_meta as Gradio left it; put back after the test, whatever it did."""
    monkeypatch.setattr(component_meta, "inspect", inspect)


def test_argspecs_fits_this_gradio():
    sessions.ARGSPECS.check()


def test_a_constructor_is_read_once_and_components_come_out_the_same(pythons_inspect, monkeypatch):
    before = gr.Dropdown(choices=["a", "b"], value="b", label="Stack", render=False)
    assert apply_patch(fresh(sessions.ARGSPECS))
    assert isinstance(component_meta.inspect, sessions.MemoizedInspect)
    reads, real = [], inspect.getfullargspec
    monkeypatch.setattr(inspect, "getfullargspec", lambda fn: reads.append(fn) or real(fn))
    sessions.getfullargspec.cache_clear()
    made = [gr.Dropdown(choices=["a", "b"], value="b", label="Stack", render=False) for _ in range(5)]
    assert len(reads) == 2  # Dropdown's __init__ and Component's, once each for the five
    assert all(m.constructor_args == before.constructor_args and m.choices == before.choices for m in made)
    assert component_meta.inspect.signature is inspect.signature  # the rest of inspect is Python's


def test_what_it_remembers_cannot_be_changed_by_a_caller():
    def constructor(self, value, label=None, *, render=True):
        pass

    spec = sessions.getfullargspec(constructor)
    assert spec.args == ("self", "value", "label") and spec.kwonlyargs == ("render",)
    assert sessions.getfullargspec(constructor) is spec


def test_a_gradio_that_reads_more_of_inspect_keeps_its_own(pythons_inspect, monkeypatch, stands_down):
    def updateable(fn):
        def wrapper(*args, **kwargs):
            fn_args = inspect.getfullargspec(fn).args
            inspect.signature(fn).bind(*args, **kwargs)
            return fn(*args[: len(fn_args)], **kwargs)

        return wrapper

    monkeypatch.setattr(component_meta, "updateable", updateable)
    assert "reads more of inspect" in stands_down(sessions.ARGSPECS)
    assert component_meta.inspect is inspect


def test_a_gradio_that_no_longer_reads_argspecs_keeps_its_own(pythons_inspect, monkeypatch, stands_down):
    monkeypatch.setattr(component_meta, "updateable", lambda fn: fn)
    assert "no longer calls inspect.getfullargspec(fn).args" in stands_down(sessions.ARGSPECS)
