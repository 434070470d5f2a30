"""The visit the visitor benchmark replays (`benchmarks/visit.json`) is still what Chromium does: recorded
again here, its kinds of request and their paths (session ids and build hashes aside) match the stored one."""

from __future__ import annotations

import sys

import pytest

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import visit  # noqa: E402


@pytest.mark.browser
def test_the_stored_visit_is_what_chromium_does_today(browser):
    stored = visit.load()
    again = visit.record_all(browser)
    for target in ("ours", "ours_untested", "floor"):
        assert visit.shape(again[target]) == visit.shape(stored[target]), f"{target}: run python benchmarks/visit.py"
        assert [v["body"] for v in again[target] if v["kind"] == "join"] == [
            v["body"] for v in stored[target] if v["kind"] == "join"
        ]
    kinds, untested = {v["kind"] for v in stored["ours"]}, {v["kind"] for v in stored["ours_untested"]}
    assert {"page", "asset"} <= kinds and not {"join", "data"} & kinds  # a tested model's page mounts filled
    assert {"page", "asset", "join", "data"} <= untested  # an untested one's load event counts the visit
    assert (
        "heartbeat" not in kinds | untested
    )  # the page keeps no state on the server: a reading tab holds no connection
