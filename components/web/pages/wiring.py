"""How a page's handlers meet its components: inputs by name through Gradio's `inputs_kwargs`, answers
by name turned into Gradio's `{component: value}`.

A handler takes its inputs as keyword arguments named like the page's components (`search=...`),
plus what Gradio injects by type (`gr.Request`, `gr.SelectData`), and answers `{name: value}`: it is
called the same way from a test, and no answer depends on the order of an output list. Gradio
refuses an answer naming a component its event does not list.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

# A link component's `.change` runs this in the browser: the address bar shows the view (without a new
# history entry) and the box holds the full link to copy.
URL_JS = """(q) => {
  if (/^https?:/.test(q || "")) return q;  // already the full link
  const u = new URL(window.location.href);
  u.search = q || "";
  try { window.history.replaceState(null, "", u); } catch (e) {}
  return u.toString();
}"""


def components(owner: object, names: Iterable[str]) -> list:
    """The components of `owner` (a page's widgets) with these names, for an event's outputs."""
    return [getattr(owner, n) for n in names]


def by_name(owner: object, names: Iterable[str]) -> dict[str, Any]:
    """`{name: component}` for an event's `inputs_kwargs`: each value reaches the handler by its name."""
    return {n: getattr(owner, n) for n in names}


def answering(owner: object, handler: Callable[..., dict[str, Any]]) -> Callable[..., dict]:
    """The handler as Gradio calls it: the same arguments (its signature is kept, so Gradio still injects
    a request or the selected cell), the answer keyed by `owner`'s components instead of their names."""

    @functools.wraps(handler)
    def event(*args, **kwargs) -> dict:
        return {getattr(owner, name): value for name, value in handler(*args, **kwargs).items()}

    return event
