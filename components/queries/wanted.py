"""Wanted: the untested models people look up, counted per model and day, and ranked.

A lookup counts when the model has no row on the newest stack (opening its link on the Models page, or
asking /lookup, named or /api/v1). The counting itself, each address once a model a day, is
`sources/wanted_counts.py`'s; what is persisted, `sources/wanted_store.py`'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from components.queries import evidence
from components.queries.answers import Evidence, WantedAnswer, WantedModel
from components.queries.expectation import expectation
from components.sources.records import Records, hub_id
from components.sources.snapshot import Snapshot
from components.sources.wanted_counts import Counted, Wanted

__all__ = ["TOP", "Counted", "Wanted", "note_lookup", "ranking", "untested"]

TOP = 100  # models in the ranking (docs/limits.md)


def untested(snapshot: Snapshot, model_id: str, records: Records | None = None) -> str | None:
    """The id to count when a lookup of `model_id` is of a model with no row on its own stack
    (`Snapshot.model_stack`: the newest stack of the library it last ran with, else the newest stack): its id
    in the data, else in its Hub record, else the Hub id as asked; None for a model tested there or text that
    is not a Hub id."""
    canonical = snapshot.canonical_model_id(" ".join(str(model_id or "").split()))
    stack = snapshot.model_stack(canonical)  # a Diffusers model that ran on its newest stack is not wanted
    if stack is None:
        return None
    if canonical:
        return canonical if snapshot.row_for(canonical, stack) is None else None
    asked = hub_id(str(model_id or "").strip())
    record = records.get(asked) if records is not None and asked else None
    return record.model_id if record else asked  # "org/name" and "Org/Name" count as one where the Hub knows it


def note_lookup(
    wanted: Wanted, snapshot: Snapshot, model_id: str, address: str, records: Records | None = None
) -> bool:
    """Count a lookup of `model_id` by `address` when the model is untested on the newest stack."""
    counted = untested(snapshot, model_id, records)
    return wanted.note(counted, address) if counted else False


def ranking(
    wanted: Wanted, snapshot: Snapshot, records: Records, limit: int = TOP, counted: Iterable[Counted] | None = None
) -> WantedAnswer:
    """The `limit` most looked-up models still untested on the newest stack, with the Hub's downloads and
    what to expect of each there."""
    stack = snapshot.newest
    models: list[WantedModel] = []
    for c in wanted.counted() if counted is None else counted:
        if len(models) >= limit:
            break
        if untested(snapshot, c.model_id) is None:  # tested since it was asked for: no longer wanted
            continue
        record = records.get(c.model_id)
        verdict = "unknown"
        if stack is not None:
            found: Evidence = {
                "base_model": evidence.base_model_evidence(snapshot, records, stack, c.model_id),
                "architecture": evidence.architecture_evidence(snapshot, records, stack, record),
            }
            verdict = expectation(snapshot, records, stack, record, found)["verdict"]
        models.append(
            {
                "model_id": c.model_id,
                "lookups": c.lookups,
                "last_day": c.last_day.isoformat(),
                "downloads": record.downloads if record else None,
                "task": record.task if record else None,
                "expectation": verdict,
            }
        )
    return {
        "stack": stack.as_dict() if stack is not None else None,
        "days": wanted.window_days,
        "persisted": wanted.persisted,
        "models": models,
    }
