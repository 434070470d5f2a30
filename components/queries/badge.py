"""A model's result as a shields.io endpoint badge, for model cards: `{schemaVersion, label, message, color}`.

`badge()` answers the schema https://shields.io/badges/endpoint-badge reads; `GET /badge` serves it. The
message names the result and the compiler it was found on (`PASS · neuronx-cc 2.28.7631.0`): a badge
is read far from the app, so it always says which stack it speaks for.
"""

from __future__ import annotations

from components.domain.errors import UnknownStack
from components.domain.results import EXCLUDED, FAIL, KIND_LABELS, NOT_TESTED, OTHER, PASS
from components.domain.versions import short_version
from components.queries.errors import MalformedId
from components.runtime import settings
from components.sources.records import hub_id
from components.sources.snapshot import Snapshot

LABEL = "Trainium"
# shields.io's own colour names; excluded and not tested are no verdict, so they stay grey
COLORS = {PASS: "green", FAIL: "red", EXCLUDED: "lightgrey", NOT_TESTED: "lightgrey", OTHER: "lightgrey"}
GREY = "lightgrey"


def badge(
    snapshot: Snapshot, model_id: str, neuronx_cc: str = "", library_version: str = "", pinned: bool | None = None
) -> dict:
    """The badge of `model_id` on the stack asked for (`neuronx_cc`, `library_version` as `/lookup` takes
    them; both empty: the model's own stack, `Snapshot.model_stack`). Returns the shields.io endpoint schema: a PASS is green, a FAIL
    red; excluded, not tested and an unknown stack are grey (an unknown stack never shows another
    stack's result). Raises MalformedId when `model_id` cannot be a Hub id."""
    model = hub_id(model_id)
    if model is None:
        raise MalformedId("model must be a Hub model id such as Qwen/Qwen3-0.6B")
    canonical = snapshot.canonical_model_id(model)
    pinned = bool((neuronx_cc or "").strip() or (library_version or "").strip()) if pinned is None else pinned
    if pinned:
        try:
            stack = snapshot.resolve_stack(neuronx_cc, library_version)
        except UnknownStack:
            return schema("unknown stack", GREY)
    else:
        stack = snapshot.model_stack(canonical)
    if stack is None:
        return schema(KIND_LABELS[NOT_TESTED], GREY)
    position = snapshot.row_for(canonical, stack) if canonical else None
    kind = str(snapshot.kind[position]) if position is not None else NOT_TESTED
    if kind == OTHER:
        text = (
            " ".join(str(snapshot.rows["result"].iat[position]).split())[: settings.BADGE_RESULT.value]
            or KIND_LABELS[OTHER]
        )
    else:
        text = KIND_LABELS.get(kind, KIND_LABELS[OTHER])
    return schema(f"{text} · neuronx-cc {short_version(stack.neuronx_cc)}", COLORS.get(kind, GREY))


def schema(message: str, color: str) -> dict:
    """One answer in the shields.io endpoint schema."""
    return {
        "schemaVersion": 1,
        "label": LABEL,
        "message": message,
        "color": color,
        "cacheSeconds": settings.BADGE_CACHE_SECONDS.value,
    }
