"""A stack's FAILs by cause (components/web/html/failures.py): causes ranked, the one asked for opened, first seen
and fixed in; what the data holds is text, never markup."""

from __future__ import annotations

from components.queries import failures
from components.web.html.failures import failures_html
from tests.web.failing import NEW, OLD, no_markup_from_data


def test_a_stacks_failures_rank_causes_causes_opens_the_asked_one_and_says_first_seen_and_fixed_in(failing_snap):
    old = failing_snap.resolve_stack(OLD, "")
    new = failing_snap.resolve_stack(NEW, "")
    answer = failures.failures(failing_snap, new)
    signature = answer["causes"][0]["signature"]
    html = failures_html(answer, new, signature)
    no_markup_from_data(html)
    assert "<b>3</b> of 5 models fail" in html and "in <b>2</b> causes" in html
    assert html.index('<span class="cause-count">2</span>') < html.index('<span class="cause-count">1</span>')
    assert f'id="cause-{signature}" open>' in html
    assert "<b>First seen</b> neuronx-cc 2.26.9117.0 · Transformers 4.57.1" in html
    fixed = failures_html(failures.failures(failing_snap, old), old)
    assert "<b>Fixed in</b> neuronx-cc 2.28.7631.0 · Transformers 4.57.1" in fixed and ">a/three</a>" in fixed
    assert "No model fails" in failures_html({"causes": [], "failed": 0}, new)


def test_a_cause_reads_as_its_first_models_error_line_never_the_mask(failing_snap):
    new = failing_snap.resolve_stack(NEW, "")
    html = failures_html(failures.failures(failing_snap, new), new)
    # a/one's own line (escaped); the masked form ("alert(N)") is the cause's identity, shown to no one
    assert '<code class="cause-summary">RuntimeError: &lt;img src=x onerror=alert(1)&gt;' in html
    assert "alert(N)" not in html and "N GB" not in html
    assert "The error line above is a/one's" in html
