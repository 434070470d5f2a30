"""An Atom 1.0 feed of the untested models people look up most (`GET /wanted.atom`), in the family of the
result-change feed (`feed.py`): one entry per model, its id a tag URI of the model alone, updated on the
last day it was looked up."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from urllib.parse import quote, urlencode

from components.queries.answers import WantedAnswer
from components.queries.feed import ATOM, EPOCH, TAG, TITLE, _q, _rfc3339, _text


def _day(iso: str) -> datetime:
    return datetime.fromisoformat(iso).replace(tzinfo=UTC)


def wanted_feed(answer: WantedAnswer, base_url: str) -> bytes:
    """The Atom document (UTF-8 bytes) of `answer` (`wanted.ranking`), its links absolute from `base_url`."""
    base = base_url.rstrip("/")
    ET.register_namespace("", ATOM)
    root = ET.Element(_q("feed"))
    _text(root, "id", f"{TAG}:wanted")
    _text(root, "title", f"{TITLE}: untested models people look up")
    _text(root, "subtitle", "Models with no row on the newest stack, most looked up first (each address once a day).")
    models = answer["models"]
    _text(root, "updated", _rfc3339(max((_day(m["last_day"]) for m in models), default=EPOCH)))
    author = ET.SubElement(root, _q("author"))
    _text(author, "name", TITLE)
    ET.SubElement(root, _q("link"), rel="self", type="application/atom+xml", href=f"{base}/wanted.atom")
    ET.SubElement(root, _q("link"), rel="alternate", type="text/html", href=f"{base}/wanted")
    for rank, m in enumerate(models, 1):
        entry = ET.SubElement(root, _q("entry"))
        _text(entry, "id", f"{TAG}:wanted:{quote(m['model_id'], safe='/-._~')}")
        _text(entry, "title", f"#{rank} {m['model_id']}: {m['lookups']} lookups, {m['expectation']}")
        _text(entry, "updated", _rfc3339(_day(m["last_day"])))
        page = f"{base}/?{urlencode({'model': m['model_id']})}"
        ET.SubElement(entry, _q("link"), rel="alternate", type="text/html", href=page)
        downloads = f"{m['downloads']:,} Hub downloads" if m["downloads"] is not None else "Hub downloads unknown"
        _text(entry, "summary", f"Looked up by {m['lookups']} askers in {answer['days']} days; {downloads}; "
              f"expected on the newest stack: {m['expectation']}.")  # fmt: skip
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
