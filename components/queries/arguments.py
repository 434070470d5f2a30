"""What the endpoints take: a call's values checked before an answer is made, each refusal a message naming the
value and what is taken. The named endpoints (gradio_client, MCP) and `GET /api/v1` run these same checks
(`queries/api.py`), so a program reads the same words either way, and a typo is never answered
with the default (Selected for a misspelt view, every task for a misspelt task, "" for a missing model).
"""

from __future__ import annotations

from collections.abc import Sequence

from components.queries import views
from components.queries.errors import ArgumentRefused
from components.runtime import settings
from components.sources.rankings import Rankings
from components.sources.records import OTHER_REPOS, Records, hub_address, hub_id
from components.sources.snapshot import Snapshot

EXAMPLE_ID = "Qwen/Qwen3-0.6B"


def quoted(value: object) -> str:
    """A refused value as a message quotes it: cut short, control characters escaped."""
    text = value if isinstance(value, str) else str(value)
    return repr(text[: settings.REFUSED_VALUE_SHOWN.value]) + (
        "…" if len(text) > settings.REFUSED_VALUE_SHOWN.value else ""
    )


def view(value: object) -> str:
    """The view asked for, one of `views.VIEWS` ("" is the default, Selected); raises ArgumentRefused for any other
    text."""
    text = str(value or "").strip().lower()
    if text and text not in views.VIEWS:
        raise ArgumentRefused(f"parameter 'view' is {quoted(value)}; use one of {', '.join(views.VIEWS)}")
    return text or views.DEFAULT


def task(value: object, offered: Sequence[str], where: str) -> str:
    """The task asked for, one of `offered` (the tasks in the data; "" among them where it means all tasks);
    raises ArgumentRefused naming them for any other. `where` names what offers them ("the selected view")."""
    text = str(value or "").strip().lower()
    if text and text not in offered:
        names = ", ".join('"" (all tasks)' if t == "" else t for t in offered)
        raise ArgumentRefused(f"parameter 'task' is {quoted(value)}; {where} has the tasks {names}")
    return text


def view_task(snapshot: Snapshot, rankings: Rankings, records: Records | None, view_name: str, value: object) -> str:
    """The task asked for in `view_name` (checked with `view`): one the view offers (`views.view_tasks`); ""
    is every task in Selected and the first ranked task in Trending and Downloads."""
    return task(value, views.view_tasks(snapshot, rankings, records, view_name), f"the {view_name} view")


def model_id(value: object, snapshot: Snapshot) -> str:
    """The model asked for: a model in the data (whatever its spelling: the page opens it too), or text that can be
    a Hub model id (`records.hub_id`; a well-formed id with no row is answered "not tested"), a model's Hub address
    being its id (`records.hub_address`); raises ArgumentRefused for any other text, a Space's or dataset's address among it."""
    address = hub_address(value)
    if address is not None and address.kind in OTHER_REPOS:
        raise ArgumentRefused(
            f"model {quoted(value)} is the address of {OTHER_REPOS[address.kind]}, not of a model; give a model's id "
            f"or its Hub address, such as {EXAMPLE_ID} or https://huggingface.co/{EXAMPLE_ID}"
        )
    if address is not None and hub_id(value) is not None:
        return str(hub_id(value))
    if hub_id(value) is None and not (isinstance(value, str) and snapshot.canonical_model_id(" ".join(value.split()))):
        given = quoted(value) if isinstance(value, str) and value.strip() else "empty"
        raise ArgumentRefused(f"model {given} cannot be a Hub model id; give one such as {EXAMPLE_ID}")
    return str(value).strip()
