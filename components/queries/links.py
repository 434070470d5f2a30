"""Addresses: deep links (`?model=ID&neuronx_cc=V&transformers=V&view=V&task=T&q=TEXT&size=MIN-MAX&sort=KEY`
⇄ the page's state), a model's page on the Hub, and the app's own public address."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from components.domain.errors import UnknownStack
from components.domain.stacks import StackRef, names_stack
from components.queries import ordering, views
from components.queries.views import DEFAULT, Query, normalise
from components.runtime import environment, settings
from components.sources.rankings import Rankings
from components.sources.records import Records, hub_address, hub_id
from components.sources.snapshot import Snapshot, Stack

HUB = "https://huggingface.co"
# every parameter a link to the Models page may carry (`build` writes them, `parse` and `StackRef` read them)
LINK_PARAMS = ("model", "view", "task", "q", "size", "sort", "neuronx_cc", "library", "library_version", "transformers",
               "architecture")  # fmt: skip
# What a host may be: a name or an IPv4/IPv6 address, and a port. Anything else is not echoed into links.
HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?")


@dataclass(frozen=True)
class PageState:
    """What the Models page shows: the query (its stack always resolved), the model opened, and, when a
    link asked for a stack the data lacks, what was asked for and the known stacks (`UnknownStack`'s words)."""

    query: Query
    model: str = ""
    unknown_stack: str = ""
    sort: str = ""  # the table's column order (`ordering`), "" for the view's own


def opened(params: Mapping[str, str], snapshot: Snapshot, rankings: Rankings, records: Records | None) -> PageState:
    """The state a link opens on the Models page: `parse()` with the tasks on offer, then a task the view
    offers (a ranked view shows one ranked task at a time). The live page and the first response both
    open a link through here, so the rows painted first are the rows the page then shows."""
    state = parse(params, snapshot, views.task_choices(snapshot, rankings, records))
    tasks = views.view_tasks(snapshot, rankings, records, state.query.view)
    task = state.query.task if state.query.task in tasks else tasks[0]
    return replace(state, query=replace(state.query, task=task))


def parse(params: Mapping[str, str], snapshot: Snapshot, tasks: Collection[str] | None = None) -> PageState:
    """Read a link's parameters; any missing, unknown, hostile or huge value falls back to the default,
    except a well-formed Hub model id that is not in the data: the page then says it was not tested and
    gives the evidence. `tasks`: the tasks on offer (default: any well-formed task)."""

    def get(name: str) -> str:
        value = params.get(name) if params else None
        return value[: settings.LINK_VALUE.value] if isinstance(value, str) else ""

    asked = StackRef.from_params(params)
    query = normalise(
        get("q"), get("view") or DEFAULT, get("task"), asked.neuronx_cc, asked.spec, get("size"), get("architecture")
    )
    if tasks is not None and query.task not in tasks:
        query = replace(query, task="")
    # a Hub id not in the data gets the same "not tested" answer as /lookup; anything else is not a model
    model = model_in_data(snapshot, get("model"))
    stack, unknown = page_stack(snapshot, model, query.neuronx_cc, query.library_version)
    if stack is not None:
        query = replace(query, neuronx_cc=stack.neuronx_cc, library_version=stack.spec)
    elif not unknown:  # no stack named: every library (`views.select`), the model on its own stack
        query = replace(query, neuronx_cc="", library_version="")
    return PageState(query, model, unknown, sort=ordering.parse(get("sort")).param)


def page_stack(snapshot: Snapshot, model: str, neuronx_cc: str, library_version: str) -> tuple[Stack | None, str]:
    """The stack a link opens (None when it names none: the table covers every library and a model answers on its
    own stack) and, for a stack the data lacks, `UnknownStack`'s words (else ""). A link with a model and an
    unknown stack opens the model's own stack (`Snapshot.model_stack`, as /lookup answers); without a model, an
    unknown stack falls back as a person's choice does (`stacks.resolve_or_default`)."""
    if not names_stack(neuronx_cc, library_version):
        return None, ""
    try:
        return snapshot.resolve_stack(neuronx_cc, library_version), ""
    except UnknownStack as unknown:
        fallback = snapshot.model_stack(model) if model else snapshot.stack_or_default(neuronx_cc, library_version)
        return fallback, str(unknown)


def model_of(link: str) -> str:
    """The `model=` of a link to the Models page (a query string or a whole address), at most `LINK_VALUE`
    characters; "" for none. It is the browser's text: `model_in_data` says which model it names."""
    return _param(link, "model")


def sort_of(link: str) -> str:
    """The `sort=` of a link to the Models page, as `ordering` reads it ("" for the view's own order)."""
    return ordering.parse(_param(link, "sort")).param


def _param(link: str, name: str) -> str:
    query = urlsplit(link).query if "?" in link or "://" in link else link.lstrip("?")
    return dict(parse_qsl(query[: 8 * settings.LINK_VALUE.value])).get(name, "")[: settings.LINK_VALUE.value]


def model_in_data(snapshot: Snapshot, asked: str) -> str:
    """The model `asked` names, as a link's `model=` is read (`parse`): its id in the data, else a well-formed
    Hub id (a model that was not tested; a model's Hub address is its id), else ""."""
    named = hub_id(asked) if hub_address(asked) else asked
    return snapshot.canonical_model_id(named or "") or hub_id(named) or ""


def model_on_stack(model_id: str, stack: StackRef) -> str:
    """The query string (without `?`) that opens `model_id` on `stack` in the Models page."""
    return build(PageState(Query(neuronx_cc=stack.neuronx_cc, library_version=stack.spec), model_id))


def build(state: PageState) -> str:
    """The query string (without `?`) for a state; defaults are left out to keep links short."""
    q = state.query
    pairs = [
        ("model", state.model),
        ("view", q.view if q.view != DEFAULT else ""),
        ("task", q.task),
        ("q", q.text),
        ("size", q.size),
        ("architecture", q.architecture),
        ("sort", state.sort),
        *StackRef.asked(q.neuronx_cc, q.library_version).params(),
    ]
    return urlencode([(k, v) for k, v in pairs if v])


def model_url(model_id: str) -> str:
    """The model's page on the Hub."""
    return f"{HUB}/{quote(str(model_id), safe='/')}"


def public_url(request) -> str:
    """The app's address as the person or program calling it sees it (`https://owner-space.hf.space`), without
    a trailing slash: the request's scheme and `Host` (`localhost` when not a host name), which the server has
    set to the app's own origin (`web/middleware/origin.py`); no forwarding header is read.
    `request` is a Starlette request (its headers, url and scope are read)."""
    scheme = request.url.scheme if request.url.scheme in ("http", "https") else "http"
    host = request.headers.get("host", "")
    if not HOST.fullmatch(host):
        host = "localhost"
    root = str(request.scope.get("root_path") or "").rstrip("/")
    return f"{scheme}://{host}{quote(root)}"


def space_url() -> str | None:
    """The app's public address from env `SPACE_HOST` (set on a Hugging Face Space), or None when it is not
    set or not a plain host name: a report's link back must work from GitHub, so a relative one is no use."""
    host = environment.SPACE_HOST.get()
    return f"https://{host}" if HOST.fullmatch(host) else None
