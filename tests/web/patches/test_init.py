"""`patches.apply()`: the one call that applies every patch, and what it adds to `launch()`."""

from __future__ import annotations

import logging
import os

from gradio import route_utils

from components.web import patches
from components.web.patches import assets, sessions


def test_it_bounds_the_sessions_and_puts_assets_in_front(monkeypatch):
    monkeypatch.delenv("GRADIO_ANALYTICS_CACHE_FREQUENCY", raising=False)
    launch = patches.apply({"app_kwargs": {"middleware": ["other"]}, "ssr_mode": False})
    assert launch["state_session_capacity"] == sessions.SESSION_CAPACITY and launch["ssr_mode"] is False
    assert launch["app_kwargs"]["middleware"][0].cls is assets.Assets and launch["app_kwargs"]["middleware"][1:] == [
        "other"
    ]
    assert os.environ["GRADIO_ANALYTICS_CACHE_FREQUENCY"] == str(patches.ANALYTICS_EVERY)


def test_a_deployments_own_settings_win(monkeypatch):
    monkeypatch.setenv("GRADIO_ANALYTICS_CACHE_FREQUENCY", "7")
    assert patches.apply({"state_session_capacity": 5})["state_session_capacity"] == 5
    assert os.environ["GRADIO_ANALYTICS_CACHE_FREQUENCY"] == "7"


def test_a_patch_that_stands_down_leaves_the_rest_of_the_launch_as_gradios(monkeypatch, caplog):
    monkeypatch.delattr(route_utils, "STATIC_PATH_LIB")
    with caplog.at_level(logging.WARNING):
        launch = patches.apply({"app_kwargs": {"middleware": ["other"]}})
    assert launch["app_kwargs"] == {"middleware": ["other"]}  # no Assets: Gradio serves its own files
    assert [r.getMessage() for r in caplog.records] == [
        "patch assets stands down: gradio.route_utils.STATIC_PATH_LIB is missing"
    ]
