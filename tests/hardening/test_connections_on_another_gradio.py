"""Round two of the bounds (test_connections.py) run on the app started with Gradio reporting a release no
patch was written for: the connection cap, the deadlines and the stream caps hold all the same (issue 38)."""

from __future__ import annotations

import pytest

from tests.hardening.test_bounds import started
from tests.hardening.test_bounds_on_another_gradio import another_gradio
from tests.hardening.test_connections import *  # noqa: F403 - every test of round two, run again on this app
from tests.hardening.test_connections import SECRET, call_tools


@pytest.fixture(scope="module")
def connections_app(tmp_path_factory):
    site = another_gradio(tmp_path_factory, "site")
    with started(tmp_path_factory, "round-two-another-gradio", SECRET, PYTHONPATH=site) as app:
        yield app


def test_it_runs_on_another_gradio(connections_app):
    assert any("this is 6.99.0" in line for line in connections_app.log_lines())


def test_a_normal_tool_call_logs_at_most_one_line(connections_app):  # noqa: F811 - round two's, without its JSON check
    """The log bound holds; the answer is Python's `str()` of the dict, not JSON: that is `patches/mcp_json.py`'s,
    which stands down on another Gradio (docs/deploying.md, "After upgrading Gradio")."""
    before = len(connections_app.logged_through())
    (lookup,) = call_tools(connections_app.server.url, [("lookup", {"model_id": "Qwen/Qwen3-0.6B"})])
    assert "'model_id': 'Qwen/Qwen3-0.6B'" in lookup.content[0].text
    added = connections_app.logged_through()[before:]
    assert len(added) <= 1, added
