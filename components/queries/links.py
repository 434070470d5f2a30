"""Deep links: `?model=ID&neuronx_cc=V&transformers=V&view=V&task=T&q=TEXT` ⇄ the page's state."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from components.queries.views import SELECTED, Query, normalise
from components.sources.snapshot import Snapshot
from components.sources.stacks import library_spec

MAX_VALUE = 200
# what a Hub model id can be: `owner/name` (or a bare legacy name), letters, digits, `-`, `_`, `.`
HUB_ID = re.compile(r"[\w.-]{1,96}(?:/[\w.-]{1,96})?", re.ASCII)


@dataclass(frozen=True)
class PageState:
    query: Query
    model: str = ""


def parse(params: Mapping[str, str], snapshot: Snapshot) -> PageState:
    """Read a link's parameters; any missing, unknown, hostile or huge value falls back to the default,
    except a well-formed model id that is not in the data: the page then says it was not tested."""

    def get(name: str) -> str:
        value = params.get(name) if params else None
        return value[:MAX_VALUE] if isinstance(value, str) else ""

    query = normalise(get("q"), get("view") or SELECTED, get("task"), get("neuronx_cc"), get("transformers"))
    stack = snapshot.stack_or_default(query.neuronx_cc, query.library_version)
    if stack is not None:
        query = Query(query.text, query.view, query.task, stack.neuronx_cc, library_spec(stack))
    asked = get("model").strip()
    # a Hub id not in the data gets the same "not tested" answer as /lookup; anything else is not a model
    model = snapshot.canonical_model_id(asked) or (asked if HUB_ID.fullmatch(asked) else "")
    return PageState(query, model)


def build(state: PageState) -> str:
    """The query string (without `?`) for a state; defaults are left out to keep links short."""
    q = state.query
    pairs = [
        ("model", state.model),
        ("view", q.view if q.view != SELECTED else ""),
        ("task", q.task),
        ("q", q.text),
        ("neuronx_cc", q.neuronx_cc),
        ("transformers", q.library_version),
    ]
    return urlencode([(k, v) for k, v in pairs if v])
