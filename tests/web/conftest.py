"""Fixtures the tests of the web layer share."""

from __future__ import annotations

import pytest

from tests.web.failing import failing_snapshot


@pytest.fixture
def failing_snap(tmp_path):
    """A snapshot whose FAILs share causes, with hostile error text and model ids (`tests/web/failing.py`)."""
    return failing_snapshot(tmp_path)
