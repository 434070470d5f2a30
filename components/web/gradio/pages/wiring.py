"""How a page's handlers meet its components: inputs by name through Gradio's `inputs_kwargs`, answers
by name turned into Gradio's `{component: value}`.

A handler takes its inputs as keyword arguments named like the page's components (`search=...`),
plus what Gradio injects by type (`gr.Request`, `gr.SelectData`), and answers `{name: value}`: it is
called the same way from a test, and no answer depends on the order of an output list. Gradio
refuses an answer naming a component its event does not list.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypedDict

from components.queries.preview import APP_NAME


class EventOptions(TypedDict):
    """What every page event is wired with (`PAGE_EVENT`)."""

    api_visibility: Literal["public", "private", "undocumented"]
    preprocess: bool


# - private: a page's own events stay off the API page and out of MCP;
# - no preprocess: a handler reads each input as text and checks it against the data, as the named
#   endpoints do. Gradio's preprocess checks a picker's value against the choices this session was last
#   sent, which are kept on the server: a tab whose session the server dropped (more than
#   `SESSIONS` newer visitors, as on launch day) kept none, and Gradio 6.31's dropdown sends
#   one pick twice (on choosing and on blur), the second after the first answer changed the choices.
#   Either way Gradio answered "Error" over every output and the pickers stayed covered.
PAGE_EVENT: EventOptions = {"api_visibility": "private", "preprocess": False}

# The one address-bar script: a component's `.change` runs it in the browser, and the address bar shows the
# page's state. It reads a query string (the Models page's link box, which then holds the full link to copy)
# or an answer's HTML naming its view in `data-query` (the Failures page); other HTML, or a full link already,
# leaves the address alone. Opening another model adds an entry to the browser's history, so Back returns
# to the table as it was (the table's script shows the state of the address Back goes to: `html/table.py`);
# any other change (a filter, an order, the state a link opened) replaces the entry. A link with a model is
# the model's own page (`.model-page` on the root, style.css): the table is one step back. The tab's title follows
# the Models page's link once it moves away from the link the page was opened with (whose title the first
# response gave): the model opened, else the app's name.
ADDRESS_JS = """(value) => {
  const m = /class="view-link" href="[^"]*" data-query="([^"]*)"/.exec(value || "");
  if (!m && (/^https?:/.test(value || "") || /[<>]/.test(value || ""))) return value;
  const u = new URL(window.location.href);
  u.search = m ? m[1].replace(/&amp;/g, "&") : value || "";
  const seen = window.__openedWith;
  const model = m ? "" : u.searchParams.get("model") || "";
  const opened = seen !== undefined && model && model !== (new URLSearchParams(window.location.search).get("model") || "");
  try {
    if (u.href !== window.location.href) {
      if (opened) window.history.pushState({ fromTable: true }, "", u);
      else window.history.replaceState(window.history.state, "", u);
    }
  } catch (e) {}
  if (!m) {
    document.documentElement.classList.toggle("model-page", Boolean(model));
    window.__openedWith = seen === undefined ? u.search : seen;
    if (seen !== undefined && u.search !== seen) {
      document.title = model ? model + " · APP_NAME" : "APP_NAME";
    }
  }
  return m ? value : u.toString();
}""".replace("APP_NAME", APP_NAME)


def components(owner: object, names: Iterable[str]) -> list:
    """The components of `owner` (a page's widgets) with these names, for an event's outputs."""
    return [getattr(owner, n) for n in names]


def by_name(owner: object, names: Iterable[str]) -> dict[str, Any]:
    """`{name: component}` for an event's `inputs_kwargs`: each value reaches the handler by its name."""
    return {n: getattr(owner, n) for n in names}


def answering(owner: object, handler: Callable[..., Any]) -> Callable[..., Any]:
    """The handler as Gradio calls it: the same arguments (its signature is kept, so Gradio still injects
    a request or the selected cell), the answer keyed by `owner`'s components instead of their names.
    Every input of a page is text: with no preprocess (`PAGE_EVENT`), a number, list or object that a
    crafted request sends in its place reaches the handler as None, as an empty box would."""

    def keyed(answer: dict[str, Any]) -> dict:
        return {getattr(owner, name): value for name, value in answer.items()}

    if inspect.iscoroutinefunction(handler):  # Gradio awaits it on the event loop

        @functools.wraps(handler)
        async def waited(*args, **kwargs) -> dict:
            return keyed(await handler(*args, **as_text(kwargs)))

        return waited

    @functools.wraps(handler)
    def event(*args, **kwargs) -> dict:
        return keyed(handler(*args, **as_text(kwargs)))

    return event


def as_text(inputs: dict[str, Any]) -> dict[str, Any]:
    """`inputs` with any value JSON could carry in place of text (a number, a list, an object) made None;
    what Gradio injects (a request, the selected cell) is left alone."""
    return {
        name: None if isinstance(value, (bool, int, float, list, dict)) else value for name, value in inputs.items()
    }


def as_sent(owner: object, answer: dict[str, Any]) -> dict[str, Any]:
    """`answer` in the form Gradio sends it to the browser, for an event with `postprocess=False`: each
    value through its component's own `postprocess`. An update's value is left as it is where the update
    brings its own choices (a picker's `postprocess` only checks the value against the old ones)."""
    sent: dict[str, Any] = {}
    for name, value in answer.items():
        component = getattr(owner, name)
        if component.stateful:
            sent[name] = value
        elif isinstance(value, dict) and value.get("__type__") == "update":
            if "value" in value and "choices" not in value:
                value = {**value, "value": _dumped(component.postprocess(value["value"]))}
            sent[name] = value
        else:
            sent[name] = _dumped(component.postprocess(value))
    return sent


def _dumped(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value
