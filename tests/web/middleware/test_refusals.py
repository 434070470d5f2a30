"""What `refusals.py` refuses: uploads, and MCP bodies that are not MCP."""

from __future__ import annotations

import logging

from components.web.asgi import RefusalLog
from components.web.middleware import refusals
from tests.helpers import run_async

METHODS = refusals.mcp_methods()


def test_the_mcp_methods_are_read_from_the_mcp_library():
    assert {"initialize", "tools/list", "tools/call", "ping", "notifications/initialized"} <= METHODS


def test_what_is_not_mcp_is_named():
    why = lambda body: refusals.why_not_mcp(body, METHODS)  # noqa: E731
    assert why(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}') is None
    assert why(b'[{"jsonrpc":"2.0","method":"notifications/initialized"}]') is None
    assert why(b'{"jsonrpc":"2.0","id":1,"result":{}}') is None
    assert why(b"\xff\xfe\xfd") == "not UTF-8"
    assert why(b"{") == "not JSON"
    assert why(b"[]") == "not a JSON-RPC 2.0 message"
    assert why(b'{"jsonrpc":"2.0","id":1}') == "a JSON-RPC message with no method"
    assert why(b'{"jsonrpc":"2.0","id":1,"method":"x\\nFORGED"}') == "an unknown method 'x\\nFORGED'"
    assert why(b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}') == "params that are not an object"
    assert why(b"[" * 100_000) == "not JSON"
    assert why(b'{"jsonrpc":"2.0","id":' + b"9" * 500_000 + b"}") == "not JSON"  # past Python's digit limit


def run(app, scope, body=b""):
    sent = []

    async def receive():
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message):
        sent.append(message)

    run_async(app(scope, receive, send))
    return sent


def test_uploads_are_refused_and_other_routes_pass():
    reached = []

    async def inner(scope, receive, send):
        reached.append(scope["path"])

    gate = refusals.UploadRefusalMiddleware(inner)
    sent = run(gate, {"type": "http", "method": "POST", "path": "/gradio_api/upload", "headers": []})
    assert sent[0]["status"] == 403 and b"takes no uploads" in sent[1]["body"] and not reached
    run(gate, {"type": "http", "method": "GET", "path": "/gradio_api/upload_progress", "headers": []})
    assert reached == ["/gradio_api/upload_progress"]


def test_the_validation_warning_of_the_mcp_library_becomes_one_throttled_line(caplog):
    line = refusals.ThrottledLogFilter({"Failed to validate": "that could not be validated"}, RefusalLog(what="mcp"))
    records = [logging.LogRecord("root", logging.WARNING, "", 0, "Failed to validate request: 28\n...", (), None)] * 10
    assert [line.filter(r) for r in records] == [False] * 10
    other = logging.LogRecord("root", logging.WARNING, "", 0, "something else", (), None)
    assert line.filter(other) is True
    shown = [r for r in caplog.records if "could not be validated" in r.getMessage()]
    assert len(shown) == 3
