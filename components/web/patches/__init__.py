"""Every change this app makes to Gradio's own behaviour, one module each, applied by `apply()`.

Each module declares a `PATCH` (see `guard.py`): where what it relies on is missing or changed, it stands
down with one log line naming itself and Gradio's own behaviour stays. `apply()` is the one call the app's
`serve()` makes, before the queue is created.

- `build_once`: the page's server app built once, not once per `with` block (`building()`, around `app.build`);
- `sessions`: sessions without a copy of the page (and at most `SESSION_CAPACITY` of them);
- `mcp_json`: MCP tools answer JSON text, not Python's `str()` of a dict;
- `probes`: optional libraries Gradio probes for on every request are remembered as missing;
- `arguments`: a call with too few values is a clear error naming the missing arguments;
- `connections`: uvicorn's connections get a request deadline, a keep-alive timeout and a cap;
- `cors`: the plain HTTP API (`/api/v1/`) answers its own CORS headers, not Gradio's origin echo;
- `page_config`: the page's inlined config without each component's API schema (`routes/first_response.py`
  calls `slim()` on every page);
- `assets`: Gradio's scripts and stylesheets served from memory (an ASGI middleware);
- `unread`: results no one reads are dropped; reads of unknown results answered without a traceback
  (its middleware and sweep are installed by `routes/limits.py`, and act only where its patch applies).
"""

from __future__ import annotations

import os
from typing import Any

# After every event Gradio's queue rebuilds a pandas summary of the last 10,000 events (the latency figures
# of the API page): a few to tens of ms of CPU per request, growing with traffic. Once per 1,000 events
# keeps those figures fresh at a thousandth of the cost. A setting Gradio reads: no patch needed.
ANALYTICS_EVERY = 1000


def apply(launch: dict[str, Any]) -> dict[str, Any]:
    """Apply every patch that fits this Gradio; returns `launch` (the `launch()` arguments) with what the
    patches and Gradio's own settings add: the session capacity, and `Assets` in front of the middleware."""
    # imported here, not above: importing `guard` (which every patch does) must not import every patch
    from components.web.patches import (
        arguments,
        assets,
        connections,
        cors,
        mcp_json,
        page_config,
        probes,
        sessions,
        unread,
    )
    from components.web.patches.guard import apply_patch

    os.environ.setdefault("GRADIO_ANALYTICS_CACHE_FREQUENCY", str(ANALYTICS_EVERY))
    for patch in (
        sessions.PATCH,
        mcp_json.PATCH,
        probes.PATCH,
        arguments.PATCH,
        cors.PATCH,
        connections.PATCH,
        page_config.PATCH,
    ):
        apply_patch(patch)
    unread.in_force()  # decided now, so a stand-down is logged at start-up, not at the first request
    launch = {"state_session_capacity": sessions.SESSION_CAPACITY, **launch}
    if apply_patch(assets.PATCH):
        launch["app_kwargs"] = assets.app_kwargs(launch.get("app_kwargs") or {})
    return launch
