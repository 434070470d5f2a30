"""What a result means: the small vocabulary the table, the details and the charts share."""

from __future__ import annotations

PASS, FAIL, EXCLUDED, NOT_TESTED, OTHER = "pass", "fail", "excluded", "not tested", "other"

NOT_TESTED_RESULT = "not tested"

MEANING = {
    PASS: "Generated 32 tokens that matched a CPU run of the same checkpoint (one core) "
    "or that a judge model found fluent (sharded). A PASS says nothing about throughput "
    "or long generations.",
    FAIL: "The run did not complete, or its 32 tokens did not check out; the error says where it stopped.",
    EXCLUDED: "Deliberately not tested; the reason is given.",
    NOT_TESTED: "No run of this model on this stack is in the dataset.",
    OTHER: "The dataset records a result this app does not know; it is shown as recorded.",
}


def result_kind(result: object, exclusion: object = None) -> str:
    """Classify a recorded result: pass, fail, excluded, not tested or other (an unknown value)."""
    text = result.strip().upper() if isinstance(result, str) else ""
    if isinstance(exclusion, str) and exclusion.strip():
        return EXCLUDED if text not in ("PASS", "FAIL") else (PASS if text == "PASS" else FAIL)
    if text == "PASS":
        return PASS
    if text in ("FAIL", "FAILED", "ERROR"):
        return FAIL
    if text in ("EXCLUDED", "SKIPPED", "SKIP"):
        return EXCLUDED
    if text == "NOT TESTED":
        return NOT_TESTED
    return OTHER
