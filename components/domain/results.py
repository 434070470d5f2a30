"""What a result means: the small vocabulary the table, the details and the charts share."""

from __future__ import annotations

from typing import Final, Literal, get_args

from components.domain.stacks import FIRST_LIBRARY, normalise_library

# kinds: what a result means, the app's own vocabulary; the answers declare it as an enum (`KindName`)
KindName = Literal["pass", "fail", "excluded", "not tested", "other"]
PASS: Final = "pass"
FAIL: Final = "fail"
EXCLUDED: Final = "excluded"
NOT_TESTED: Final = "not tested"
OTHER: Final = "other"
KINDS: tuple[KindName, ...] = get_args(KindName)

# results as the dataset records them (and as the API answers for a model without a row)
PASS_RESULT, FAIL_RESULT, NOT_TESTED_RESULT = "PASS", "FAIL", "not tested"

# how each kind is named to people
KIND_LABELS = {
    PASS: PASS_RESULT,
    FAIL: FAIL_RESULT,
    EXCLUDED: "EXCLUDED",  # as the dataset records it, beside PASS and FAIL
    NOT_TESTED: "not tested",
    OTHER: "other result",
}

MEANING = {
    PASS: "Generated 32 tokens that matched a CPU run of the same checkpoint (one core) "
    "or that a judge model found fluent (sharded). A PASS says nothing about throughput "
    "or long generations.",
    FAIL: "The run did not complete, or its 32 tokens did not check out; the error says where it stopped.",
    EXCLUDED: "Deliberately not tested; the reason is given.",
    NOT_TESTED: "No run of this model on this stack is in the dataset.",
    OTHER: "The dataset records a result this app does not know; it is shown as recorded.",
}

# A Transformers run generates text (MEANING); another library's run (an image from diffusers, embeddings from
# sentence-transformers) makes no tokens: what a PASS and a FAIL mean there, without claiming what was generated.
OTHER_LIBRARY_MEANING = {
    PASS: "The run completed and its output passed the harness's checks. A PASS says nothing about "
    "throughput or large batches.",
    FAIL: "The run did not complete, or its output did not pass the harness's checks; the error says where it stopped.",
}


def generates_text(library: object) -> bool:
    """Whether a run of `library` is a Transformers run, which generates 32 tokens (no library: the older files,
    all Transformers)."""
    return normalise_library(str(library or "")) in ("", FIRST_LIBRARY)


def meaning(kind: str, library: object = None) -> str:
    """What a result of `kind` means for a run of `library`."""
    if not generates_text(library) and kind in OTHER_LIBRARY_MEANING:
        return OTHER_LIBRARY_MEANING[kind]
    return MEANING.get(kind, MEANING[OTHER])


def as_kind(value: object) -> KindName:
    """A kind kept as text (a snapshot's column of kinds) as the enum's value; anything else is "other"."""
    return next((k for k in KINDS if k == value), OTHER)


def result_kind(result: object, exclusion: object = None) -> KindName:
    """Classify a recorded result: pass, fail, excluded, not tested or other (an unknown value)."""
    text = result.strip().upper() if isinstance(result, str) else ""
    if isinstance(exclusion, str) and exclusion.strip():
        return EXCLUDED if text not in (PASS_RESULT, FAIL_RESULT) else (PASS if text == PASS_RESULT else FAIL)
    if text == PASS_RESULT:
        return PASS
    if text in (FAIL_RESULT, "FAILED", "ERROR"):
        return FAIL
    if text in ("EXCLUDED", "SKIPPED", "SKIP"):
        return EXCLUDED
    if text == "NOT TESTED":
        return NOT_TESTED
    return OTHER
