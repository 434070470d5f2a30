"""The bounds on pages and methods (test_poisoned_page.py, test_methods.py) run on the app started with
Gradio reporting a release no patch was written for: they are the app's own code, so they hold all the same."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.hardening.test_bounds_on_another_gradio import another_gradio
from tests.hardening.test_methods import (  # noqa: F401 - run again on this app
    SECRET,
    test_a_method_an_address_does_not_take_is_a_405_with_allow,
    test_gradio_routes_keep_their_methods,
    test_head_answers_as_get_does_without_a_body,
)
from tests.hardening.test_poisoned_page import (  # noqa: F401 - run again on this app
    test_after_every_forwarding_header_a_plain_visitor_gets_a_clean_page,
    test_the_attackers_own_answer_is_clean_too,
    test_the_page_depends_on_nothing_its_key_does_not_hold,
)
from tests.helpers import SAMPLE_ARGS, Server


@pytest.fixture(scope="module")
def sample_app(tmp_path_factory):
    """Here the sample app runs on another Gradio: the tests imported above ask for `sample_app` by name."""
    env = {"PYTHONPATH": another_gradio(tmp_path_factory, "site"), "WEBHOOK_SECRET": SECRET}
    server = Server(*SAMPLE_ARGS, env=env, log=tmp_path_factory.mktemp("log") / "app.log").wait()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def methods_http(sample_app):
    with httpx.Client(base_url=sample_app.url, timeout=60) as client:
        yield client


def test_it_runs_on_another_gradio(sample_app, methods_http):
    assert methods_http.get("/gradio_api/info").status_code == 200
    assert "this is 6.99.0" in Path(sample_app.log.name).read_text()  # each patch stood down, naming the release
