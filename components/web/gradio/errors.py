"""The Gradio half's errors: a named endpoint's refusal raised as Gradio's error, in the words and for the types
`components/web/errors.py`'s one table gives (the HTTP half's `/api/v1` answers the same refusals with the
statuses there), and the patches' `PatchMismatch`.
"""

from __future__ import annotations

import gradio as gr

from components.web.errors import GRADIO_REFUSED, answer_of

# What a named endpoint raises for its caller to read (a value it does not take, a stack not in the data).
REFUSALS = GRADIO_REFUSED


class PatchMismatch(RuntimeError):
    """What a patch relies on is not there (or not as it was written for): the patch stands down
    (`patches/guard.py`)."""


def gradio_error(refused: BaseException) -> gr.Error:
    """The `gr.Error` a refusal of `REFUSALS` is raised as: its words, shown to the caller, no traceback logged."""
    _, words = answer_of(refused)
    return gr.Error(words, print_exception=False)
