"""The named endpoints as MCP tools: nine of them, with their arguments and readable descriptions."""

from __future__ import annotations

import json
import urllib.request

EXPECTED = {
    "stacks": set(),
    "search": {"query", "view", "task", "neuronx_cc", "library_version"},
    "lookup": {"model_id", "neuronx_cc", "library_version"},
    "compare": {"neuronx_cc_a", "library_version_a", "neuronx_cc_b", "library_version_b"},
    "architectures": {"neuronx_cc", "library_version", "task"},
    "failures": {"neuronx_cc", "library_version"},
    "check_config": {"config_json", "neuronx_cc", "library_version"},
    "wanted": set(),
    "grid": {"library", "task"},
}


def schema(url: str) -> list[dict]:
    with urllib.request.urlopen(url + "/gradio_api/mcp/schema", timeout=30) as r:
        return json.load(r)


def test_the_schema_lists_exactly_the_nine_tools_with_their_arguments(sample_app):
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


def call_tools(url: str, calls: list[tuple[str, dict]]) -> list:
    """Call tools through a real MCP client (the `mcp` package, over streamable HTTP)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client

    async def run():
        async with streamablehttp_client(url + "/gradio_api/mcp/") as (read, write, _):  # noqa: SIM117
            async with ClientSession(read, write) as session:
                await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                assert names == set(EXPECTED)
                return [await session.call_tool(name, arguments) for name, arguments in calls]

    # a thread of its own: Playwright's sync API keeps an event loop running in the test's thread
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result(timeout=120)


def test_an_mcp_client_parses_every_answer_as_json(sample_app):
    config = '{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 1024, "num_hidden_layers": 28, "num_attention_heads": 16}'
    lookup, search, stacks, checked, grid = call_tools(
        sample_app.url,
        [
            ("lookup", {"model_id": "Qwen/Qwen3-0.6B", "neuronx_cc": "", "library_version": ""}),
            ("search", {"query": "qwen3", "view": "trending", "task": "", "neuronx_cc": "", "library_version": ""}),
            ("stacks", {}),
            ("check_config", {"config_json": config, "neuronx_cc": "", "library_version": ""}),
            ("grid", {"library": "", "task": "text-generation"}),
        ],
    )
    for result in (lookup, search, stacks, checked, grid):
        assert not result.isError and [c.type for c in result.content] == ["text"]
    answer = json.loads(lookup.content[0].text)  # JSON, not Python's repr ({'notes': None})
    assert answer["model_id"] == "Qwen/Qwen3-0.6B" and answer["result"] == "PASS" and type(answer["tp"]) is int
    assert "notes" in answer and answer["notes"] is None
    rows = json.loads(search.content[0].text)
    assert rows and all(type(r["rank"]) is int for r in rows) and {r["task"] for r in rows} == {"text-generation"}
    assert json.loads(stacks.content[0].text)[0]["models"] > 0
    assert json.loads(checked.content[0].text)["architecture"] == "Qwen3ForCausalLM"
    rows = {r["architecture"]: r for r in json.loads(grid.content[0].text)["rows"]}
    assert rows["PhiForCausalLM"]["regressed_since"]["library_version"] == "5.0.0"


def test_the_api_page_describes_each_answers_fields(sample_app):
    with urllib.request.urlopen(sample_app.url + "/gradio_api/info", timeout=30) as r:
        endpoints = json.load(r)["named_endpoints"]
    lookup = endpoints["/lookup"]["returns"][0]["type"]
    assert {"install_command", "cache_sync_command", "history", "evidence"} <= set(lookup["properties"])
    row = endpoints["/search"]["returns"][0]["type"]["items"]["properties"]
    assert {"model_id", "result", "tp", "wall_s", "rank"} <= set(row) and "integer" in json.dumps(row["tp"])
