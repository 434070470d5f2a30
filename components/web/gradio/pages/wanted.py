"""The "Wanted" page (`/wanted`): the untested models people look up most, for the dataset's maintainers to
pick what to test next. Filled on load from the same answer as GET /api/v1/wanted."""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr

from components.queries import wanted
from components.sources import wanted_store
from components.sources.app_sources import Sources
from components.web.gradio.pages.wiring import PAGE_EVENT
from components.web.html.wanted import wanted_html


def build(opened: Callable, sources: Sources, counts: wanted.Wanted | None = None) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`); `opened` is the page's load event."""
    counts = counts if counts is not None else wanted_store.shared()
    result = gr.HTML(elem_id="wanted-result")

    def on_open() -> str:
        return wanted_html(wanted.current(counts, sources))

    opened(on_open, outputs=[result], **PAGE_EVENT)
