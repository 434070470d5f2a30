"""The log (issue 45): what a caller sends never starts a line of its own, a flood of unknown MCP tools is one
throttled line, and clients cut at the request deadline are counted once a minute, not logged as errors.

Before: an MCP `tools/call` of an unknown tool wrote its name into a warning with no throttle, and a newline in
the name wrote a raw forged `ERROR ...` line; each client cut at the 20 s deadline was an
`ERROR ... failed: ClientDisconnect()` line.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
import time

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from components.runtime import settings
from components.web import asgi, server
from components.web.middleware import server_errors
from tests.hardening.test_bounds import started
from tests.helpers import LOG_TIME, free_port, log_message

FORGED = "ERROR components.web.server: FORGED"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def log_lines_app(tmp_path_factory):
    with started(tmp_path_factory, "log-lines") as app:
        yield app


def call_unknown_tool(url: str, name: str) -> httpx.Response:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": {}}}
    return httpx.post(url + "/gradio_api/mcp/", content=json.dumps(message).encode(), headers=MCP_HEADERS, timeout=30)


def test_a_flood_of_unknown_tools_with_forged_lines_in_their_names_is_a_few_escaped_lines(log_lines_app):
    before = len(log_lines_app.logged_through())
    for i in range(40):
        answer = call_unknown_tool(log_lines_app.server.url, f"nope-{i}\n{FORGED}\r\n{FORGED} \u2028{FORGED}")
        assert answer.status_code == 200 and "Unknown tool" in answer.text
    added = log_lines_app.logged_through()[before:]
    # Every line is a record (its UTC time first) or a traceback's indented line: none starts with what was sent.
    assert all(LOG_TIME.match(line) or line.startswith("    ") for line in added), added
    assert not [line for line in added if log_message(line).startswith("ERROR")], added
    assert len(added) <= settings.REFUSALS_SHOWN.value + 1, (
        added
    )  # the few shown, then one count when the minute closes


def test_a_record_is_one_line_whatever_its_arguments_hold():
    from components.runtime import logs

    formatter = logs.OneLineFormatter(logs.FORMAT)
    record = logging.LogRecord(
        "app", logging.WARNING, __file__, 1, "asked for %s", (f"x\n{FORGED}\r\x1b[31m\u2028\udfff",), None
    )
    line = formatter.format(record)
    assert "\n" not in line and "\r" not in line and "\x1b" not in line and "\u2028" not in line
    assert LOG_TIME.match(line) and line.encode("utf-8")
    assert log_message(line).startswith("WARNING app: asked for x\\n" + FORGED)
    try:
        raise ValueError(f"bad\n{FORGED}")
    except ValueError:
        import sys

        failed = logging.LogRecord("app", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    lines = formatter.format(failed).split("\n")
    assert log_message(lines[0]) == "ERROR app: failed" and all(line.startswith(logs.INDENT) for line in lines[1:])


async def echo(request: Request) -> JSONResponse:
    return JSONResponse({"bytes": len(await request.body())})


@pytest.fixture
def short_deadline(monkeypatch, caplog):
    """A server with the app's uvicorn configuration and its one-line errors, a 0.5 s request deadline and a
    4 s window for the count of cuts."""
    monkeypatch.setattr(server.DeadlineH11Protocol, "request_deadline", 0.5)
    cuts = asgi.RefusalLog(
        shown=0, window=4.0, what="connections", logger=server.log,
        counted="{what}: {total} cut at the 0.5 s request deadline in the last minute",
    )  # fmt: skip
    monkeypatch.setattr(server, "CUTS", cuts, raising=False)
    caplog.set_level(logging.INFO)
    port = free_port()
    app = server_errors.JsonServerErrorMiddleware(Starlette(routes=[Route("/echo", echo, methods=["POST"])]))
    log_lines_app = uvicorn.Server(server.config(app, "127.0.0.1", port))
    thread = threading.Thread(target=log_lines_app.run, daemon=True)
    thread.start()
    while not log_lines_app.started:
        time.sleep(0.01)
    yield port
    log_lines_app.should_exit = True
    thread.join(10)


def test_clients_cut_at_the_deadline_are_counted_not_logged_as_errors(short_deadline, caplog):
    for _ in range(3):
        with socket.create_connection(("127.0.0.1", short_deadline), timeout=10) as sock:
            sock.sendall(b"POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n0123456789")
            assert sock.recv(4096) == b""  # closed at the deadline, the body never whole
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not [r for r in caplog.records if "cut at the" in r.getMessage()]:
        time.sleep(0.05)
    counts = [r for r in caplog.records if "cut at the" in r.getMessage()]
    assert [r.getMessage() for r in counts] == ["connections: 3 cut at the 0.5 s request deadline in the last minute"]
    assert counts[0].levelno in (logging.INFO, logging.WARNING)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
