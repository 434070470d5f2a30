"""The "Failures" page (`/failures`): a stack picker and the stack's FAILs grouped by cause, the cause that blocks
the most models first (drawn by `web/html/failures.py`).

The page reads `?neuronx_cc=V&transformers=V` (or `library=L&library_version=V`) and `cause=SIGNATURE` (that
cause opened): the Models page links here with them.
"""

from __future__ import annotations

from collections.abc import Callable

import gradio as gr
from markupsafe import Markup

from components.domain.stacks import PICKER_PARTS, StackRef, picker_choices
from components.queries import failures
from components.runtime import settings
from components.sources.app_sources import Sources
from components.sources.snapshot import Snapshot, Stack
from components.web.gradio.pages.wiring import ADDRESS_JS, PAGE_EVENT, answering, by_name
from components.web.html.failures import CSS, failures_html

INTRO = (
    "Every FAIL on the stack grouped by **cause**: its `NCC_…` compiler code or `NRT_…` runtime status where the "
    "error has one, else its exception type, and its error line, where models whose lines differ only in "
    "run-to-run details (numbers, sizes, core ids, addresses, paths) share a cause. Each cause shows the error "
    "line of its first model. The causes blocking the most models come first. *First seen*: the oldest stack "
    "of the same library where the cause blocked a model. *Fixed in*: newer stacks of that library where some "
    "of its models pass."
)


class FailuresPage:
    """The page's handlers: inputs by picker name, answers by component name (see `wiring.py`)."""

    def __init__(self, sources: Sources):
        self.sources = sources

    def layout(self) -> None:
        gr.Markdown(INTRO, elem_classes=["hint"])
        self.stack = gr.Dropdown(label=f"Stack: {PICKER_PARTS}", elem_id="failures-stack", min_width=260)
        self.result = gr.HTML(elem_id="failures-result", css_template=CSS)

    def on_open(self, request: gr.Request | None = None, stack: str | None = None) -> dict:
        """Fill the stack picker (from the address's stack, else the choice kept, else the newest) and draw."""
        snapshot = self.sources.now().snapshot
        params = dict(request.query_params) if request is not None else {}
        asked = StackRef.from_params(params)
        chosen = snapshot.stack_or_default(asked.neuronx_cc, asked.spec) if asked.neuronx_cc or asked.spec else None
        chosen = chosen or snapshot.picker_stack(stack, snapshot.newest)
        picker = gr.update(choices=picker_choices(snapshot.stacks), value=chosen.picker_value if chosen else None)
        opened = str(params.get("cause") or "")[: settings.CAUSE_PARAM.value]
        return {"stack": picker, "result": self._draw(snapshot, chosen, opened)}

    def on_stack(self, stack: str | None = None) -> dict:
        snapshot = self.sources.now().snapshot
        return {"result": self._draw(snapshot, snapshot.picker_stack(stack, snapshot.newest))}

    @staticmethod
    def _draw(snapshot: Snapshot, stack: Stack | None, opened: str = "") -> Markup:
        return failures_html(failures.failures(snapshot, stack), stack, opened)


def build(opened: Callable, sources: Sources) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`) and wire its events; `opened` is the
    page's load event (`demo.load`), which fills it."""
    tab = FailuresPage(sources)
    tab.layout()
    picker = by_name(tab, ("stack",))
    opened(answering(tab, tab.on_open), inputs_kwargs=picker, outputs=[tab.stack, tab.result], **PAGE_EVENT)
    tab.stack.input(answering(tab, tab.on_stack), inputs_kwargs=picker, outputs=[tab.result],
                    trigger_mode="always_last", **PAGE_EVENT)  # fmt: skip
    # no component of its own for the link: every page's layout rides on the first page's config
    tab.result.change(None, tab.result, None, js=ADDRESS_JS, **PAGE_EVENT)
