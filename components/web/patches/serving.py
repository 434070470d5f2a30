"""Gradio settings that keep what one request costs flat, however long the app runs and however it is called.

Each was found and measured with `benchmarks/` (README, "Performance"); Gradio 6.31's defaults are
tuned for a demo, and three of them grow with traffic or with the size of the page.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterator
from copy import copy
from pathlib import Path

import gradio as gr
from gradio import state_holder

# After every event Gradio's queue rebuilds a pandas summary of the last 10,000 events (the latency
# figures of the API page): a few to tens of ms of CPU per request, growing with traffic.
# Once per 1,000 events keeps those figures fresh at a thousandth of the cost.
ANALYTICS_EVERY = 1000
# A call without a session_hash (curl, plain HTTP) gets a session of its own, which keeps a copy of
# the page's config (~150 KB here); Gradio keeps 10,000 sessions, so memory grew ~1.5 GB under API
# traffic. 1,000 bounds that near 150 MB; a browser tab idle while 1,000 newer sessions arrive
# loses only its table paging and open-model state, and the next search or click restores them.
SESSION_CAPACITY = 1000
# Optional libraries Gradio tries to import on every request (gr.Plot's config asks for bokeh; each
# call switches matplotlib's backend). When they are not installed, every try searches sys.path.
PROBED = ("bokeh", "matplotlib")
# The Soft theme's web fonts (Montserrat regular and bold, IBM Plex Mono: ~200 KB, four requests)
# arrive while the page mounts and compete with its scripts; the system's own fonts cost nothing.
SANS = ("ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "Helvetica Neue", "Arial", "sans-serif")
MONO = ("ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "Liberation Mono", "monospace")


def minified_css(path: Path) -> str:
    """The stylesheet without comments and spare whitespace: Gradio inlines it into every page."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s*([{};,>])\s*", r"\1", re.sub(r"\s+", " ", text)).strip()


def minified_head(text: str) -> str:
    """The head's scripts without indentation or blank lines (its lines kept, so no statement runs into the
    next): Gradio sends the head inside every page's config."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


def theme() -> gr.themes.Base:
    """The page's theme: Gradio's Soft colours with system font stacks (no web fonts to fetch), and text
    colours that keep a 4.5:1 contrast (WCAG AA) in light and dark: Soft's subdued text, labels and
    links are a shade too light for it (2.4:1 to 4.3:1, measured with axe-core)."""
    return gr.themes.Soft(font=list(SANS), font_mono=list(MONO)).set(
        body_text_color_subdued="*neutral_600",
        body_text_color_subdued_dark="*neutral_400",
        block_label_text_color="*primary_800",
        block_label_text_color_dark="*primary_100",
        block_title_text_color="*primary_800",
        block_title_text_color_dark="*primary_100",
        link_text_color="*primary_700",
        link_text_color_dark="*primary_300",
        link_text_color_visited="*primary_800",
        link_text_color_visited_dark="*primary_200",
        link_text_color_hover="*primary_800",
        link_text_color_hover_dark="*primary_200",
        checkbox_label_background_fill_selected="*primary_700",
        checkbox_label_background_fill_selected_dark="*primary_700",
    )


# A link that opens a model (`?model=...`) on a phone: the columns stack, and the model's answer sits below
# the filters and the table, about two screens down. Once the answer shows, the page scrolls to it when the
# panel sits below the table (beside it, on a wide screen, it is in sight), unless the person scrolled already.
# The table above may still grow as its rows render, so the panel is kept in place for a moment after (unless
# someone else scrolled it). The back link scrolls in place: the page's <base> would resolve "#results" to
# another address.
OPEN_MODEL = """<script>
(() => {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(".back-to-table a");
    const table = document.getElementById("results");
    if (!link || !table) return;
    event.preventDefault();
    table.scrollIntoView({ block: "start" });
  });
  if (!new URLSearchParams(location.search).get("model")) return;
  let moved = false, shown = false, placedAt = null;
  const stop = () => { moved = true; };
  ["wheel", "touchmove", "keydown", "mousedown"].forEach((e) => addEventListener(e, stop, { once: true, passive: true }));
  const place = () => {
    if (placedAt !== null && Math.abs(window.scrollY - placedAt) > 2) moved = true;
    const panel = document.getElementById("details");
    if (moved || !panel) return;
    if (Math.abs(panel.getBoundingClientRect().top) > 8) panel.scrollIntoView({ block: "start" });
    placedAt = window.scrollY;
  };
  const show = () => {
    if (shown || !document.querySelector("#details-summary .details-head")) return;
    shown = true;
    observer.disconnect();
    const panel = document.getElementById("details"), table = document.getElementById("results");
    const stacked = panel && table && panel.getBoundingClientRect().top >= table.getBoundingClientRect().bottom - 1;
    if (moved || window.scrollY > 0 || !stacked) return;
    place();
    [150, 400, 900].forEach((ms) => setTimeout(place, ms));
  };
  const observer = new MutationObserver(show);
  observer.observe(document.documentElement, { childList: true, subtree: true });
  show();
})();
</script>"""

# The run.py viewer scrolls, but its scroller takes no focus: a keyboard could not scroll it. Gradio
# renders the viewer on demand, so each one is given a tab stop (and a name) as it appears.
HEAD = (
    """<script>
(() => {
  const reachable = () => document.querySelectorAll("#run-py .cm-scroller:not([data-reachable])").forEach((el) => {
    el.dataset.reachable = "";
    el.tabIndex = 0;
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", "run.py");
  });
  new MutationObserver(reachable).observe(document.documentElement, { childList: true, subtree: true });
})();
</script>"""
    + OPEN_MODEL
)


class LeanSessionState(state_holder.SessionState):
    """Gradio's per-session state without its copy of the page: that copy (each block's config, with the
    last value each event sent) serves only Gradio's own share links (`gr.DeepLinkButton`), which this
    app does not use (its links are `?model=...`).

    Every plain HTTP call is a new session. Gradio built the config of every block for each (~110 KB
    here) and kept the last answer in it: after 1,000 distinct `/search` calls at 200,000 rows, the
    sessions held ~250 MB, most of it whole 10,000-row answers no one would read again.
    """

    def __init__(self, blocks: gr.Blocks):
        self._page_blocks = blocks.blocks
        self.blocks_config = copy(blocks.default_config)
        self.config_values = {}
        self.state_data = {}
        self._state_ttl = {}
        self.is_closed = False
        self.STATE_TTL_WHEN_CLOSED = 1 if os.getenv("GRADIO_IS_E2E_TEST", None) else 3600

    def _update_value_in_config(self, key: int, value: object) -> None:
        """Gradio's share links are not used: the value an event sent is not kept."""

    @property
    def components(self) -> Iterator[dict]:
        for key, block in self.blocks_config.blocks.items():
            if key in self._page_blocks and key not in self.config_values:
                self.config_values[key] = self.blocks_config.config_for_block(key, [], block)
        yield from super().components


def answer_mcp_in_json() -> None:
    """MCP tools answer JSON text. Gradio 6.31 turns a tool's dict or list into text with Python's
    `str()` (`{'notes': None}`), which no program can parse; the answers of the endpoints are plain
    JSON values, so each is sent as `json.dumps` of itself (files, which this app never returns, are
    left to Gradio)."""
    from gradio import mcp
    from gradio_client import utils as client_utils

    original = mcp.GradioMCPServer.postprocess_output_data
    if getattr(original, "_answers_json", False):
        return

    def postprocess_output_data(self, data, root_url):
        as_json = [
            json.dumps(d, ensure_ascii=False)
            if isinstance(d, (dict, list)) and not client_utils.is_file_obj_with_meta(d)
            else d
            for d in data
        ]
        return original(self, as_json, root_url)

    postprocess_output_data._answers_json = True
    mcp.GradioMCPServer.postprocess_output_data = postprocess_output_data


def tune_gradio() -> dict:
    """Apply what must be set before the queue is created; returns extra `launch()` arguments."""
    state_holder.SessionState = LeanSessionState  # StateHolder makes sessions from this module name
    answer_mcp_in_json()
    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", str(ANALYTICS_EVERY))
    for name in PROBED:
        if name not in sys.modules and importlib.util.find_spec(name) is None:
            sys.modules[name] = None  # remembered as missing: `import name` now fails at once
    return {"state_session_capacity": SESSION_CAPACITY}
