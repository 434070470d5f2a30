"""The Failures page: the stack its address names, its address following its picker and keeping an opened cause;
and the cause box on the Models page (what the page draws is tested in tests/web/html/test_failures.py)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

from components.domain.stacks import STACK_KEY
from components.queries import views
from components.web.gradio.pages import failures as failures_tab
from components.web.gradio.pages.models import ModelsPage
from components.web.gradio.pages.wiring import ADDRESS_JS
from tests.helpers import served
from tests.web.failing import NEW


def test_the_models_page_shows_the_cause_in_the_panel(failing_snap):
    sources = served(failing_snap)
    tab = ModelsPage(sources)
    query = views.Query(neuronx_cc=NEW, library_version="4.57.1")
    # under the commands, with the error it explains
    assert 'id="cause"' in tab._panel(sources.now(), "a/one", query)[1]["facts"]["value"]
    assert 'id="cause"' not in tab._panel(sources.now(), "a/passes", query)[1]["facts"]["value"]


def test_the_failures_page_opens_on_the_stack_its_address_names(failing_snap):
    tab = failures_tab.FailuresPage(served(failing_snap))
    request = SimpleNamespace(query_params={"neuronx_cc": "2.26.9117.0", "transformers": "4.57.1"})
    answer = tab.on_open(request, stack=None)
    assert answer["stack"]["value"].startswith("neuronx_cc=2.26.9117.0")
    assert "<b>1</b> of 3 models fail" in answer["result"]
    link = parse_qs(urlsplit(view_query(answer["result"])).query)
    assert link["neuronx_cc"][0].startswith("2.26.9117.0+") and link["library_version"] == ["4.57.1"]
    answer = tab.on_open(SimpleNamespace(query_params={}), stack=None)
    assert answer["stack"]["value"].startswith("neuronx_cc=2.28.7631.0")


def test_the_failures_pages_link_follows_its_picker_and_keeps_an_opened_cause(failing_snap):
    tab = failures_tab.FailuresPage(served(failing_snap))
    older = [s for s in failing_snap.stacks if s.neuronx_cc.startswith("2.26.9117.0")][0]
    answer = tab.on_stack(older.picker_value)
    query = view_query(answer["result"])
    assert parse_qs(urlsplit(query).query) == {k: [v] for k, v in older.as_dict().items() if k in STACK_KEY}
    assert re.search(ADDRESS_JS.split("/")[1], answer["result"])  # what the address-bar script reads
    opened = tab.on_open(SimpleNamespace(query_params={**older.as_dict(), "cause": "v1-0123456789abcdef"}))
    assert parse_qs(urlsplit(view_query(opened["result"])).query)["cause"] == ["v1-0123456789abcdef"]


def view_query(html: str) -> str:
    """The page's own address in its answer (`data-query`), unescaped."""
    found = re.search(r'class="view-link" href="([^"]*)" data-query="([^"]*)"', html)
    assert found and found[1] == found[2]
    return found[2].replace("&amp;", "&")
