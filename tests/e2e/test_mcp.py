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


def call_tool(url: str, name: str, arguments: dict) -> dict | list:
    """One tool call through the `mcp` client over streamable HTTP; the answer's text parsed as JSON."""
    import asyncio

    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async def call():
        async with (
            streamable_http_client(url + "/gradio_api/mcp/") as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.call_tool(name, arguments)

    result = asyncio.run(call())
    assert not result.isError, result.content
    (content,) = result.content
    return json.loads(content.text)


def test_a_tool_answers_json_text_with_typed_fields(sample_app):
    rows = call_tool(sample_app.url, "search", {"query": "qwen3 0.6b"})
    assert rows and rows[0]["model_id"] == "Qwen/Qwen3-0.6B"
    assert type(rows[0]["tp"]) is int and rows[0]["result"] in {"PASS", "FAIL", "EXCLUDED", "not tested"}
    ranked = call_tool(sample_app.url, "search", {"view": "downloads"})
    assert {r["task"] for r in ranked} == {"text-generation"} and {r["ranked_by"] for r in ranked} == {"downloads"}
    assert all(r["hbm_peak_gb"] is None or isinstance(r["hbm_peak_gb"], float) for r in ranked)
    answer = call_tool(sample_app.url, "lookup", {"model_id": "Qwen/Qwen3-0.6B"})
    assert answer["model_id"] == "Qwen/Qwen3-0.6B" and isinstance(answer["history"], list)
