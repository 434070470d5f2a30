"""Every regex and loop over text a caller (or the dataset) supplies, on its worst known input at the size
the app lets in, answers what it should, inside a hang guard. Each takes milliseconds, where a backtracking
pattern took minutes (the config check, issue 41) or hours (a size range of a megabyte of spaces): the guard
(`HANG_GUARD`, a minute) catches that and nothing a slow machine does; the figures are printed by
`benchmarks/worst_inputs.py`. The config check's own shapes: tests/hardening/test_config_check.py.

Sizes: a request body is at most 1 MB (`routes/limits.py`), a header or URL what uvicorn's h11 takes
(16 KB a line of the head by default; 64 KB is used here), a dataset error line `ERROR_LINE_READ`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from starlette.requests import Request

from components.queries import causes, links, report, sizes, views
from components.queries.feed import _text
from components.runtime import settings
from components.sources.records import hub_id
from components.sources.snapshot import search_key
from components.web import deep_links
from components.web.routes import api_v1
from tests.helpers import HANG_GUARD

BODY = 1024 * 1024  # the body limit: the most any one value can carry
HEADER = 64 * 1024


def without_backtracking(work: Callable[[], object]) -> object:
    """`work()`'s answer, asserted to come inside the hang guard (a regex holds the interpreter while it runs,
    so it cannot be stopped from a thread: the time is read after it)."""
    started = time.perf_counter()
    answer = work()
    took = time.perf_counter() - started
    assert took < HANG_GUARD, f"{took:.0f} s: a backtracking pattern, not a slow machine"
    return answer


RUNS = [" " * BODY, "-" + " " * BODY + "x", "1" + " " * BODY + "-x", "1." * (BODY // 2), "- " * (BODY // 2)]


@pytest.mark.parametrize("text", RUNS, ids=["spaces", "dash-spaces", "digit-spaces", "dots", "dash-space-runs"])
def test_a_size_range_of_a_megabyte_is_read_at_once(text):
    assert without_backtracking(lambda: sizes.parse(text)) is None
    assert without_backtracking(lambda: sizes.normalise(text)) == ""


@pytest.mark.parametrize(
    "text",
    ["a-" * (BODY // 2), "a" * BODY + "!", "-" * BODY, "a " * (BODY // 2)],
    ids=["dashes", "long", "dash", "words"],
)
def test_a_query_of_a_megabyte_is_normalised_at_once(text):
    query = without_backtracking(lambda: views.normalise(text=text, task=text, size=text, neuronx_cc=text))
    assert len(query.text) <= settings.SEARCH_TEXT.value and query.task == "" and query.size == ""
    without_backtracking(lambda: views.query_words(query.text))
    without_backtracking(lambda: search_key(text))


@pytest.mark.parametrize("value", ["-" + " " * (BODY - 2) + "x", "a-" * (BODY // 2) + "!"], ids=["size", "task"])
def test_the_plain_apis_argument_forms_reject_a_megabyte_at_once(value):
    for form, _ in api_v1.FORMS.values():
        assert without_backtracking(lambda form=form: form.match(value.strip().lower())) is None


@pytest.mark.parametrize(
    "host", ["a" * HEADER + "!", "a." * (HEADER // 2) + "!", "[" + ":" * HEADER + "]", "a-" * (HEADER // 2) + ":99999x"]
)
def test_a_hostile_host_header_is_refused_at_once(host):
    scope = {"type": "http", "scheme": "http", "server": ("127.0.0.1", 80), "path": "/", "query_string": b"",
             "headers": [(b"host", host.encode()), (b"x-forwarded-host", host.encode())], "root_path": ""}  # fmt: skip
    assert without_backtracking(lambda: links.public_url(Request(scope))) == "http://localhost"


def test_a_link_query_at_its_limit_and_a_model_id_are_read_at_once():
    raw = "&".join(f"model={'a/' * 50}&q={'%20' * 100}" for _ in range(settings.CARD_QUERY.value // 420))
    assert len(raw) <= settings.CARD_QUERY.value
    assert "model" in without_backtracking(lambda: deep_links.page_query(raw))
    assert without_backtracking(lambda: deep_links.page_query("a=" * BODY)) == {}  # too long: no parameters
    assert without_backtracking(lambda: hub_id("a/" * BODY)) is None


LINES = {
    "hex and dashes": "f-" * (settings.ERROR_LINE_READ.value // 2),
    "word then hex": "ValueError: " + "f-1" * (settings.ERROR_LINE_READ.value // 3),
    "path-like": "a/" * (settings.ERROR_LINE_READ.value // 2),
    "dotted": "a." * (settings.ERROR_LINE_READ.value // 2),
    "numbers": "1." * (settings.ERROR_LINE_READ.value // 2),
    "quote unterminated": "'" + "a" * settings.ERROR_LINE_READ.value,
    "control characters": "\x00\u200b" * (settings.ERROR_LINE_READ.value // 2),
}


@pytest.mark.parametrize("line", LINES.values(), ids=LINES.keys())
def test_an_error_text_of_the_worst_lines_reduces_to_a_cause_at_once(line):
    text = "\n".join([line] * settings.ERROR_LINES_READ.value * 2)  # past the lines kept, every one at the longest kept
    cause = without_backtracking(lambda: causes.cause_of(text))
    assert cause.signature
    without_backtracking(lambda: [causes.mask(one) for one in [line] * 20])


def test_a_report_fences_and_a_feed_escapes_a_megabyte_at_once():
    without_backtracking(lambda: report._fence("`" * BODY + "x" + "``" * (BODY // 4)))
    from xml.etree import ElementTree as ET

    element = without_backtracking(lambda: _text(ET.Element("feed"), "title", "\x01" * BODY))
    assert element.text == "\ufffd" * BODY


@pytest.mark.parametrize(
    "text",
    ['<a href="https://huggingface.co/' * (BODY // 33), "?" + "model=" * (BODY // 6), "model=" + "%" * BODY],
    ids=["hrefs", "models", "escapes"],
)
def test_what_a_page_event_sends_back_is_read_at_once(text):
    import gradio as gr

    from components.web.gradio.pages.models import event_text

    # a clicked row's model, a header's key and the link box are the browser's to send (`pages/models.py`)
    assert len(without_backtracking(lambda: event_text(gr.EventData(None, {"value": text}), "value"))) <= 65_536
    assert len(without_backtracking(lambda: links.model_of(text))) <= settings.LINK_VALUE.value
    assert without_backtracking(lambda: links.sort_of(text)) == ""
