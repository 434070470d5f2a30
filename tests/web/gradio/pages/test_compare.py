"""The Compare page: every count reads as English, one and several."""

from __future__ import annotations

import re

from components.sources.dataset import load
from components.web.gradio.pages.compare import SECTIONS, ComparePage
from tests.helpers import row, write

OLD, NEW = "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"


def test_the_counts_say_1_fix_and_2_regressions_never_1_fixes(tmp_path):
    write(tmp_path / "old.parquet", [
        row("a/one", cc=OLD), row("a/two", cc=OLD), row("a/fixed", cc=OLD, result="FAIL"), row("a/gone", cc=OLD),
        row("a/excluded", cc=OLD),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("a/one", cc=NEW, result="FAIL"), row("a/two", cc=NEW, result="FAIL"), row("a/fixed", cc=NEW),
        row("a/new", cc=NEW), row("a/excluded", cc=NEW, result="EXCLUDED", exclusion="too big"),
    ])  # fmt: skip
    snapshot = load(tmp_path)
    html = str(ComparePage.render(snapshot, snapshot.resolve_stack(OLD, ""), snapshot.resolve_stack(NEW, "")))
    counts = dict(re.findall(r'class="compare-count compare-(\w+)"><b>[\d,]+</b> ([^<]+)<', html))
    assert counts == {
        "regressions": "regressions",
        "fixes": "fix",
        "added": "added",
        "removed": "removed",
        "changed": "changed",
        "other_changes": "other result change",
    }
    assert len(counts) == len(SECTIONS)
    assert re.search(r"<b>1</b> (fixes|regressions|models|other result changes)\b", html) is None
    assert "<b>2</b> models newly fail with" in html
