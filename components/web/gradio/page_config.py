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
from pathlib import Path

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


def _as_gradio_writes_it(config: dict) -> str:
    """JSON as Gradio's `toorjson` writes it into the page: compact, with `<>&'` escaped."""
    text = json.dumps(config, ensure_ascii=False, separators=(",", ":"))
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
