"""An Atom 1.0 feed of the support grid's changes (`GET /grid.atom`), in the family of the result-change feed
(`feed.py`): an architecture that starts working on a stack (its cell passes, and its nearest older tested cell
did not) or regresses there (a model of it fails where it passed on the nearest older stack it ran on), per
library, newest first. Each entry's id is a tag URI of the change, the library, the architecture and the stack, so
a reader sees the same entry as the same entry on every fetch; its date is the stack's newest run."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote, urlencode

from components.domain.stacks import StackRef
from components.queries import grid
from components.queries.answers import GridStack
from components.queries.feed import ATOM, EPOCH, TAG, TITLE, _latest_runs, _q, _rfc3339, _text
from components.runtime import settings
from components.sources.records import Records
from components.sources.snapshot import Snapshot

FEED_PATH = "/grid.atom"


@dataclass(frozen=True)
class GridChange:
    """One architecture that started working, or regressed, on one stack of a library."""

    kind: str  # "works" or "regressed"
    library: str
    architecture: str
    stack: GridStack
    regressed: int  # how many of its models regressed there
    updated: datetime

    @property
    def ref(self) -> StackRef:
        return StackRef(self.stack["neuronx_cc"], self.library, self.stack["library_version"])

    @property
    def entry_id(self) -> str:
        parts = (self.kind, self.library, self.architecture, self.stack["neuronx_cc"], self.stack["library_version"])
        return f"{TAG}:grid:" + ":".join(quote(p, safe="/-._~+") for p in parts)

    @property
    def title(self) -> str:
        if self.kind == "works":
            return f"{self.architecture} works on {self.ref.label}"
        return f"{self.architecture} regressed on {self.ref.label}: {self.regressed} of its models"


def changes(snapshot: Snapshot, records: Records, limit: int = settings.FEED_ENTRIES.value) -> tuple[GridChange, ...]:
    """The newest `limit` changes of every library's grid, newest first (memoised per snapshot and records)."""

    def compute() -> tuple[GridChange, ...]:
        latest = _latest_runs(snapshot)
        found: list[GridChange] = []
        for library in grid.libraries(snapshot):
            answer = grid.grid(snapshot, records, library)
            for row in answer["rows"]:
                found += _row_changes(library, row, answer["stacks"], latest)
        order = {s.ref: i for i, s in enumerate(snapshot.stacks)}  # newest first
        found.sort(key=lambda c: (-c.updated.timestamp(), order.get(c.ref, 0), c.kind, c.architecture))
        return tuple(found[:limit])

    return snapshot.memo(("grid-feed", records.serial, limit), compute)


def _row_changes(library: str, row, stacks: list[GridStack], latest: dict[StackRef, datetime]) -> list[GridChange]:
    found = []
    before = None  # the status of the nearest older tested cell
    for j, cell in enumerate(row["cells"]):
        stack = stacks[j]
        when = latest.get(StackRef(stack["neuronx_cc"], library, stack["library_version"]), EPOCH)
        if cell["regressed"]:
            found.append(GridChange("regressed", library, row["architecture"], stack, cell["regressed"], when))
        if cell["status"] == "pass" and before not in (None, "pass"):
            found.append(GridChange("works", library, row["architecture"], stack, 0, when))
        if cell["status"] != grid.UNTESTED:
            before = cell["status"]
    return found


def grid_feed(snapshot: Snapshot, records: Records, base_url: str, limit: int = settings.FEED_ENTRIES.value) -> bytes:
    """The Atom document (UTF-8 bytes): at most `limit` changes, newest first; `base_url` is the app's public
    address, from which every link is made absolute."""
    base = base_url.rstrip("/")
    chosen = changes(snapshot, records, limit)
    ET.register_namespace("", ATOM)
    root = ET.Element(_q("feed"))
    _text(root, "id", f"{TAG}:grid")
    _text(root, "title", f"{TITLE}: architectures that start working or regress")
    _text(root, "subtitle", "The support grid's changes: an architecture passing on a stack where it did not before, "
          "or a model of it failing where it passed on the stack before it ran on.")  # fmt: skip
    _text(root, "updated", _rfc3339(chosen[0].updated if chosen else (snapshot.provenance.newest_tested_at or EPOCH)))
    author = ET.SubElement(root, _q("author"))
    _text(author, "name", TITLE)
    ET.SubElement(root, _q("link"), rel="self", type="application/atom+xml", href=f"{base}{FEED_PATH}")
    ET.SubElement(root, _q("link"), rel="alternate", type="text/html", href=f"{base}/grid")
    for change in chosen:
        entry = ET.SubElement(root, _q("entry"))
        _text(entry, "id", change.entry_id)
        _text(entry, "title", change.title)
        _text(entry, "updated", _rfc3339(change.updated))
        query = urlencode([("architecture", change.architecture), *change.ref.params()])
        ET.SubElement(entry, _q("link"), rel="alternate", type="text/html", href=f"{base}/?{query}")
        ET.SubElement(entry, _q("category"), term=change.kind)
        _text(entry, "summary", f"{change.title}. Its row: {base}/grid?{urlencode({'library': change.library})}")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
