"""Deep links: `?model=ID&neuronx_cc=V&transformers=V&view=V&task=T&q=TEXT&size=MIN-MAX` ⇄ the page's state."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from components.domain.stacks import library_spec, split_spec
from components.queries.views import SELECTED, Query, normalise
from components.sources.records import hub_id
from components.sources.snapshot import Snapshot, Stack

MAX_VALUE = 200


@dataclass(frozen=True)
class PageState:
    query: Query
    model: str = ""


def parse(params: Mapping[str, str], snapshot: Snapshot, tasks: Collection[str] | None = None) -> PageState:
    """Read a link's parameters; any missing, unknown, hostile or huge value falls back to the default,
    except a well-formed Hub model id that is not in the data: the page then says it was not tested and
    gives the evidence. `tasks`: the tasks on offer (default: any well-formed task)."""

    def get(name: str) -> str:
        value = params.get(name) if params else None
        return value[:MAX_VALUE] if isinstance(value, str) else ""

    # `transformers=V` names a Transformers version (the first library); `library=L` another library,
    # with its version in `library_version=V` (or none: its newest version on the compiler)
    library, version = get("library").strip(), (get("library_version") or get("transformers")).strip()
    spec = library_spec(library, version)
    query = normalise(get("q"), get("view") or SELECTED, get("task"), get("neuronx_cc"), spec, get("size"))
    if tasks is not None and query.task not in tasks:
        query = replace(query, task="")
    stack = snapshot.stack_or_default(query.neuronx_cc, query.library_version)
    if stack is not None:
        query = replace(query, neuronx_cc=stack.neuronx_cc, library_version=stack.spec)
    # a Hub id not in the data gets the same "not tested" answer as /lookup; anything else is not a model
    model = snapshot.canonical_model_id(get("model")) or hub_id(get("model")) or ""
    return PageState(query, model)


def model_on_stack(model_id: str, stack: Stack) -> str:
    """The query string (without `?`) that opens `model_id` on `stack` in the Models page."""
    return build(PageState(Query(neuronx_cc=stack.neuronx_cc, library_version=stack.spec), model_id))


def build(state: PageState) -> str:
    """The query string (without `?`) for a state; defaults are left out to keep links short."""
    q = state.query
    pairs = [
        ("model", state.model),
        ("view", q.view if q.view != SELECTED else ""),
        ("task", q.task),
        ("q", q.text),
        ("size", q.size),
        ("neuronx_cc", q.neuronx_cc),
    ]
    library, version = split_spec(q.library_version)
    pairs += [("library", library), ("library_version", version)] if library else [("transformers", version)]
    return urlencode([(k, v) for k, v in pairs if v])
