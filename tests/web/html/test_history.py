"""The history table: each stack worded by `StackRef` (the compiler's public version, then its library), escaped."""

from components.web.html import history


def test_each_row_names_its_stack_and_marks_the_last_pass():
    entries = [
        {"neuronx_cc": "2.28.7631.0+82129205", "library": "transformers", "library_version": "4.57.1",
         "kind": "pass", "result": "PASS", "tp": 4.0, "wall_s": 90, "last_pass": True},
        {"neuronx_cc": "2.27.1.0+abc", "library": "<b>lib</b>", "library_version": None, "kind": "fail",
         "result": "FAIL", "tp": None},
    ]  # fmt: skip
    html = history.history_table(entries)
    assert '<code>2.28.7631.0</code><br><span class="library">Transformers 4.57.1</span>' in html
    assert '<span class="library">&lt;b&gt;lib&lt;/b&gt; </span>' in html  # a missing version reads as empty
    assert html.count('class="mark mark-pass"') == 1 and html.count("<tr>") == 3


def test_no_entries_no_table():
    assert history.history_table([]) == ""
