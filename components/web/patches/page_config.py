"""The page's inlined config without the API schema of each component, which the page never reads.

Gradio inlines its whole config into every page (`window.gradio_config = {...}`), and each component's
entry carries the JSON schema of its value three times (`api_info`, `api_info_as_input`,
`api_info_as_output`) and an `example_inputs`: ~5 KB of this app's ~50 KB first page (a Dataframe's alone
is 1.5 KB). Those are for API clients, which read `/config` and `/gradio_api/info` (left whole); the
browser's scripts never mention them. `slim()` drops them from the page's HTML, and only where the patch
fits: this Gradio, and a frontend whose scripts name none of these keys (checked once at start-up, ~30 ms).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from components.web.patches.guard import Patch, PatchMismatch

DROPPED = ("api_info", "api_info_as_input", "api_info_as_output", "example_inputs")
# what the browser's scripts would contain if they read one of DROPPED from a component's entry
# (`api_info` alone also names the client's own `this.api_info`, the `/gradio_api/info` answer)
READ_MARKERS = (b"api_info_as_input", b"api_info_as_output", b"example_inputs", b".api_info_as")
_CONFIG = re.compile(r"(<script>window\.gradio_config = )(\{.*?\})(;</script>)", re.S)


def frontend() -> Path:
    import gradio

    return Path(gradio.__file__).parent / "templates" / "frontend"


def check() -> None:
    from gradio import routes

    template = frontend() / "index.html"
    if "window.gradio_config = {{ config | toorjson }};</script>" not in template.read_text("utf-8"):
        raise PatchMismatch("index.html no longer inlines the config as `window.gradio_config = ...;`")
    if not hasattr(routes, "toorjson"):
        raise PatchMismatch("gradio.routes.toorjson is missing")
    for script in sorted((frontend() / "assets").glob("*.js")):
        body = script.read_bytes()
        for marker in READ_MARKERS:
            if marker in body:
                raise PatchMismatch(f"the frontend reads {marker.decode()} ({script.name})")


def apply() -> bool:
    return True


PATCH = Patch("page_config", check, apply)


def _as_gradio_writes_it(config: dict) -> str:
    """JSON as Gradio's `toorjson` writes it into the page: compact, with `<>&'` escaped."""
    text = json.dumps(config, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("'", "\\u0027")


def slim(html: str) -> str:
    """`html` with DROPPED taken out of each component of its inlined config; unchanged where the patch
    stood down (or was never applied) or the config is not found as Gradio writes it."""
    if not PATCH.applied:
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
