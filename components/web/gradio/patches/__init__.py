"""Every change this app makes to Gradio's own code, one module each, applied by `apply()`.

Only what no public interface reaches is here; each module declares a `PATCH` (see `guard.py`): where what
it relies on is missing or changed, or Gradio is a release it was not written for, it stands down with one
log line naming itself and Gradio's own behaviour stays. `apply()` is what `mount.build()` calls first,
before the queue is created. What a user loses when each stands down is in docs/architecture.md.

- `sessions`: sessions without a copy of the page; and, its second patch `ARGSPECS`, the component an
  update makes for a session made without re-reading its constructor;
- `unread`: results no one reads are dropped; reads of unknown results answered without a traceback
  (its middleware and sweep are installed by `server.py`, and act only where its patch applies);
- `mcp_json`: MCP tools answer JSON text, not Python's `str()` of a dict; MCP's own calls stay local;
- `build_once`: the page's server app built once, not once per `with` block (`building()`, around the layout
  in `app.py` and the queue in `server.py`).
"""

from __future__ import annotations


def apply() -> dict[str, bool]:
    """Apply every patch that fits this Gradio; {name: applied}."""
    # imported here, not above: importing `guard` (which every patch does) must not import every patch
    from components.web.gradio.patches import build_once, mcp_json, sessions, unread
    from components.web.gradio.patches.guard import apply_all

    applied = apply_all((sessions.PATCH, sessions.ARGSPECS, mcp_json.PATCH, build_once.PATCH))
    applied["unread"] = (
        unread.in_force()
    )  # decided now, so a stand-down is logged at start-up, not at the first request
    return applied
