"""An Atom 1.0 feed of result changes: regressions, fixes and newly tested models between consecutive
stacks of each library, newest first, for feed readers (`GET /feed.atom`).

The changes come from `compare()`, the one comparison of two stacks, and are worked out once per
snapshot. Each entry's id is a tag URI made of the model, the two stacks and the kind of change, so a
reader sees the same entry as the same entry on every fetch; its date is the model's run on the newer stack.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal
from urllib.parse import quote, urlencode

import pandas as pd

from components.domain.results import EXCLUDED
from components.domain.stacks import StackRef
from components.queries import links
from components.queries.compare import compare
from components.runtime import settings
from components.sources.dataset import HUB_REPO
from components.sources.snapshot import Snapshot, Stack

ATOM = "http://www.w3.org/2005/Atom"
TITLE = "torch-neuronx model support"
# A tag URI (RFC 4151) names the dataset, not the host: ids stay the same whatever address serves the feed.
TAG = f"tag:huggingface.co,2026:{HUB_REPO}"
# compare()'s lists that are news, each with its kind (the entry id's part and its category)
KINDS: tuple[tuple[Literal["regressions", "fixes", "added"], str], ...] = (
    ("regressions", "regression"),
    ("fixes", "fix"),
    ("added", "newly-tested"),
)
KIND_ORDER = {kind: i for i, (_, kind) in enumerate(KINDS)}
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Characters XML 1.0 cannot hold, even escaped: a hostile value in the data must not break the document.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class Change:
    """One model's result change between two consecutive stacks of one library."""

    model_id: str
    kind: str  # "regression", "fix" or "newly-tested"
    older: Stack
    newer: Stack
    result_a: str
    result_b: str
    updated: datetime

    @property
    def entry_id(self) -> str:
        parts = (self.kind, self.model_id, self.newer.library, self.older.neuronx_cc, self.older.library_version,
                 self.newer.neuronx_cc, self.newer.library_version)  # fmt: skip
        return f"{TAG}:change:" + ":".join(quote(p, safe="/-._~+") for p in parts)

    @property
    def title(self) -> str:
        where = self.newer.label
        if self.kind == "regression":
            return f"{self.model_id} regressed on {where}: {self.result_a} → {self.result_b}"
        if self.kind == "fix":
            return f"{self.model_id} fixed on {where}: {self.result_a} → {self.result_b}"
        return f"{self.model_id} newly tested on {where}: {self.result_b}"

    @property
    def summary(self) -> str:
        before = f"{self.result_a} on {self.older.label}" if self.kind != "newly-tested" else (
            f"not run on {self.older.label}"
        )  # fmt: skip
        return f"{before}; {self.result_b} on {self.newer.label}."

    def link_query(self) -> str:
        """The deep link's query string: the model on the newer stack."""
        return links.model_on_stack(self.model_id, self.newer)


def consecutive_pairs(snapshot: Snapshot) -> list[tuple[Stack, Stack]]:
    """(older, newer) for each pair of consecutive stacks of one library, newest pair of each library first."""
    pairs = []
    for library in dict.fromkeys(s.library for s in snapshot.stacks):
        mine = [s for s in snapshot.stacks if s.library == library]  # newest first
        pairs += [(mine[i + 1], mine[i]) for i in range(len(mine) - 1)]
    return pairs


def changes(snapshot: Snapshot, limit: int = settings.FEED_ENTRIES.value) -> tuple[Change, ...]:
    """The newest `limit` changes between consecutive stacks of each library, newest first (memoised per
    snapshot). Pairs are worked out newest run first, and only while they can still hold one of them:
    comparing every pair of a large dataset takes seconds."""
    return snapshot.memo(("feed-changes", limit), lambda: _newest(snapshot, limit))


def _newest(snapshot: Snapshot, limit: int) -> tuple[Change, ...]:
    latest = _latest_runs(snapshot)
    found: list[Change] = []
    for older, newer in sorted(consecutive_pairs(snapshot), key=lambda pair: latest[pair[1].ref], reverse=True):
        if len(found) >= limit and latest[newer.ref] < found[limit - 1].updated:
            break  # every change of this pair, and of the pairs after it, is older than the newest `limit`
        found = sorted([*found, *pair_changes(snapshot, older, newer)], key=_order(snapshot))
    return tuple(found[:limit])


def model_changes(snapshot: Snapshot, model_id: str) -> tuple[Change, ...]:
    """Every change of one model (its id as the dataset spells it), newest first: only the pairs where its
    result differs are compared."""
    found: list[Change] = []
    for older, newer in consecutive_pairs(snapshot):
        before, after = snapshot.row_for(model_id, older), snapshot.row_for(model_id, newer)
        if after is None or (before is not None and snapshot.kind[before] == snapshot.kind[after]):
            continue
        found += [c for c in pair_changes(snapshot, older, newer) if c.model_id == model_id]
    return tuple(sorted(found, key=_order(snapshot)))


def pair_changes(snapshot: Snapshot, older: Stack, newer: Stack) -> tuple[Change, ...]:
    """The regressions, fixes and newly tested models from `older` to `newer`, as `compare()` finds them
    (memoised per snapshot); a model only excluded on `newer` is no news."""
    return snapshot.memo(("feed-pair", older.ref, newer.ref), lambda: _pair(snapshot, older, newer))


def _pair(snapshot: Snapshot, older: Stack, newer: Stack) -> tuple[Change, ...]:
    diff = compare(snapshot, older, newer)
    dates = _tested_at(snapshot, newer)
    fallback = _latest_runs(snapshot)[newer.ref]
    found = []
    for name, kind in KINDS:
        for entry in diff[name]:
            if kind == "newly-tested" and entry["kind_b"] == EXCLUDED:
                continue
            model = entry["model_id"]
            found.append(
                Change(model, kind, older, newer, str(entry["result_a"]), str(entry["result_b"]),
                       dates.get(model) or fallback)
            )  # fmt: skip
    return tuple(found)


def _order(snapshot: Snapshot):
    rank = {s.ref: i for i, s in enumerate(snapshot.stacks)}
    return lambda c: (-c.updated.timestamp(), rank[c.newer.ref], KIND_ORDER[c.kind], c.model_id)


def _latest_runs(snapshot: Snapshot) -> dict[StackRef, datetime]:
    """Each stack's newest run (the dataset's newest date, else the epoch, for a stack without dates)."""

    def latest() -> dict[StackRef, datetime]:
        fallback = snapshot.provenance.newest_tested_at or EPOCH
        found: dict[StackRef, datetime] = {}
        if not len(snapshot):
            return found
        times = pd.to_datetime(snapshot.rows["tested_at"], utc=True, errors="coerce")
        for stack in snapshot.stacks:
            newest = times.iloc[snapshot.stack_positions(stack)].max()
            found[stack.ref] = fallback if pd.isna(newest) else newest.to_pydatetime()
        return found

    return snapshot.memo(("feed-latest-runs",), latest)


def _tested_at(snapshot: Snapshot, stack: Stack) -> dict[str, datetime]:
    """model_id → when it was run on `stack` (models without a date are left out)."""
    positions = snapshot.stack_positions(stack)
    models = snapshot.rows["model_id"].iloc[positions].to_numpy(dtype=object)
    times = pd.to_datetime(snapshot.rows["tested_at"].iloc[positions], utc=True, errors="coerce")
    return {str(m): t.to_pydatetime() for m, t in zip(models, times) if not pd.isna(t)}


def feed(
    snapshot: Snapshot, base_url: str, model_id: str | None = None, limit: int = settings.FEED_ENTRIES.value
) -> bytes:
    """The Atom document (UTF-8 bytes): at most `limit` changes, newest first, of every model or of
    `model_id` only (a model without changes gives a feed without entries). `base_url` is the app's
    public address (`https://owner-space.hf.space`), from which every link is made absolute."""
    base = base_url.rstrip("/")
    canonical = snapshot.canonical_model_id(model_id) if model_id else None
    if model_id:
        chosen = model_changes(snapshot, canonical)[:limit] if canonical else ()
    else:
        chosen = changes(snapshot, limit)
    ET.register_namespace("", ATOM)
    root = ET.Element(_q("feed"))
    name = canonical or model_id
    _text(root, "id", f"{TAG}:feed" + (":" + quote(name, safe="/-._~") if name else ""))
    _text(root, "title", f"{TITLE}: result changes" + (f" of {name}" if name else ""))
    _text(root, "subtitle", "Regressions, fixes and newly tested models between consecutive stacks of each library.")
    newest = chosen[0].updated if chosen else (snapshot.provenance.newest_tested_at or EPOCH)
    _text(root, "updated", _rfc3339(newest))
    author = ET.SubElement(root, _q("author"))
    _text(author, "name", TITLE)
    self_query = f"?{urlencode({'model': name})}" if name else ""
    ET.SubElement(root, _q("link"), rel="self", type="application/atom+xml", href=f"{base}/feed.atom{self_query}")
    page = f"{base}/?{urlencode({'model': name})}" if name else f"{base}/"
    ET.SubElement(root, _q("link"), rel="alternate", type="text/html", href=page)
    for change in chosen:
        entry = ET.SubElement(root, _q("entry"))
        _text(entry, "id", change.entry_id)
        _text(entry, "title", change.title)
        _text(entry, "updated", _rfc3339(change.updated))
        ET.SubElement(entry, _q("link"), rel="alternate", type="text/html", href=f"{base}/?{change.link_query()}")
        ET.SubElement(entry, _q("category"), term=change.kind)
        _text(entry, "summary", change.summary)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _q(tag: str) -> str:
    return f"{{{ATOM}}}{tag}"


def _text(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, _q(tag))
    element.text = _NOT_XML.sub("\ufffd", text)
    return element


def _rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
