"""Two stacks compared (components/web/html/comparison.py): every count reads as English, one and several; a
model opens on the stack where it was run."""

from __future__ import annotations

import re

from components.queries.compare import compare
from components.sources.dataset import load
from components.web.html.comparison import SECTIONS, comparison_html
from tests.helpers import NEW_CC, row, write

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
    old, new = snapshot.resolve_stack(OLD, ""), snapshot.resolve_stack(NEW, "")
    html = str(comparison_html(compare(snapshot, old, new), old, new))
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


def test_a_compared_model_opens_on_its_own_librarys_stack(libraries):
    snapshot, _ = libraries
    transformers = snapshot.resolve_stack(NEW_CC, "5.0.0")
    diffusers = snapshot.resolve_stack(NEW_CC, "diffusers==0.36.0")
    html = str(comparison_html(compare(snapshot, transformers, diffusers), transformers, diffusers))
    added = html.split('id="compare-added"')[1].split("</section>")[0]
    assert "stabilityai/sd-turbo" in added and "library=diffusers&amp;library_version=0.36.0" in added


def test_a_missing_stack_or_one_stack_twice_says_so(libraries):
    snapshot, _ = libraries
    stack = snapshot.resolve_stack(NEW_CC, "5.0.0")
    assert "No data loaded" in comparison_html(compare(snapshot, None, stack), None, stack)
    assert "A and B are the same stack" in comparison_html(compare(snapshot, stack, stack), stack, stack)
