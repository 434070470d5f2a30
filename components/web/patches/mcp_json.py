"""MCP tools answer JSON text.

Gradio 6.31 turns a tool's dict or list into text with Python's `str()` (`{'notes': None}`), which no
program can parse; the answers of the endpoints are plain JSON values, so each is sent as `json.dumps` of
itself (files, which this app never returns, are left to Gradio).
"""

from __future__ import annotations

import json

from gradio_client import utils as client_utils

from components.web.patches.guard import Patch, need, need_parameters


def check() -> None:
    from gradio import mcp  # here, not at the top: without the `mcp` package the module still imports

    need(mcp, "GradioMCPServer.postprocess_output_data")
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
