"""The cause on a failed model's panel, the Failures page, regressions by cause and the causes chart:
what the data holds is text, never markup."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest

from components.domain.columns import STACK_KEY
from components.queries import compare, details, failures
from components.sources.dataset import load
from components.web.figures import causes as failure_charts
from components.web.pages import failures as failures_tab
from components.web.pages.models import ModelsTab
from tests.helpers import row, served, write

OLD, NEW = "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"
HOSTILE_ERROR = "RuntimeError: <img src=x onerror=alert(1)> in <script>alert(2)</script>"
HOSTILE_MODEL = "evil/<b>bold</b>"


@pytest.fixture
def snap(tmp_path):
    write(tmp_path / "old.parquet", [
        row("a/one", cc=OLD), row(HOSTILE_MODEL, cc=OLD), row("a/three", cc=OLD, result="FAIL", error=HOSTILE_ERROR),
    ])  # fmt: skip
    write(tmp_path / "new.parquet", [
        row("a/one", cc=NEW, result="FAIL", error=HOSTILE_ERROR),
        row(HOSTILE_MODEL, cc=NEW, result="FAIL", error=HOSTILE_ERROR.replace("1", "2")),
        row("a/three", cc=NEW),
        row("a/alone", cc=NEW, result="FAIL", error="ERROR [neuronx-cc]: [NCC_EOOM001] Out of memory: 30 GB"),
        row("a/passes", cc=NEW),
    ])  # fmt: skip
    return load(tmp_path)


def no_markup_from_data(html: str) -> None:
    assert "<img" not in html and "<script" not in html and "<b>bold" not in html


def test_a_failed_models_panel_names_its_cause_the_others_its_docs_and_the_report(snap, monkeypatch):
    monkeypatch.setenv("SPACE_HOST", "owner-space.hf.space")
    html = failures_tab.cause_panel(details.lookup(snap, "a/one", NEW, ""))
    no_markup_from_data(html)
    assert "&lt;img src=x onerror=alert(N)&gt;" in html  # the cause in words, escaped
    assert "<b>1</b> other model fails the same way" in html and "evil/&lt;b&gt;bold&lt;/b&gt;" in html
    assert 'class="report-link"' in html and "https://github.com/aws-neuron/aws-neuron-sdk/issues/new?title=" in html
    assert (
        "./failures?neuronx_cc=2.28.7631.0%2B82129205&amp;library=transformers&amp;library_version=4.57.1&amp;cause=v1-"
        in html
    )
    alone = failures_tab.cause_panel(details.lookup(snap, "a/alone", NEW, ""))
    assert "No other model fails this way" in alone
    assert 'href="https://awsdocs-neuron.readthedocs-hosted.com/en/latest/compiler/error-codes/EOOM001.html"' in alone
    assert failures_tab.cause_panel(details.lookup(snap, "a/passes", NEW, "")) == ""


def test_the_models_page_shows_the_cause_in_the_panel(snap):
    sources = served(snap)
    tab = ModelsTab(sources)
    query = SimpleNamespace(neuronx_cc=NEW, library_version="4.57.1")
    assert 'id="cause"' in tab._panel(sources.now(), "a/one", query)["details"]
    assert 'id="cause"' not in tab._panel(sources.now(), "a/passes", query)["details"]


def test_the_failures_page_ranks_causes_opens_the_asked_one_and_says_first_seen_and_fixed_in(snap):
    old = snap.resolve_stack(OLD, "")
    new = snap.resolve_stack(NEW, "")
    answer = failures.failures(snap, new)
    signature = answer["causes"][0]["signature"]
    html = failures_tab.failures_html(answer, snap, new, signature)
    no_markup_from_data(html)
    assert "<b>3</b> of 5 models fail" in html and "in <b>2</b> causes" in html
    assert html.index('<span class="cause-count">2</span>') < html.index('<span class="cause-count">1</span>')
    assert f'id="cause-{signature}" open>' in html
    assert "<b>First seen</b> neuronx-cc 2.26.9117.0 · transformers 4.57.1" in html
    fixed = failures_tab.failures_html(failures.failures(snap, old), snap, old)
    assert "<b>Fixed in</b> neuronx-cc 2.28.7631.0 · transformers 4.57.1" in fixed and ">a/three</a>" in fixed
    assert "No model fails" in failures_tab.failures_html({"causes": [], "failed": 0}, snap, new)


def test_the_failures_page_opens_on_the_stack_its_address_names(snap):
    tab = failures_tab.FailuresTab(served(snap))
    request = SimpleNamespace(query_params={"neuronx_cc": "2.26.9117.0", "transformers": "4.57.1"})
    answer = tab.on_open(request, stack=None)
    assert answer["stack"]["value"].startswith("neuronx_cc=2.26.9117.0")
    assert "<b>1</b> of 3 models fail" in answer["result"]
    link = parse_qs(urlsplit(view_query(answer["result"])).query)
    assert link["neuronx_cc"][0].startswith("2.26.9117.0+") and link["library_version"] == ["4.57.1"]
    answer = tab.on_open(SimpleNamespace(query_params={}), stack=None)
    assert answer["stack"]["value"].startswith("neuronx_cc=2.28.7631.0")


def test_the_failures_pages_link_follows_its_picker_and_keeps_an_opened_cause(snap):
    tab = failures_tab.FailuresTab(served(snap))
    older = [s for s in snap.stacks if s.neuronx_cc.startswith("2.26.9117.0")][0]
    answer = tab.on_stack(older.picker_value)
    query = view_query(answer["result"])
    assert parse_qs(urlsplit(query).query) == {k: [v] for k, v in older.as_dict().items() if k in STACK_KEY}
    assert re.search(failures_tab.ADDRESS_JS.split("/")[1], answer["result"])  # what the address-bar script reads
    opened = tab.on_open(SimpleNamespace(query_params={**older.as_dict(), "cause": "v1-0123456789abcdef"}))
    assert parse_qs(urlsplit(view_query(opened["result"])).query)["cause"] == ["v1-0123456789abcdef"]


def view_query(html: str) -> str:
    """The page's own address in its answer (`data-query`), unescaped."""
    found = re.search(r'class="view-link" href="([^"]*)" data-query="([^"]*)"', html)
    assert found and found[1] == found[2]
    return found[2].replace("&amp;", "&")


def test_compare_reads_regressions_grouped_by_cause(snap):
    answer = compare.compare(snap, snap.resolve_stack(OLD, ""), snap.resolve_stack(NEW, ""))
    html = failures_tab.regressions_by_cause(answer["regressions"])
    no_markup_from_data(html)
    assert "<b>2</b> models newly fail with <code>RuntimeError</code>" in html
    assert failures_tab.regressions_by_cause([]) == ""


def test_the_causes_chart_counts_models_per_stack_and_escapes_its_text(snap):
    fig = failure_charts.causes_figure(snap)
    assert fig is failure_charts.causes_figure(snap)  # once per snapshot
    text = json.dumps(fig.to_plotly_json(), default=str)
    assert "<img" not in text and "<script" not in text
    runtime = next(t for t in fig.data if t.name == "RuntimeError")
    assert list(runtime.y) == [1, 2] and len(fig.data) == 2
