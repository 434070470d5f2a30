"""How a patch to Gradio (or to the server under it) is applied: only where what it relies on is there.

Every change this app makes to Gradio's own behaviour lives in this folder, one module each, and is
declared as a `Patch`: its name, the Gradio versions it was written for, a `check()` that finds each
attribute, signature or constant it relies on (raising `PatchMismatch`, or any exception, when one is
missing or changed) and an `apply()` that makes the change. `apply_patch()` runs the check first; a patch
written for another Gradio version, or whose check fails, stands down with one log line naming itself and
why, and the app runs on Gradio's own behaviour: never a broken request.

Prefer a public mechanism (an ASGI middleware over the HTTP contract, a `launch()` argument) over a patch;
a patch is for what no public mechanism reaches.
"""

from __future__ import annotations

import ast
import functools
import inspect
import logging
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from components.web.gradio.errors import PatchMismatch

log = logging.getLogger(__name__)

# The Gradio releases every patch here was written and tested against (requirements.txt pins one).
WRITTEN_FOR = ">=6.31,<6.32"


@dataclass(frozen=True)
class Patch:
    """One change to Gradio's behaviour, with what it relies on."""

    name: str
    check: Callable[[], None]
    apply: Callable[[], Any]
    gradio: str = WRITTEN_FOR
    applied: list = field(default_factory=list, compare=False, repr=False)
    declined: set = field(default_factory=set, compare=False, repr=False)  # reasons already logged


def gradio_version() -> str:
    import gradio

    return gradio.__version__


def apply_patch(patch: Patch, version: str | None = None) -> bool:
    """Apply `patch` where it fits this Gradio; else log one line naming it (once per reason) and return False
    (Gradio's own behaviour stays). Returns True when the patch is in place (applying twice is harmless)."""
    version = version or gradio_version()
    reason = None
    if Version(version) not in SpecifierSet(patch.gradio):
        reason = f"written for gradio {patch.gradio}, this is {version}"
    else:
        try:
            patch.check()
        except Exception as exc:  # noqa: BLE001 - any way a target can be missing is a reason to stand down
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if reason is not None:
        if reason not in patch.declined:  # asked again (build_once is, by build() and serve()): logged once
            patch.declined.add(reason)
            log.warning("patch %s stands down: %s", patch.name, reason)
        return False
    if not patch.applied:
        patch.applied.append(patch.apply())
    return True


def apply_all(patches: Iterable[Patch], version: str | None = None) -> dict[str, bool]:
    """Apply each patch where it fits; {name: applied}."""
    return {p.name: apply_patch(p, version) for p in patches}


def need(obj: Any, *names: str) -> None:
    """Raise PatchMismatch unless `obj` has each attribute in `names` (dotted paths allowed)."""
    for name in names:
        target = obj
        for part in name.split("."):
            if not hasattr(target, part):
                raise PatchMismatch(f"{getattr(obj, '__name__', type(obj).__name__)}.{name} is missing")
            target = getattr(target, part)


def need_parameters(fn: Callable, *names: str) -> None:
    """Raise PatchMismatch unless `fn` takes each parameter in `names`."""
    try:
        have = inspect.signature(fn).parameters
    except (TypeError, ValueError) as exc:
        raise PatchMismatch(f"cannot read the signature of {fn!r}") from exc
    missing = [n for n in names if n not in have]
    if missing:
        raise PatchMismatch(f"{getattr(fn, '__qualname__', fn)!s} no longer takes {', '.join(missing)}")


@functools.lru_cache(maxsize=64)
def source_of(fn: Callable) -> str:
    """`fn`'s source text, read once per process (several patches read `App.create_app`, ~1,500 lines that
    take ~25 ms to find each time); PatchMismatch when it cannot be read."""
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError) as exc:
        raise PatchMismatch(f"cannot read the source of {fn!r}") from exc


def assigned(fn: Callable) -> set[str]:
    """The `self.NAME` attributes a method assigns (read from its source)."""
    try:
        tree = ast.parse(textwrap.dedent(source_of(fn)))
    except SyntaxError as exc:
        raise PatchMismatch(f"cannot read the source of {fn!r}") from exc
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
        if isinstance(node.value, ast.Name) and node.value.id == "self"
    }


def need_assigned(fn: Callable, *names: str) -> None:
    """Raise PatchMismatch unless `fn` (an `__init__`, say) sets each `self.NAME` in `names`: how a patch finds
    instance attributes, which the class does not show."""
    missing = sorted(set(names) - assigned(fn))
    if missing:
        raise PatchMismatch(f"{getattr(fn, '__qualname__', fn)!s} no longer sets {', '.join(missing)}")
