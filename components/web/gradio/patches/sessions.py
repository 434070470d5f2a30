"""Sessions without a copy of the page: Gradio's `SessionState` made lean, and fewer of them kept.

Every plain HTTP call is a new session. Gradio built the config of every block for each (~110 KB here) and
kept the last answer in it: after 1,000 distinct `/search` calls at 200,000 rows, the sessions held ~250 MB,
most of it whole 10,000-row answers no one would read again. That copy serves only Gradio's own share links
(`gr.DeepLinkButton`), which this app does not use (its links are `?model=...`).

The patch: Gradio's `StateHolder` makes its sessions from the name `state_holder.SessionState`; that name
now answers `LeanSessionState`, which sets the attributes Gradio's `__init__` sets but builds each block's
config only when Gradio's share-link route asks for it. The check reads Gradio's `__init__` and stands the
patch down if it sets any attribute this one does not (a new Gradio would otherwise get a session missing it).

An event that answers a `gr.update` makes the session a new component for it; Gradio then built that block's
config twice, for the same share links (`__setitem__`, `_update_config`): the Models page's load event sends ten
updates, and those configs took ~40% of its time on the event loop (p50 6.6 ms a fresh session, 4.0 ms
without them: `python benchmarks/load_event.py`). The lean session keeps the new component and builds its
config with the rest, on demand. The check reads `__setitem__` and stands down unless it still assigns just what this one does.

`ARGSPECS`, a second patch here: the component an update makes for a session is made without re-reading its
constructor. Gradio wraps every component's `__init__` in `component_meta.updateable`, which reads the
constructor's signature with `inspect.getfullargspec` at every call, twice per component (its class's and
`Component`'s): ~40% of what was left of the load event (p50 3.8–4.2 ms a fresh session, 2.4 ms without). A
constructor's signature does not change while the app runs: `component_meta`'s name `inspect` now answers
`MemoizedInspect`, Python's `inspect` with `getfullargspec` remembered per function (a few dozen constructors). Its
check reads `updateable` and stands down unless it still calls `inspect.getfullargspec(fn).args` and reads
nothing else of `inspect`. It is its own patch, standing down on its own: the lean sessions do not need it.

`as_launched()` is not guarded: it sets on the page what `launch()` sets and `mount_gradio_app` does not take
(the number of sessions kept, a memory bound that must hold on any release; and the app id), so that the one
module writing to the page's undocumented attributes is this one.
"""

from __future__ import annotations

import ast
import datetime
import functools
import inspect
import re
import textwrap
import types
from collections.abc import Iterator
from contextlib import contextmanager
from copy import copy
from typing import Any

from gradio import component_meta, state_holder
from gradio.components import State

from components.runtime import environment
from components.web.gradio.errors import PatchMismatch
from components.web.gradio.patches.guard import Patch, assigned, need, need_parameters, source_of

# What Gradio 6.31's `SessionState.__init__` sets: LeanSessionState sets each of them too.
ATTRIBUTES = frozenset({"blocks_config", "config_values", "state_data", "_state_ttl", "is_closed", "STATE_TTL_WHEN_CLOSED"})  # fmt: skip
# Gradio's own class (`object` where it is gone: the module still imports, and the check stands the patch down).
ORIGINAL: Any = getattr(state_holder, "SessionState", object)
# What Gradio 6.31's `SessionState.__setitem__` assigns: LeanSessionState assigns each but the config.
SETITEM = frozenset({"block", "self._state_ttl[key]", "self.state_data[key]", "self.blocks_config.blocks[key]", "self.config_values[key]"})  # fmt: skip


class LeanSessionState(ORIGINAL):
    """Gradio's per-session state without its copy of the page (each block's config, with the last value
    each event sent); built on demand for Gradio's share-link route."""

    def __init__(self, blocks):
        self._page_blocks = blocks.blocks
        self.blocks_config = copy(blocks.default_config)
        self.config_values = {}
        self.state_data = {}
        self._state_ttl = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if environment.GRADIO_IS_E2E_TEST.get() else 3600

    def __setitem__(self, key: int, value: Any) -> None:
        """Gradio's: a State's value with its time to live, or the session's own copy of a block (an update
        made it anew); the block's config is left to `components`."""
        block = self.blocks_config.blocks.get(key)
        if isinstance(block, State):
            self._state_ttl[key] = (block.time_to_live, datetime.datetime.now())
            self.state_data[key] = value
        else:
            self.blocks_config.blocks[key] = value
        self.config_values.pop(key, None)

    def _update_config(self, key: int) -> None:
        """The block's config is built when Gradio's share-link route asks for it (`components`)."""
        self.config_values.pop(key, None)

    def _update_value_in_config(self, key: int, value: object) -> None:
        """Gradio's share links are not used: the value an event sent is not kept."""

    @property
    def components(self) -> Iterator[dict]:
        for key, block in self.blocks_config.blocks.items():
            if key in self._page_blocks and key not in self.config_values:
                self.config_values[key] = self.blocks_config.config_for_block(key, [], block)
        yield from super().components


def check() -> None:
    need(state_holder, "SessionState", "StateHolder.__getitem__")
    if state_holder.SessionState not in (ORIGINAL, LeanSessionState) or ORIGINAL is object:
        raise PatchMismatch("state_holder.SessionState is not Gradio's own class")
    need(ORIGINAL, "_update_value_in_config", "components")
    need_parameters(ORIGINAL.__init__, "blocks")
    have = assigned(ORIGINAL.__init__)
    if have - ATTRIBUTES:
        raise PatchMismatch(f"SessionState.__init__ now also sets {', '.join(sorted(have - ATTRIBUTES))}")
    if ATTRIBUTES - have:
        raise PatchMismatch(f"SessionState.__init__ no longer sets {', '.join(sorted(ATTRIBUTES - have))}")
    need(ORIGINAL, "__setitem__", "_update_config")
    sets = setitem_targets(ORIGINAL.__setitem__)
    if sets != SETITEM:
        raise PatchMismatch(f"SessionState.__setitem__ now assigns {', '.join(sorted(sets))}")
    if "SessionState(" not in source_of(state_holder.StateHolder.__getitem__):
        raise PatchMismatch("StateHolder no longer makes sessions from state_holder.SessionState")


def setitem_targets(fn: Any) -> frozenset[str]:
    """What `fn` assigns to, as written (`self.state_data[key]`)."""
    tree = ast.parse(textwrap.dedent(source_of(fn)))
    return frozenset(ast.unparse(t) for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets)


def apply() -> type:
    state_holder.SessionState = LeanSessionState  # type: ignore[misc]  # the patch: Gradio makes sessions from this name
    return ORIGINAL


PATCH = Patch("sessions", check, apply)


# ---- ARGSPECS: the component an update makes, without re-reading its constructor -------------------------

CALL = "inspect.getfullargspec(fn).args"


@functools.cache  # bounded by the code: one entry per component constructor Gradio wraps (a few dozen)
def getfullargspec(fn: Any) -> Any:
    """Python's, remembered per function; its lists made tuples, so no caller can change what others read."""
    spec = inspect.getfullargspec(fn)
    return spec._replace(args=tuple(spec.args), kwonlyargs=tuple(spec.kwonlyargs))  # type: ignore[arg-type]


class MemoizedInspect(types.ModuleType):
    """Python's `inspect` module as `component_meta` reads it, with `getfullargspec` remembered."""

    def __init__(self) -> None:
        super().__init__("inspect")
        self.getfullargspec = getfullargspec

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)


def check_argspecs() -> None:
    need(component_meta, "updateable", "inspect")
    if component_meta.inspect is not inspect and not isinstance(component_meta.inspect, MemoizedInspect):
        raise PatchMismatch("gradio.component_meta.inspect is not Python's inspect")
    source = source_of(component_meta.updateable)
    if CALL not in source:
        raise PatchMismatch(f"component_meta.updateable no longer calls {CALL}")
    if len(re.findall(r"\binspect\.", source)) != 1:
        raise PatchMismatch("component_meta.updateable reads more of inspect than getfullargspec")


def apply_argspecs() -> Any:
    component_meta.inspect = MemoizedInspect()  # the patch: `updateable` reads this name
    return inspect


ARGSPECS = Patch("argspecs", check_argspecs, apply_argspecs)


@contextmanager
def without_argspecs() -> Iterator[None]:
    """Inside, `component_meta` reads constructors as Gradio does (what `benchmarks/load_event.py` compares)."""
    served = component_meta.inspect
    component_meta.inspect = inspect
    try:
        yield
    finally:
        component_meta.inspect = served


def as_launched(demo: Any, *, session_capacity: int, app_id: int) -> None:
    """Set on `demo` what `launch(state_session_capacity=...)` sets: at most `session_capacity` sessions kept
    (Gradio keeps 10,000); and `app_id`, the id every page names (Gradio draws one at random per process, so
    replicas of one release would disagree: `replicas.app_id`)."""
    demo.state_session_capacity = session_capacity
    demo.app_id = app_id
