"""web/html/causes.py: the cause on a failed model's panel and regressions by cause: what the data holds is
text, never markup."""

from __future__ import annotations

from components.queries import compare, details
from components.web.html import causes
from components.web.html import details as html_details
from tests.web.failing import NEW, OLD, no_markup_from_data


def test_a_failed_models_panel_names_its_cause_the_others_its_docs_and_the_report(failing_snap, monkeypatch):
    monkeypatch.setenv("SPACE_HOST", "owner-space.hf.space")
    html = causes.cause_panel(details.lookup(failing_snap, "a/one", NEW, ""))
    no_markup_from_data(html)
    # the model's own error line is the error block's, above the panel (said once), escaped: never the masked
    # form that is the cause's identity ("alert(N)")
    assert "Why it failed" not in html and "alert(N)" not in html
    above = html_details.body(details.lookup(failing_snap, "a/one", NEW, ""))
    assert "RuntimeError: &lt;img src=x onerror=alert(1)&gt;" in above and "alert(N)" not in above
    assert "<b>1</b> other model fails the same way" in html and "evil/&lt;b&gt;bold&lt;/b&gt;" in html
    assert 'class="report-link"' in html and "https://github.com/aws-neuron/aws-neuron-sdk/issues/new?title=" in html
    assert (
        "./failures?neuronx_cc=2.28.7631.0%2B82129205&amp;library=transformers&amp;library_version=4.57.1&amp;cause=v1-"
        in html
    )
    alone = causes.cause_panel(details.lookup(failing_snap, "a/alone", NEW, ""))
    assert "No other model fails this way" in alone
    assert 'href="https://awsdocs-neuron.readthedocs-hosted.com/en/latest/compiler/error-codes/EOOM001.html"' in alone
    assert causes.cause_panel(details.lookup(failing_snap, "a/passes", NEW, "")) == ""


def test_compare_reads_regressions_grouped_by_cause(failing_snap):
    answer = compare.compare(failing_snap, failing_snap.resolve_stack(OLD, ""), failing_snap.resolve_stack(NEW, ""))
    html = causes.regressions_by_cause(answer["regressions"])
    no_markup_from_data(html)
    assert "<b>2</b> models newly fail with <code>RuntimeError</code>" in html
    assert "<small>RuntimeError: &lt;img src=x onerror=alert(1)&gt;" in html and "alert(N)" not in html  # a/one's line
    assert causes.regressions_by_cause([]) == ""
