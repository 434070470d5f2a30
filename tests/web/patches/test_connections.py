"""The connections patch: it fits this Gradio and uvicorn, stands down elsewhere, and bounds the config."""

from __future__ import annotations

import logging

import uvicorn

from components.web import capacity
from components.web.patches import connections
from components.web.patches.guard import Patch, apply_patch


def test_it_fits_this_gradio_and_uvicorn():
    connections.check()


def test_it_stands_down_on_a_gradio_it_does_not_know(caplog):
    patch = Patch(name="connections", check=connections.check, apply=connections.apply)
    with caplog.at_level(logging.WARNING):
        assert apply_patch(patch, version="7.0.0") is False
    assert not patch.applied and "patch connections stands down" in caplog.text


def test_the_bounds_reach_uvicorns_config():
    config = uvicorn.Config(app=lambda *a: None)
    connections.bound(config)
    config.load()
    assert issubclass(config.http_protocol_class, connections.deadline_protocol().__mro__[1])
    assert config.http_protocol_class.request_deadline == connections.REQUEST_DEADLINE <= 60
    assert config.timeout_keep_alive == connections.KEEP_ALIVE
    assert config.limit_concurrency == capacity.connection_cap(connections.MAX_CONNECTIONS) > 512
    assert config.backlog == connections.BACKLOG
