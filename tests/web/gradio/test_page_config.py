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

HOSTILE = "</script><script>alert('x')</script> & <b>"


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
