"""Text that cannot be encoded as UTF-8 (a lone surrogate, JSON's `"\\ud800"`) gets the same plain refusal from the
named endpoint over plain HTTP, Gradio's queue (gradio_client's route), MCP and /api/v1 (issue 61): the words of
`argument_types.not_encodable`, never Python's codec error. Neither the `mcp` client nor gradio_client can send
such text (both encode their JSON as UTF-8 first), so these speak each protocol over raw HTTP."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest

from components.queries.argument_types import not_encodable

SEARCH = '{"query": "\\ud800", "view": "", "task": "", "neuronx_cc": "", "library_version": ""}'
REFUSAL = not_encodable("search", "query")
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@pytest.fixture(scope="module")
def raw_http(sample_app):
    with httpx.Client(base_url=sample_app.url, timeout=60) as client:
        yield client


def test_a_plain_call_refuses_it_in_words(raw_http):
    posted = raw_http.post("/gradio_api/call/search", content=b'{"data": ["\\ud800", "", "", "", ""]}',
                       headers={"content-type": "application/json"})  # fmt: skip
    stream = raw_http.get(f"/gradio_api/call/search/{posted.json()['event_id']}").text
    assert stream.startswith("event: error\n")
    assert json.loads(stream.split("data: ", 1)[1])["error"] == REFUSAL


def test_gradios_queue_refuses_it_in_words(raw_http):
    """`/gradio_api/queue/join`, the route gradio_client and MCP's own calls take."""
    session = uuid.uuid4().hex
    body = f'{{"data": ["\\ud800", "", "", "", ""], "fn_index": {fn_index(raw_http)}, "session_hash": "{session}"}}'
    joined = raw_http.post(
        "/gradio_api/queue/join", content=body.encode(), headers={"content-type": "application/json"}
    )
    assert joined.status_code == 200, joined.text
    with raw_http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session}) as stream:
        for line in stream.iter_lines():
            message = json.loads(line.removeprefix("data: ")) if line.startswith("data: ") else {}
            if message.get("msg") == "process_completed":
                break
    assert message["success"] is False and message["output"]["error"] == REFUSAL


def fn_index(http: httpx.Client) -> int:
    """The index of the /search endpoint among the page's events, from the config every page fetches."""
    config = http.get("/config").json()
    return next(d["id"] for d in config["dependencies"] if d.get("api_name") == "search")


def test_an_mcp_tool_refuses_it_in_words(raw_http):
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip
    assert raw_http.post("/gradio_api/mcp/", json=init, headers=MCP_HEADERS).status_code == 200
    call = (
        f'{{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {{"name": "search", "arguments": {SEARCH}}}}}'
    )
    answer = raw_http.post("/gradio_api/mcp/", content=call.encode(), headers=MCP_HEADERS)
    assert answer.status_code == 200
    data = next(line for line in answer.text.splitlines() if line.startswith("data: "))
    result = json.loads(data.removeprefix("data: "))["result"]
    assert result["isError"] is True and [c["text"] for c in result["content"]] == [REFUSAL]


@pytest.mark.parametrize(
    ("route", "refusal"),
    [
        ("/api/v1/search?q=%ED%A0%80", REFUSAL),  # the bytes a lone surrogate would be written as
        ("/api/v1/search?q=%FF", REFUSAL),
        ("/api/v1/lookup?model=%FF", not_encodable("lookup", "model_id")),
    ],
)
def test_api_v1_refuses_it_in_the_same_words(raw_http, route, refusal):
    answer = raw_http.get(route)
    assert answer.status_code == 400 and answer.json() == {"error": refusal}


def test_api_v1_refuses_a_body_that_is_not_utf8_in_the_same_words(raw_http):
    answer = raw_http.post("/api/v1/check_config", content=b"\xff")
    assert answer.status_code == 400 and answer.json() == {"error": not_encodable("check_config", "config_json")}
