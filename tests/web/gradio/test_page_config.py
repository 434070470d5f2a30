"""The page's inlined config without each component's API schema; the page whole wherever the patch no
longer fits."""

from __future__ import annotations

import json
import re

import gradio as gr
import pandas as pd
import pytest
from fastapi.testclient import TestClient
from gradio.routes import App

from components.web.gradio import page_config

# past ASCII too: the page writes such characters as \u escapes (`_as_gradio_writes_it`), to be read back the same
HOSTILE = "</script><script>alert('x')</script> & <b> · — 模型 \u2028 😀"


@pytest.fixture(scope="module")
def served():
    """A Gradio page and its `/config`, as Gradio serves them."""
    with gr.Blocks() as demo:
        gr.Textbox(HOSTILE, label="Search")
        gr.Dataframe(pd.DataFrame({"model": [HOSTILE]}))
        gr.HTML("<p>hi</p>")
    demo.theme = gr.themes.Default()  # what launch() sets, as it sets the config
    demo.config = demo.get_config_file()
    client = TestClient(App.create_app(demo))
    yield client.get("/").text, client.get("/config").json()
    demo.close()


def inlined(html: str) -> dict:
    return json.loads(re.search(r"window\.gradio_config = (\{.*?\});</script>", html, re.S).group(1))


@pytest.fixture
def applied():
    """`slim()` acting, as it does on this Gradio's frontend."""
    page_config.fits.cache_clear()
    yield
    page_config.fits.cache_clear()


def test_it_fits_this_gradio():
    assert page_config.why_not() is None and page_config.fits()


def test_the_page_loses_only_each_components_api_schema(served, applied, monkeypatch):
    html, _ = served
    slimmed = page_config.slim(html)
    before, after = inlined(html), inlined(slimmed)
    assert any("api_info" in c for c in before["components"])  # there was something to drop
    for component in before["components"]:
        for key in page_config.DROPPED:
            component.pop(key, None)
    assert after == before
    assert len(slimmed) < len(html)
    assert slimmed.replace(re.search(r"window\.gradio_config = \{.*?\};", slimmed, re.S).group(0), "") == html.replace(
        re.search(r"window\.gradio_config = \{.*?\};", html, re.S).group(0), ""
    )  # nothing outside the config changes


def test_hostile_text_stays_escaped_as_gradio_escapes_it(served, applied, monkeypatch):
    html, _ = served
    config = re.search(r"window\.gradio_config = (\{.*?\});</script>", page_config.slim(html), re.S).group(1)
    assert "<" not in config and ">" not in config and "'" not in config
    assert HOSTILE in json.dumps(json.loads(config), ensure_ascii=False)


def test_api_clients_still_read_the_whole_config(served):
    _, config = served
    assert any("api_info" in c and "example_inputs" in c for c in config["components"])


def test_where_it_does_not_fit_the_page_is_left_whole_with_one_log_line(served, monkeypatch, caplog):
    html, _ = served
    monkeypatch.setattr(page_config, "READ_MARKERS", (b"component_class_id",))
    page_config.fits.cache_clear()
    try:
        assert page_config.slim(html) == html and page_config.slim(html) == html
    finally:
        page_config.fits.cache_clear()
    lines = [r.getMessage() for r in caplog.records if "sent whole" in r.getMessage()]
    assert len(lines) == 1 and "the frontend reads component_class_id" in lines[0]


def test_a_page_without_the_config_as_gradio_writes_it_is_left_whole(applied, monkeypatch):
    for html in ("<html></html>", "<script>window.gradio_config = {not json};</script>"):
        assert page_config.slim(html) == html


def test_a_template_that_no_longer_inlines_the_config_does_not_fit(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<script>window.gradio_config = {{ config | tojson }};</script>")
    assert "no longer inlines the config" in page_config.why_not(tmp_path)
    assert "no page template" in page_config.why_not(tmp_path / "missing")


# ---- a link's answer in the page's config (`with_answer`) ----------------------------------------------------


@pytest.fixture(scope="module")
def loading():
    """A page filled by a load event (a text box, a picker and hidden HTML), whose link box runs a script in the
    browser on change, as the Models page's does; and another load event, of one output only."""
    with gr.Blocks() as demo:
        text = gr.Textbox(elem_id="text")
        pick = gr.Dropdown(elem_id="pick")
        note = gr.HTML(elem_id="note")
        link = gr.Textbox(elem_id="link")
        other = gr.HTML(elem_id="other")
        demo.load(lambda: ("", None, "", ""), outputs=[text, pick, note, link])
        demo.load(lambda: "", outputs=[other])
        link.change(None, link, link, js="(v) => v")
        text.change(lambda v: v, text, note)  # runs on the server: not run on load
    demo.theme = gr.themes.Default()
    demo.config = demo.get_config_file()
    client = TestClient(App.create_app(demo))
    yield client.get("/").text
    demo.close()


ANSWER = {
    "text": HOSTILE,
    "pick": {"__type__": "update", "choices": [("One", "1"), ("Two", "2")], "value": "2"},
    "note": {"__type__": "update", "value": "<p>filled</p>", "visible": False},
    "link": "model=org%2Fpasses",
}


def by_elem_id(config: dict) -> dict:
    return {c["props"].get("elem_id"): c for c in config["components"] if c["props"].get("elem_id")}


def test_a_links_answer_fills_the_page_and_its_load_event_is_not_triggered(loading):
    filled = page_config.with_answer(loading, ANSWER)
    assert filled is not None
    config, before = inlined(filled), inlined(loading)
    props = {name: c["props"] for name, c in by_elem_id(config).items()}
    assert props["text"]["value"] == HOSTILE and props["link"]["value"] == "model=org%2Fpasses"
    assert props["pick"]["choices"] == [["One", "1"], ["Two", "2"]] and props["pick"]["value"] == "2"
    assert props["note"]["value"] == "<p>filled</p>" and props["note"]["visible"] is False
    ids = {name: c["id"] for name, c in by_elem_id(config).items()}
    answered = {ids[n] for n in ANSWER}
    after = {d["id"]: d for d in config["dependencies"]}
    on_load = next(t for d in before["dependencies"] for t in d["targets"] if t[1] == "load")
    for dependency in before["dependencies"]:
        triggers, now = dependency["targets"], after[dependency["id"]]["targets"]
        if set(dependency["outputs"]) == answered:  # the answer's load event: never triggered
            assert any(t[1] == "load" for t in triggers) and now == []
        elif dependency["outputs"] == [ids["other"]]:  # another load event: as it was
            assert now == triggers
        elif dependency["backend_fn"] is False:  # the link box's script: on its change, and once on load
            assert now == [*triggers, on_load]
        else:  # a server event on a change: not run on load
            assert now == triggers and dependency["backend_fn"] is True
    assert "<" not in re.search(r"window\.gradio_config = (\{.*?\});</script>", filled, re.S).group(1)
    # nothing else in the config changes (each part of it not answered is written once, when the page is read)
    assert [c for c in config["components"] if c["id"] not in answered] == [
        c for c in before["components"] if c["id"] not in answered
    ]
    rest = ("components", "dependencies")
    assert list(config) == list(before) and all(config[k] == before[k] for k in before if k not in rest)
    assert filled.replace(re.search(r"window\.gradio_config = \{.*?\};", filled, re.S).group(0), "") == loading.replace(
        re.search(r"window\.gradio_config = \{.*?\};", loading, re.S).group(0), ""
    )  # nothing outside the config changes


def test_where_the_page_does_not_match_the_answer_it_keeps_its_load_event(loading):
    assert page_config.with_answer(loading, {**ANSWER, "missing": "x"}) is None  # an output not on the page
    assert page_config.with_answer(loading, {"text": "x"}) is None  # no load event of exactly these outputs
    assert page_config.with_answer("<html></html>", ANSWER) is None
    twice = loading.replace('"elem_id":"other"', '"elem_id":"text"')
    assert twice != loading and page_config.with_answer(twice, ANSWER) is None  # which "text" is not known


def test_where_the_patch_does_not_fit_no_page_carries_an_answer(loading, monkeypatch):
    monkeypatch.setattr(page_config, "fits", lambda: False)
    assert page_config.with_answer(loading, ANSWER) is None


def test_each_link_starts_from_gradios_page_as_read_not_from_the_last_links(loading):
    first = inlined(page_config.with_answer(loading, ANSWER))
    other = page_config.with_answer(loading, {**ANSWER, "text": "second", "note": "<p>shown</p>"})
    second = by_elem_id(inlined(other))
    assert second["text"]["props"]["value"] == "second" and second["note"]["props"]["value"] == "<p>shown</p>"
    assert second["note"]["props"].get("visible") is not False  # the first link's update is not carried over
    assert by_elem_id(first)["note"]["props"]["visible"] is False
    assert page_config.with_answer(loading, ANSWER) == page_config.with_answer(loading, ANSWER)
    before = by_elem_id(inlined(loading))
    assert before["text"]["props"].get("value") in ("", None) and not any(
        t[1] == "load" for d in inlined(loading)["dependencies"] if d["backend_fn"] is False for t in d["targets"]
    )
