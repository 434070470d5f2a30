"""The "Grid" page (`/grid`): every architecture of a library across its stacks (drawn by `web/html/grid.py`).

Its first HTML already holds the whole grid (`middleware/first_html.py`), and its controls are a plain GET form,
so it works with scripts off; the live page shows the same content, filled by one load event together with the
notice, so the painted grid swaps for the live one in one frame.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr
from markupsafe import Markup

from components.queries import grid as grid_answer
from components.sources.app_sources import Sources
from components.web.gradio.pages.wiring import PAGE_EVENT
from components.web.html import grid, notice

PATH = grid_answer.PATH


def build(opened: Callable, sources: Sources, header: gr.HTML) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`); `opened` is the page's load event, which fills
    `header` (the notice) and the grid."""
    content = gr.HTML(elem_id="grid-box", css_template=grid.CSS)

    def on_open(request: gr.Request | None = None) -> tuple[Markup, Markup]:
        now = sources.now()
        params = dict(request.query_params) if request is not None else {}
        _, drawn = grid.page_for(now, params)
        return notice.page_header(sources, now), drawn

    opened(on_open, outputs=[header, content], **PAGE_EVENT)
