"""A result's label: escaped whatever the dataset says."""

from components.web.html import markup


def test_unknown_results_show_as_recorded_and_escaped():
    assert markup.badge("other", "<b>MAYBE</b>") == '<span class="badge badge-other">&lt;b&gt;MAYBE&lt;/b&gt;</span>'
    assert "not tested" in markup.badge("not tested", "not tested")


def _text_of(html: str, element_id: str) -> str:
    """The text content of the element `element_id` in `html`, as a browser reads it (tags gone, entities read)."""
    import html as html_lib
    import re

    inner = re.search(rf'<pre[^>]* id="{element_id}"[^>]*><code>(.*?)</code></pre>', html, re.S)
    assert inner, html
    return html_lib.unescape(re.sub(r"<[^>]+>", "", inner.group(1)))


def test_a_code_block_holds_the_script_exactly_one_numbered_line_a_span():
    script = 'import torch\n\nx = "<b>&amp;</b>"  # </pre><script>alert(1)</script>\n    print(x)\n'
    html = str(markup.code_block("run-py-code", script, "run.py (UNTESTED: adapted from <x>)", "run.py"))
    assert _text_of(html, "run-py-code") == script  # what Copy, Download and a selection take
    assert html.count('<span class="line">') == script.count("\n") + 1
    assert "<script>" not in html and "&lt;/pre&gt;&lt;script&gt;" in html
    assert 'aria-label="run.py (UNTESTED: adapted from &lt;x&gt;)"' in html and 'tabindex="0"' in html
    assert 'data-copy="run-py-code"' in html and 'data-download="run-py-code" data-filename="run.py"' in html
