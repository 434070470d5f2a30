"""The "API endpoints" page (`/endpoints`): what programs can ask, and where each way of asking is described.

Gradio lists the named endpoints with the page that declares them (`gr.api`, ~45 KB of schemas no other page
needs), so they sit here, on a page the nav bar does not show. A person who opens it reads what it is for
rather than a blank page.
"""

from __future__ import annotations

import gradio as gr

from components.queries.api import NAMED, Api
from components.web.gradio import endpoints

INTRO = """## API endpoints

Every answer on these pages also comes as JSON, for scripts, CI jobs and agents:

- **Named endpoints**, for `gradio_client` and MCP clients: their arguments and answers are in
  [Gradio's API panel](?view=api) (*Use via API or MCP* at the bottom of every page).
- **Plain HTTP**: `GET /api/v1/NAME?…`, described by the OpenAPI document
  [`/api/v1/openapi.json`](./api/v1/openapi.json).
- **MCP**: the server at `/gradio_api/mcp/`, one tool per named endpoint.

The named endpoints:
"""


def summary() -> str:
    """The page's text: how to call the app, and each named endpoint with the first line of its description."""
    lines = [INTRO]
    for name in NAMED:
        doc = (getattr(Api, name).__doc__ or "").strip().splitlines()
        lines.append(f"- `/{name}`: {doc[0] if doc else ''}")
    return "\n".join(lines)


def build(api: Api) -> None:
    """Lay out the page's contents (inside its `demo.route(...)`): the text, and the named endpoints, declared
    here for gradio_client, HTTP and MCP."""
    gr.Markdown(summary(), elem_id="endpoints-list")
    endpoints.declare(api)
