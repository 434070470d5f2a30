"""The Gradio half raises the table's refusals (`components/web/errors.py`) as `gr.Error`, in the same words."""

from __future__ import annotations

import gradio as gr

from components.queries.errors import ArgumentRefused
from components.web.gradio.errors import REFUSALS, gradio_error


def test_a_refusal_is_gradios_error_in_its_own_words_with_no_traceback():
    error = gradio_error(ArgumentRefused("parameter 'task' is 'x'; the data has the tasks \"\" (all tasks)"))
    assert isinstance(error, gr.Error)
    assert error.message == "parameter 'task' is 'x'; the data has the tasks \"\" (all tasks)"
    assert error.print_exception is False
    assert ArgumentRefused in REFUSALS
