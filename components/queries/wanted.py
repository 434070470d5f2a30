"""Wanted: the untested models people look up, counted per model and day, and ranked.

A lookup counts when the model has no row on its own stack (opening its link on the Models page, or asking
/lookup, named or /api/v1) and the Hub knows its id: an id not checked yet is held until the records store's
background look-up answers, and listed apart as not checked meanwhile (offline, for as long as it lasts). The counting itself, each address once a model a day, is
`sources/wanted_counts.py`'s; what is persisted, `sources/wanted_store.py`'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from components.queries import evidence
from components.queries.answers import Evidence, WantedAnswer, WantedModel
from components.queries.expectation import expectation
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.records import Records, hub_id
from components.sources.records_store import NOT_ON_HUB
from components.sources.snapshot import Snapshot
from components.sources.wanted_counts import Counted, Wanted

__all__ = ["Counted", "Wanted", "current", "hub_says", "note_lookup", "ranking", "settle", "untested"]


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
    """Count a lookup of `model_id` by `address` when the model is untested on its own stack and the Hub knows
    it (it is in the data, or has a Hub record); an id not checked yet is held until the Hub answers (`settle`),
    one the Hub does not know counts nothing."""
    counted = untested(snapshot, model_id, records)
    if not counted:
        return False
    if snapshot.canonical_model_id(counted):  # run before: the Hub knows it
        return wanted.note(counted, address)
    known = hub_says(records, counted)
    return known is not False and wanted.note(counted, address, checked=known is True)


def hub_says(records: Records | None, model_id: str) -> bool | None:
    """Whether the Hub knows `model_id`, as far as `records` tell: True (a record), False (the Hub said it has no
    such public model), None (not asked yet, or it could not be asked: offline, busy)."""
    if records is None:
        return None
    if records.get(model_id) is not None:
        return True
    return False if records.why_unknown(model_id) == NOT_ON_HUB else None


def settle(wanted: Wanted, records: Records) -> list[Counted]:
    """Count the held lookups of the ids the Hub now knows, forget those it does not; returns the ids still not
    checked (for `RecordsStore.want`: asked in the background, never on a request's path)."""
    for held in wanted.held():
        known = hub_says(records, held.model_id)
        record = records.get(held.model_id)
        if known is True and record is not None:
            wanted.confirm(held.model_id, record.model_id)
        elif known is False:
            wanted.drop(held.model_id)
    return wanted.held()


def current(wanted: Wanted, sources: Sources) -> WantedAnswer:
    """The ranking from what `sources` serve now; the ids not checked yet are queued for a Hub look-up in the
    background (`RecordsStore.want`, which never waits), so a later ranking counts or forgets them."""
    now = sources.now()
    answer = ranking(wanted, now.snapshot, now.records)
    sources.records.want(m["model_id"] for m in answer["not_checked"])
    return answer


def ranking(
    wanted: Wanted,
    snapshot: Snapshot,
    records: Records,
    limit: int = settings.WANTED_TOP.value,
    counted: Iterable[Counted] | None = None,
) -> WantedAnswer:
    """The `limit` most looked-up models still untested on their own stack, with the Hub's downloads and
    what to expect of each there; then the ids looked up that the Hub has not confirmed yet (`settle`)."""
    unchecked = settle(wanted, records)
    models: list[WantedModel] = []
    for c in wanted.counted() if counted is None else counted:
        if len(models) >= limit:
            break
        if untested(snapshot, c.model_id) is None:  # tested since it was asked for: no longer wanted
            continue
        record = records.get(c.model_id)
        verdict = "unknown"
        stack = snapshot.model_stack(c.model_id)
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
    newest = snapshot.newest
    return {
        "stack": newest.as_dict() if newest is not None else None,
        "days": wanted.window_days,
        "persisted": wanted.persisted,
        "models": models,
        "not_checked": [
            {"model_id": c.model_id, "lookups": c.lookups, "last_day": c.last_day.isoformat()}
            for c in unchecked[:limit]
            if untested(snapshot, c.model_id) is not None
        ],
    }
