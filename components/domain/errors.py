"""The domain's errors: what the data side raises when a thing asked for is not in the data.

Each message is written for the caller to read; `components/web/errors.py` maps each to its HTTP status and to
how the Gradio half raises it.
"""

from __future__ import annotations

from collections.abc import Sequence


class UnknownStack(ValueError):
    """A stack was asked for that is not in the data; the message names the known stacks (`stacks.resolve`
    raises it, with `asked` its label and `known` each known stack as the message names it)."""

    def __init__(self, neuronx_cc: str, library_version: str, asked: str, known: Sequence[str]):
        self.neuronx_cc = neuronx_cc
        self.library_version = library_version
        self.asked = asked
        names = "; ".join(known) or "none (no data is loaded)"
        super().__init__(f"No tested stack matches {self.asked}. Known stacks: {names}.")
