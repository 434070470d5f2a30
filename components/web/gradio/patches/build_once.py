"""The page's server app is built once, not once per `with` block.

Gradio builds a whole server app (~100 routes, each analysed by FastAPI) at the end of every `with` block
of a Blocks: the page's own, and again for each `demo.route()` page, since a route re-enters the same
Blocks. This app has seven such blocks, and `launch()` then builds the app it serves: the first six
apps are thrown away, ~0.45 s of a ~3.3 s start here; `queue()` builds one more, which `launch()`
replaces at once. Within `building()`, closing a block records the
app it asks for instead of building it; on leaving, each Blocks gets the one app Gradio would have left
it with, built from its final state, as its last `with` block would have built it.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager

from gradio import blocks, routes

from components.web.gradio.errors import PatchMismatch
from components.web.gradio.patches.guard import Patch, apply_patch, need, need_assigned, source_of

CALL = "App.create_app(self, mcp_server=False)"


def check() -> None:
    need(blocks, "App.create_app", "Blocks.__exit__")
    if not isinstance(inspect.getattr_static(blocks.App, "create_app"), staticmethod):
        raise PatchMismatch("App.create_app is no longer a staticmethod")
    if blocks.App is not routes.App:
        raise PatchMismatch("gradio.blocks.App is no longer gradio.routes.App")
    need_assigned(blocks.Blocks.__exit__, "app")
    if CALL not in source_of(blocks.Blocks.__exit__):
        raise PatchMismatch(f"Blocks.__exit__ no longer calls {CALL}")


def apply() -> bool:
    return True


PATCH = Patch("build_once", check, apply)


@contextmanager
def building(launch_next: bool = False) -> Iterator[None]:
    """Lay out a page inside: its Blocks' server app is built once, on leaving (or as Gradio builds it, at
    every block's end, where the patch stands down).

    `launch_next`: what is done inside (`queue()`, which builds an app too) is followed at once by
    `launch()`, which builds the app it serves; each Blocks keeps the app it had, and none is built."""
    if not apply_patch(PATCH):
        yield
        return
    real = blocks.App
    asked: dict[int, tuple[blocks.Blocks, dict]] = {}
    had: dict[int, object] = {}

    class Deferred(real):  # type: ignore[misc, valid-type]  # a subclass of the class found at run time
        @staticmethod
        def create_app(block, *args, **kwargs):  # noqa: ANN001 - Gradio's own signature
            if args:  # not the call this patch was written for: built as Gradio builds it
                return real.create_app(block, *args, **kwargs)
            had.setdefault(id(block), getattr(block, "app", None))
            asked[id(block)] = (block, kwargs)
            return had[id(block)] if launch_next else None

    blocks.App = Deferred  # type: ignore[misc]  # the patch: Blocks.__exit__ builds from this name
    try:
        yield
    finally:
        blocks.App = real  # type: ignore[misc]  # Gradio's own, put back
    for key, (block, kwargs) in asked.items():  # only when the layout succeeded
        block.app = had[key] if launch_next else real.create_app(block, **kwargs)  # type: ignore[assignment]  # what Gradio left it
