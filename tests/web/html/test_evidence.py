"""Tests for components/web/html/evidence.py: what it says, and that every value is escaped."""

from markupsafe import Markup

from components.web.html.evidence import evidence_html, lookup_offer

EVIL = '<img src=x onerror="alert(1)">'


def untested(**overrides) -> dict:
    answer = {
        "model_id": "fan/ft-" + EVIL,
        "result": "not tested",
        "kind": "not tested",
        "evidence": {
            "base_model": {"model_id": "base/" + EVIL, "result": "PASS", "tp": 2, "hops": 2},
            "architecture": {
                "name": "Arch" + EVIL,
                "tested": 5,
                "passed": 4,
                "closest": [{"model_id": "near/" + EVIL, "result": "FAIL", "tp": 1, "num_parameters": 1_500_000_000}],
            },
        },  # fmt: skip
        "suggested_from": "src/" + EVIL,
        "suggested_tp": 2,
        "record_unknown": EVIL,
    }
    return {**answer, **overrides}


def test_not_tested_comes_first_then_the_evidence_all_escaped():
    html = evidence_html(untested())
    assert isinstance(html, Markup)
    assert (
        html.index("What the data says about")
        < html.index("Base model")
        < html.index("Architecture")
        < html.index("UNTESTED")
    )
    assert "<img" not in html and "&lt;img" in html
    assert (
        "<b>Base model (2 steps up):</b>" in html
        and "<b>Architecture:</b>" in html
        and "4 of 5 tested models pass" in html
        and "1.50 B parameters" in html
    )
    assert "There is no NEFF cache for it" in html and "gated" not in html
    assert "gated on the Hub (manual)" in evidence_html(untested(gated="manual"))


def test_no_evidence_says_so_plainly():
    html = evidence_html(untested(evidence={"base_model": None, "architecture": None}, suggested_from=None,
                                  suggested_note="no run.py suggested: the model's architecture is unknown"))  # fmt: skip
    assert "none with a run on this stack is known" in html and "Architecture:</b> unknown" in html
    assert "No run.py suggested" in html
    assert evidence_html({"kind": "pass", "model_id": "x/y"}) == ""


def test_the_lookup_offer_only_for_hub_ids():
    offer = lookup_offer("someone/Fine-Tune-7B", "model=someone%2FFine-Tune-7B")
    assert 'href="./?model=someone%2FFine-Tune-7B"' in offer and "Look up" in offer
    assert lookup_offer("qwen3 0.6b", "") == "" and lookup_offer(EVIL, "") == "" and lookup_offer("gpt2", "") == ""


def test_the_expectation_is_shown_beside_the_evidence_as_an_expectation_not_a_result():
    reason = "its base model base/" + EVIL + " fails on this stack (FAIL: RuntimeError: x)"
    html = evidence_html(untested(expectation={"verdict": "likely fails", "basis": "base model", "reason": reason}))
    assert 'class="expectation expectation-fails"' in html and '<b class="expectation-verdict">Likely fails</b>' in html
    assert "not a run" in html and "RuntimeError: x" in html and "<img" not in html
    # beside the evidence: after "What the data says about", before the base model's line; never a result badge
    assert html.index("What the data says about") < html.index("Likely fails") < html.index("Base model")
    assert "badge" not in html
    runs = evidence_html(untested(expectation={"verdict": "likely runs", "basis": "architecture", "reason": "r"}))
    assert "expectation-runs" in runs and "Likely runs</b> — r." in runs
    assert "expectation-unknown" in evidence_html(untested(expectation={"verdict": "unknown", "reason": "r"}))
    assert "expectation" not in evidence_html(untested())  # no expectation, no block
    assert "What to expect" not in evidence_html({"kind": "pass", "model_id": "x/y", "expectation": {"verdict": "x"}})


def test_the_what_to_expect_paragraph_names_its_basis_and_is_the_config_checks_too():
    from components.web.html.config_check import config_check_html
    from components.web.html.evidence import expectation_html

    expectation = {"verdict": "likely fails", "reason": "<b>too big</b>"}
    assert expectation_html(expectation) == (
        '<p class="expectation expectation-fails" id="expectation"><span class="expectation-label">What to expect '
        '(from the evidence below, not a run):</span> <b class="expectation-verdict">Likely fails</b>'
        " — &lt;b&gt;too big&lt;/b&gt;.</p>"
    )
    from_data = expectation_html(expectation, basis="the data", element_id=None)
    assert from_data.startswith('<p class="expectation expectation-fails"><span class="expectation-label">')
    assert "(from the data, not a run)" in from_data
    assert from_data in config_check_html({"expectation": expectation, "architecture": "X"})
