"""The page's inlined config without the API schema of each component, which the page never reads.

Gradio inlines its whole config into every page (`window.gradio_config = {...}`), and each component's
entry carries the JSON schema of its value three times (`api_info`, `api_info_as_input`,
`api_info_as_output`) and an `example_inputs`: ~5 KB of this app's ~50 KB first page (a Dataframe's alone
is 1.5 KB). Those are for API clients, which read `/config` and `/gradio_api/info` (left whole); the
browser's scripts never mention them. `slim()` drops them from the page's HTML (`middleware/first_html.py`), and
only where it is safe: a page template that inlines the config as written for, and a frontend whose scripts
name none of these keys (`fits()`: the installed package's files read once, ~30 ms at start-up). It edits
the answer, not Gradio's code: a release that reads one of these keys, or inlines its config otherwise,
gets its page as Gradio sends it (one log line says so).
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import logging
import re
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DROPPED = ("api_info", "api_info_as_input", "api_info_as_output", "example_inputs")
# what the browser's scripts would contain if they read one of DROPPED from a component's entry
# (`api_info` alone also names the client's own `this.api_info`, the `/gradio_api/info` answer)
READ_MARKERS = (b"api_info_as_input", b"api_info_as_output", b"example_inputs", b".api_info_as")
_CONFIG = re.compile(r"(<script>window\.gradio_config = )(\{.*?\})(;</script>)", re.S)


def frontend() -> Path:
    """The page's template and scripts, as the installed Gradio package ships them."""
    return Path(str(importlib.resources.files("gradio").joinpath("templates", "frontend")))


def why_not(folder: Path | None = None) -> str | None:
    """None when dropping DROPPED is safe for the frontend in `folder`; else why not."""
    folder = folder or frontend()
    try:
        template = (folder / "index.html").read_text("utf-8")
    except OSError:
        return "no page template (templates/frontend/index.html)"
    if "window.gradio_config = {{ config | toorjson }};</script>" not in template:
        return "index.html no longer inlines the config as `window.gradio_config = ...;`"
    for script in sorted((folder / "assets").glob("*.js")):
        body = script.read_bytes()
        for marker in READ_MARKERS:
            if marker in body:
                return f"the frontend reads {marker.decode()} ({script.name})"
    return None


@functools.lru_cache(maxsize=1)
def fits() -> bool:
    """Whether `slim()` acts: decided (and, where not, logged) once per process."""
    why = why_not()
    if why is not None:
        log.warning("the page's config is sent whole: %s", why)
    return why is None


def _as_gradio_writes_it(config: Any) -> str:
    """JSON as Gradio's `toorjson` writes it into the page: compact, with `<>&'` escaped. Other characters past
    ASCII are written as `\\u` escapes too (the same JSON to the browser): escaping a text of ASCII only is about
    twice as fast, and a link's page escapes ~100 KB (issue 48)."""
    text = json.dumps(config, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("'", "\\u0027")


def slim(html: str) -> str:
    """`html` with DROPPED taken out of each component of its inlined config; unchanged where the patch
    does not fit this Gradio's frontend (`fits()`) or the config is not found as Gradio writes it."""
    if not fits():
        return html
    found = _CONFIG.search(html)
    if found is None:
        return html
    try:
        config = json.loads(found.group(2))
        components = config["components"]
    except (ValueError, KeyError, TypeError):
        return html
    for component in components:
        if isinstance(component, dict):
            for key in DROPPED:
                component.pop(key, None)
    return html[: found.start(2)] + _as_gradio_writes_it(config) + html[found.end(2) :]


# ---- a link's answer in the page's config: the live page needs no load event --------------------------------


@dataclass(frozen=True)
class _Read:
    """A page of Gradio's with its config read: where the config sits in the HTML (`start`, `end`), the config,
    and each of its parts already written as JSON (`_as_gradio_writes_it`): every top-level key's value, and each
    component and dependency on its own, so a link writes again only the parts its answer changes."""

    start: int
    end: int
    config: dict
    written: dict[str, str]
    components: tuple[str, ...]
    dependencies: tuple[str, ...]

    def write(self, components: dict[int, dict], dependencies: dict[int, dict]) -> str:
        """The config with the components and dependencies at these positions replaced, as JSON."""
        lists = {
            "components": ",".join(
                _as_gradio_writes_it(components[i]) if i in components else text
                for i, text in enumerate(self.components)
            ),
            "dependencies": ",".join(
                _as_gradio_writes_it(dependencies[i]) if i in dependencies else text
                for i, text in enumerate(self.dependencies)
            ),
        }
        return "{" + ",".join(
            f"{json.dumps(key)}:" + (f"[{lists[key]}]" if key in lists else text) for key, text in self.written.items()
        ) + "}"  # fmt: skip


@functools.lru_cache(maxsize=8)
def _parsed(html: str) -> _Read | None:
    """Where `html` inlines its config, and that config read and written part by part (None: not as Gradio
    writes it): each page of Gradio's is read once, whatever number of links are made from it. Never changed
    in place."""
    found = _CONFIG.search(html)
    if found is None:
        return None
    try:
        config = json.loads(found.group(2))
        components = tuple(map(_as_gradio_writes_it, config["components"]))
        dependencies = tuple(map(_as_gradio_writes_it, config["dependencies"]))
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(config["components"], list) or not isinstance(config["dependencies"], list):
        return None
    written = {
        key: "" if key in ("components", "dependencies") else _as_gradio_writes_it(value)
        for key, value in config.items()
    }
    return _Read(found.start(2), found.end(2), config, written, components, dependencies)


def with_answer(html: str, answer: dict[str, Any]) -> str | None:
    """`html` (a page as Gradio writes it) with `answer` (a load event's answer in the form Gradio sends it, by
    the `elem_id` of each output) as its components' first values, and that load event's `load` trigger taken
    out: the browser mounts the page already filled and never asks the queue for it. None where the page is not
    as written for (the config not found or not inlined as Gradio writes it, an `elem_id` not on the page, or no
    one load event whose outputs are exactly these components): the page then keeps its load event.

    An update (`{"__type__": "update", ...}`) sets the props it names; any other value sets `value`. The
    props are those Gradio's config carries for each component (`value`, `choices`, `visible`, `info`).
    A value in the config fires no `change` as the page mounts, as one the load answer set did: the browser's
    own scripts that such a change ran (events with no Python function) run on load instead."""
    read = _parsed(html) if fits() else None
    if read is None:
        return None
    config = read.config
    try:
        named = [c for c in config["components"] if c.get("props", {}).get("elem_id") in answer]
        components = {c["props"]["elem_id"]: c for c in named}
        if len(components) != len(named):  # an elem_id twice: which one the answer is for is not known
            return None
        targets = {components[name]["id"] for name in answer}
        loads = [
            (i, d) for i, d in enumerate(config["dependencies"])
            if any(t[1] == "load" for t in d["targets"]) and set(d["outputs"]) == targets
        ]  # fmt: skip
    except (KeyError, TypeError, IndexError, AttributeError):
        return None
    if len(loads) != 1:
        return None
    props: dict[int, dict] = {}  # each answered component's props, copied (the page's own config is kept as read)
    for name, value in answer.items():
        component = components[name]
        props[component["id"]] = {**component["props"]}
        if isinstance(value, dict) and value.get("__type__") == "update":
            props[component["id"]].update({k: v for k, v in value.items() if k != "__type__"})
        else:
            props[component["id"]]["value"] = value
    load_at, load = loads[0]
    on_load = [t for t in load["targets"] if t[1] == "load"]
    triggers = {load_at: [t for t in load["targets"] if t[1] != "load"]}  # by the dependency's place in the config
    # what the answer's values did in the browser as they arrived, they do as the page mounts: the scripts that a
    # change of an answered component runs (the address bar's, `wiring.ADDRESS_JS`) run once on load
    for at, dependency in enumerate(config["dependencies"]):
        if (
            dependency.get("backend_fn") is False
            and dependency.get("js")
            and any(t[1] == "change" and t[0] in targets for t in dependency["targets"])
        ):
            triggers[at] = [*dependency["targets"], *on_load]
    # only what changed is written again: the rest of the config was written once, when the page was read
    position = {c.get("id"): i for i, c in enumerate(config["components"]) if isinstance(c, dict)}
    components = {position[i]: {**config["components"][position[i]], "props": p} for i, p in props.items()}
    dependencies = {at: {**config["dependencies"][at], "targets": triggers[at]} for at in sorted(triggers)}
    return html[: read.start] + read.write(components, dependencies) + html[read.end :]


# Each page's `LiveAnswers` (`middleware/first_html.py`), by the Blocks it was wired into: `ModelsPage.wire` names
# its own, and `mount.build` hands the one of the Blocks it mounts to the first response.
_ANSWERS: weakref.WeakKeyDictionary[Any, Callable[..., Any]] = weakref.WeakKeyDictionary()


def answered_by(demo: Any, answers: Callable[..., Any]) -> None:
    """Name the function that says which links of `demo`'s first page carry their live answer."""
    _ANSWERS[demo] = answers


def answers_of(demo: Any) -> Callable[..., Any] | None:
    """The function `answered_by` named for `demo`, None when none was."""
    return _ANSWERS.get(demo)
