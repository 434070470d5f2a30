"""Round one of the bounds (test_bounds.py), the plain calls' (test_plain_calls.py), the CORS of /api/v1 on a Space and the argument check, run on the
app started with Gradio reporting a release no patch was written for: every patch stands down, and every
limit still holds, being the app's own code (issue 38)."""

from __future__ import annotations

import httpx
import pytest

from tests.hardening.test_bounds import *  # noqa: F403 - every test of round one, run again on this app
from tests.hardening.test_bounds import started
from tests.hardening.test_plain_calls import *  # noqa: F403 - and the plain calls' (issue 61): the app's own code
from tests.helpers import SAMPLE_ARGS, Server, log_message

# Run before the app by Python itself (a `sitecustomize` on PYTHONPATH): Gradio as the next release would
# report itself, its code unchanged.
ANOTHER_GRADIO = 'import gradio\n\ngradio.__version__ = "6.99.0"\n'
PATCHES = ("build_once", "sessions", "argspecs", "mcp_json", "unread")


def another_gradio(tmp_path_factory, name: str) -> str:
    folder = tmp_path_factory.mktemp(name)
    (folder / "sitecustomize.py").write_text(ANOTHER_GRADIO, encoding="utf-8")
    return str(folder)


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    with started(tmp_path_factory, "bounds-another-gradio", PYTHONPATH=another_gradio(tmp_path_factory, "site")) as app:
        yield app


@pytest.fixture(scope="module")
def calls_app(tmp_path_factory):
    """An app of its own for the plain calls' tests: round one's last test stops `running`."""
    with started(tmp_path_factory, "calls-another-gradio", PYTHONPATH=another_gradio(tmp_path_factory, "calls")) as app:
        yield app


def test_every_patch_stands_down_with_one_line(running):
    lines = [log_message(line) for line in running.log_lines() if "stands down" in line]
    assert sorted(lines) == sorted(
        f"WARNING components.web.gradio.patches.guard: patch {name} stands down: "
        "written for gradio >=6.31,<6.32, this is 6.99.0"
        for name in PATCHES
    )


def test_on_a_space_the_api_answers_star_without_credentials(tmp_path_factory):
    env = {"PYTHONPATH": another_gradio(tmp_path_factory, "space-site"), "SYSTEM": "spaces"}
    env |= {"SPACE_ID": "owner/space", "SPACE_HOST": "owner-space.hf.space"}
    server = Server(*SAMPLE_ARGS, env=env).wait()
    try:
        headers = {"Origin": "https://tools.example", "Host": "owner-space.hf.space"}
        with httpx.Client(base_url=server.url, timeout=30, headers=headers) as client:
            answer = client.get("/api/v1/stacks")
            preflight = client.options("/api/v1/stacks", headers={"Access-Control-Request-Method": "GET"})
    finally:
        server.stop()
    for got in (answer, preflight):
        assert got.headers["access-control-allow-origin"] == "*"
        assert "access-control-allow-credentials" not in got.headers
