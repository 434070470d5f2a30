"""Round two of the bounds (test_connections.py) run on the app started with Gradio reporting a release no
patch was written for: the connection cap, the deadlines and the stream caps hold all the same (issue 38)."""

from __future__ import annotations

import pytest

from tests.hardening.test_bounds import App
from tests.hardening.test_bounds_on_another_gradio import another_gradio
from tests.hardening.test_connections import *  # noqa: F403 - every test of round two, run again on this app
from tests.hardening.test_connections import SECRET
from tests.helpers import SAMPLE_ARGS, Server


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    base = tmp_path_factory.mktemp("round-two-another-gradio")
    temp = base / "tmp"
    temp.mkdir()
    log = base / "app.log"
    env = {"WEBHOOK_SECRET": SECRET, "TMPDIR": str(temp), "GRADIO_TEMP_DIR": str(temp / "gradio")}
    env["PYTHONPATH"] = another_gradio(tmp_path_factory, "site")
    server = Server(*SAMPLE_ARGS, env=env, log=log).wait()
    running = App(server, log, temp, SECRET)
    yield running
    running.http.close()
    server.stop()


def test_it_runs_on_another_gradio(running):
    assert any("this is 6.99.0" in line for line in running.log_lines())
