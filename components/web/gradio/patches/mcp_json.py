"""MCP tools answer JSON text, and MCP's own calls to the app stay on this machine.

Gradio 6.31 turns a tool's dict or list into text with Python's `str()` (`{'notes': None}`), which no
program can parse; the answers of the endpoints are plain JSON values, so each is sent as `json.dumps` of
itself (files, which this app never returns, are left to Gradio).

A tool call runs the endpoint through Gradio's queue by calling the app over HTTP. `launch()` gave the MCP
server the local address to call; a mounted app gives it none, and it calls the address the MCP client
used (on a Space, the public one, through Hugging Face's proxy). `call_locally()` gives it the local one.
"""

from __future__ import annotations

import json
from typing import Any

from gradio_client import utils as client_utils

from components.web.gradio.patches.guard import Patch, need, need_assigned, need_parameters


def check() -> None:
    from gradio import mcp  # here, not at the top: without the `mcp` package the module still imports

    need(mcp, "GradioMCPServer.postprocess_output_data", "GradioMCPServer.local_url")
    need_assigned(mcp.GradioMCPServer.__init__, "_local_url")
    need(client_utils, "is_file_obj_with_meta")
    need_parameters(mcp.GradioMCPServer.postprocess_output_data, "self", "data", "root_url")


def apply():
    from gradio import mcp

    original = mcp.GradioMCPServer.postprocess_output_data

    def postprocess_output_data(self, data, root_url):
        as_json = [
            json.dumps(d, ensure_ascii=False)
            if isinstance(d, (dict, list)) and not client_utils.is_file_obj_with_meta(d)
            else d
            for d in data
        ]
        return original(self, as_json, root_url)

    mcp.GradioMCPServer.postprocess_output_data = postprocess_output_data
    return original


PATCH = Patch("mcp_json", check, apply)


def call_locally(blocks: Any, url: str) -> bool:
    """Have the MCP server of `blocks` call the app at `url` (where the patch applies); whether it does."""
    server = getattr(blocks, "mcp_server_obj", None)
    if not PATCH.applied or server is None:
        return False
    server._local_url = url  # what launch() sets; `local_url` is read-only
    return True
