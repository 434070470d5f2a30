"""The page's server app built once, not once per `with` block; Gradio's own way where the patch no longer fits."""

from __future__ import annotations

import gradio as gr
import pytest
from gradio import blocks, routes

from components.web.gradio.patches import build_once


@pytest.fixture
def builds(monkeypatch):
    """How many server apps Gradio builds, and for which Blocks."""
    made: list[gr.Blocks] = []
    real = routes.App.create_app

    def counting(block, *args, **kwargs):
        made.append(block)
        return real(block, *args, **kwargs)

    monkeypatch.setattr(routes.App, "create_app", staticmethod(counting))
    return made


def lay_out() -> gr.Blocks:
    """A page as app.py lays one out: its own block, then pages added with `demo.route()`."""
    with gr.Blocks() as demo:
        box = gr.Textbox(label="Search")
        demo.load(lambda: "x", None, box)
    for name in ("One", "Two", "Three"):
        with demo.route(name, f"/{name.lower()}"):
            gr.Markdown(name)
    return demo


def test_it_fits_this_gradio():
    build_once.PATCH.check()


def test_gradio_alone_builds_an_app_per_block(builds):
    demo = lay_out()
    assert len(builds) >= 4 and all(b is demo for b in builds)  # what the patch saves: all but the last thrown away


def test_within_building_the_page_gets_one_app_built_from_its_final_state(builds):
    plain = lay_out()
    builds.clear()
    with build_once.building():
        demo = lay_out()
    assert builds == [demo]
    assert isinstance(demo.app, routes.App) and demo.app.get_blocks() is demo
    assert [p[0] for p in demo.pages] == [p[0] for p in plain.pages] == ["", "one", "two", "three"]
    assert len(demo.config["components"]) == len(plain.config["components"])
    assert blocks.App is routes.App  # restored


def test_a_layout_that_fails_builds_no_app_and_leaves_gradio_as_it_was(builds):
    with pytest.raises(RuntimeError, match="broken layout"), build_once.building():
        with gr.Blocks():
            gr.Textbox()
        raise RuntimeError("broken layout")
    assert builds == [] and blocks.App is routes.App


def test_where_gradio_no_longer_builds_an_app_per_block_it_stands_down(builds, stands_down, monkeypatch):
    monkeypatch.setattr(build_once, "CALL", "App.build_server(self)")
    assert stands_down(build_once.PATCH).endswith("Blocks.__exit__ no longer calls App.build_server(self)")
    with build_once.building():  # Gradio's own way
        lay_out()
    assert len(builds) >= 4


def test_queue_before_launch_keeps_the_app_it_had(builds):
    with build_once.building():
        demo = lay_out()
    app = demo.app
    builds.clear()
    with build_once.building(launch_next=True):
        demo.queue(default_concurrency_limit=4)
    assert builds == [] and demo.app is app
    assert demo._queue.default_concurrency_limit == 4  # the queue is set as Gradio sets it
