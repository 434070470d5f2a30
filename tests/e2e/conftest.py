"""Fixtures the end-to-end tests share."""

from __future__ import annotations

import pytest

from tests.helpers import SAMPLE_ARGS, Server, space_env


@pytest.fixture(scope="session")
def ssr_space_app(node):
    """The app on the sample in a Space's environment with server-side rendering asked for (`space_env`): only
    read, by the Space tests and the first-response tests alike."""
    server = Server(*SAMPLE_ARGS, env=space_env(node)).wait()
    yield server
    server.stop()
