"""The named endpoints as MCP tools: five of them, with their arguments and readable descriptions."""

from __future__ import annotations

import json
import urllib.request

EXPECTED = {
    "stacks": set(),
    "search": {"query", "view", "task", "neuronx_cc", "library_version"},
    "lookup": {"model_id", "neuronx_cc", "library_version"},
    "compare": {"neuronx_cc_a", "library_version_a", "neuronx_cc_b", "library_version_b"},
    "architectures": {"neuronx_cc", "library_version", "task"},
}


def schema(url: str) -> list[dict]:
    with urllib.request.urlopen(url + "/gradio_api/mcp/schema", timeout=30) as r:
        return json.load(r)


def test_the_schema_lists_exactly_the_five_tools_with_their_arguments(sample_app):
    tools = {t["name"]: t for t in schema(sample_app.url)}
    assert set(tools) == set(EXPECTED)
    for name, arguments in EXPECTED.items():
        assert set(tools[name]["inputSchema"].get("properties", {})) == arguments, name


def test_every_tool_and_argument_is_described_for_a_model(sample_app):
    for tool in schema(sample_app.url):
        assert len(tool["description"]) > 80, tool["name"]
        assert ", ," not in tool["description"] and ",," not in tool["description"], tool["description"]
        for name, prop in tool["inputSchema"].get("properties", {}).items():
            assert len(prop.get("description", "")) > 15, (tool["name"], name)
