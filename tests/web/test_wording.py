"""The app's own wording, from the HTML builders on the bundled sample: no space after an opening bracket or
before a closing one or a colon, and no masked signature shown as text. (Gradio's padding of links, which
drew such spaces in a browser, is checked in tests/e2e/test_wording.py.)"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from components.queries import compare, details, failures
from components.web.gradio.pages import endpoints as endpoints_page
from components.web.html import causes, evidence
from components.web.html.comparison import comparison_html
from components.web.html.failures import failures_html
from tests.helpers import ROOT

SPACED = re.compile(r".{0,30}(?:\( | \)| :(?!/)).{0,30}")
MASKED = re.compile(r"\[N|\bN GB|<path>|<hex>|0x…")


class _Text(HTMLParser):
    """The text a page shows, code left out (an error line or a script is data, spaced as it was written)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        self.in_code += tag in ("code", "pre")

    def handle_endtag(self, tag):
        self.in_code -= tag in ("code", "pre")

    def handle_data(self, data):
        self.parts.append(" ‹code› " if self.in_code else data)


def text_of(html: str) -> str:
    parser = _Text()
    parser.feed(str(html))
    return re.sub(r"\s+", " ", "".join(parser.parts))


def pages(snapshot) -> dict[str, str]:
    """Every fragment of the pages this module owns, on every stack of the sample."""
    out = {f"failures {s.label}": failures_html(failures.failures(snapshot, s), s) for s in snapshot.stacks}
    for a, b in zip(snapshot.stacks[1:], snapshot.stacks):
        out[f"compare {a.label} → {b.label}"] = comparison_html(compare.compare(snapshot, a, b), a, b)
    for s in snapshot.stacks:
        for model in failures.stack_causes(snapshot, s).by_model:
            out[f"cause of {model} on {s.label}"] = causes.cause_panel(
                details.lookup(snapshot, model, s.neuronx_cc, s.spec)
            )
    untested = details.lookup(snapshot, "nobody/not-in-the-data")
    out["not tested"] = evidence.evidence_html(untested) + evidence.request_test_html(untested)
    return out


def test_no_fragment_has_a_space_inside_brackets_or_before_a_colon(bundled_sample):
    found = {name: [m.group(0) for m in SPACED.finditer(text_of(html))] for name, html in pages(bundled_sample).items()}
    assert {name: spaced for name, spaced in found.items() if spaced} == {}
    assert len(found) > 30


def test_the_about_and_endpoints_pages_neither(bundled_sample):
    about = (ROOT / "assets" / "about.md").read_text(encoding="utf-8")
    prose = re.sub(r"```.*?```|`[^`]*`", "‹code›", about, flags=re.S)
    assert [m.group(0) for m in SPACED.finditer(prose)] == []
    assert "Performance" not in about and "benchmarks/results.md" in about
    assert [m.group(0) for m in SPACED.finditer(re.sub(r"`[^`]*`", "‹code›", endpoints_page.summary()))] == []


def test_no_cause_is_shown_by_its_masked_line(bundled_sample):
    shown = {name: MASKED.findall(str(html)) for name, html in pages(bundled_sample).items()}
    assert {name: masks for name, masks in shown.items() if masks} == {}
