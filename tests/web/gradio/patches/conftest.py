"""What every patch's stand-down test checks: the patch declines, with exactly one log line naming it."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from components.web.gradio.patches.guard import Patch, apply_patch


def fresh(patch: Patch) -> Patch:
    """The same patch, not yet applied or declined in this process (the app's own may have been, by another test)."""
    return dataclasses.replace(patch, applied=[], declined=set())


@pytest.fixture
def stands_down(caplog):
    """`stands_down(patch)`: apply a fresh copy of `patch`, assert it declined with one line naming it, and
    return that line."""

    def check(patch: Patch) -> str:
        caplog.clear()
        with caplog.at_level(logging.INFO):
            assert apply_patch(fresh(patch)) is False
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1 and lines[0].startswith(f"patch {patch.name} stands down: "), lines
        return lines[0]

    return check
