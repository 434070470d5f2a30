"""A dropdown that picks one whole stack (compiler and library version), as the Compare and Charts
tabs use it. A value names its stack exactly, so a choice survives a refresh of the data."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from components.sources.snapshot import Snapshot, Stack
from components.sources.stacks import stack_label


def stack_value(stack: Stack) -> str:
    """The picker value of one stack: `neuronx_cc=…&library=…&library_version=…`."""
    return urlencode(
        {"neuronx_cc": stack.neuronx_cc, "library": stack.library, "library_version": stack.library_version}
    )


def stack_from_value(snapshot: Snapshot, value: str | None) -> Stack | None:
    """The stack a picker value names, or None when it is empty or no longer in the data."""
    fields = dict(parse_qsl(value or ""))
    key = (fields.get("neuronx_cc"), fields.get("library"), fields.get("library_version"))
    return next((s for s in snapshot.stacks if s.key == key), None)


def stack_choices(snapshot: Snapshot) -> list[tuple[str, str]]:
    """Every stack, newest first, as (label, value): `neuronx-cc 2.28.7631.0 · transformers 4.57.1`."""
    return [(stack_label(s) + (" (newest)" if i == 0 else ""), stack_value(s)) for i, s in enumerate(snapshot.stacks)]
