"""Requests refused at the door: uploads (the app takes no files) and MCP messages that are not MCP.

`UploadRefusalMiddleware` answers Gradio's upload route 403: every Gradio app has it, and it kept up to 1,000 files a
request for ever (40 requests left 34,000 files, 275 MB); nothing on this app's pages uploads.
`McpBodyValidationMiddleware` reads an MCP POST body (already bounded by `limits.BodySizeLimitMiddleware`, in front of it) and answers a JSON-RPC error
itself when the body is not UTF-8 JSON-RPC naming a method MCP knows: the MCP library logged ~95 lines
of validation errors for one unknown method and an 11-line traceback for a non-UTF-8 body.
A `tools/call` whose argument holds text that cannot be encoded as UTF-8 (JSON's `"\\ud800"`, a lone surrogate) reaches
the tool with `argument_types.NOT_ENCODABLE` in that argument's place (`encodable_arguments`): the MCP library could
not send such text on to the app (it answered Python's `'utf-8' codec can't encode ...`), and the endpoint's own
check refuses the marker in the words every other surface gives. Each refusal is logged through a `RefusalLog` (a few lines a minute, then a count). `quiet_loggers()`
keeps a normal MCP tool call out of the log (its INFO lines: the session, the request type, the
app's own HTTP call) and cuts what the MCP library still logs for a message it cannot validate, or for
a call of a tool the app does not have, to one throttled line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any, get_args

from components.queries.argument_types import NOT_ENCODABLE, encodable
from components.runtime import settings
from components.web.asgi import ASGIApp, Receive, RefusalLog, Scope, Send, answer, read_body, relative_path, replay

log = logging.getLogger(__name__)

UPLOAD_PATHS = ("/gradio_api/upload", "/upload")
MCP_PREFIX = "/gradio_api/mcp"
# The MCP library's INFO loggers (one line per session, per request, per tool call's HTTP call to the app).
QUIET = ("mcp.server.streamable_http", "mcp.server.streamable_http_manager", "mcp.server.lowlevel.server", "httpx")
NOT_VALID = "Failed to validate"  # how the MCP library starts its many-line validation warnings
UNKNOWN_TOOL = "Tool '%s' not listed"  # how it starts its warning about a `tools/call` of an unknown tool


class UploadRefusalMiddleware:
    """ASGI middleware: Gradio's upload route answers 403 `{"error": ...}`, unread; one throttled log line."""

    def __init__(self, app: ASGIApp, refusals: RefusalLog | None = None):
        self.app = app
        self.refusals = refusals or RefusalLog(what="upload", logger=log)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and relative_path(scope).rstrip("/") in UPLOAD_PATHS:
            self.refusals.refused("to upload (this app takes no files)")
            await answer(send, 403, "this app takes no uploads")
            return
        await self.app(scope, receive, send)


def mcp_methods() -> frozenset[str]:
    """The JSON-RPC methods an MCP client may send, read from the MCP library's own message types."""
    from mcp import types

    methods: set[str] = set()
    for union in (types.ClientRequest, types.ClientNotification):
        for model in get_args(union.model_fields["root"].annotation):
            methods.update(get_args(model.model_fields["method"].annotation))
    return frozenset(methods)


def why_not_mcp(body: bytes, methods: Iterable[str]) -> str | None:
    """None when `body` is a JSON-RPC message (or batch) an MCP server can take; else what is wrong with it."""
    try:
        message: Any = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8"
    except (ValueError, RecursionError):  # a number past Python's digit limit is a plain ValueError
        return "not JSON"
    for one in message if isinstance(message, list) and message else [message]:
        if not isinstance(one, dict) or one.get("jsonrpc") != "2.0":
            return "not a JSON-RPC 2.0 message"
        if "method" not in one:
            if "id" in one and ("result" in one or "error" in one):
                continue  # a client's answer to a server's request
            return "a JSON-RPC message with no method"
        if not isinstance(one["method"], str):
            return "a JSON-RPC message whose method is not a string"
        if one["method"] not in methods:
            return f"an unknown method {one['method'][: settings.RPC_METHOD_SHOWN.value]!r}"
        if "params" in one and not isinstance(one["params"], dict):
            return "params that are not an object"
    return None


def holds_unencodable(value: Any) -> bool:
    """Whether a JSON value holds, anywhere, a string (or key) that cannot be encoded as UTF-8."""
    if isinstance(value, str):
        return not encodable(value)
    if isinstance(value, list):
        return any(holds_unencodable(v) for v in value)
    if isinstance(value, dict):
        return any(holds_unencodable(k) or holds_unencodable(v) for k, v in value.items())
    return False


def encodable_arguments(body: bytes) -> bytes | None:
    """`body` (an MCP message or batch, already checked) with `NOT_ENCODABLE` in place of each `tools/call` argument
    that holds text that cannot be encoded; None when there is none."""
    message: Any = json.loads(body)
    changed = False
    for one in message if isinstance(message, list) else [message]:
        params = one.get("params") if one.get("method") == "tools/call" else None
        arguments = params.get("arguments") if isinstance(params, dict) else None
        if isinstance(arguments, dict):
            for name, value in arguments.items():
                if holds_unencodable(value) or holds_unencodable(name):
                    arguments[name] = NOT_ENCODABLE
                    changed = True
    return json.dumps(message).encode() if changed else None


class McpBodyValidationMiddleware:
    """ASGI middleware: an MCP POST whose body is not MCP gets a JSON-RPC error (400) and one throttled log
    line, and never reaches the MCP library."""

    def __init__(self, app: ASGIApp, refusals: RefusalLog | None = None):
        self.app = app
        self.refusals = refusals or RefusalLog(what="mcp", logger=log)
        try:
            self.methods: frozenset[str] | None = mcp_methods()
        except ImportError:  # no MCP library: Gradio serves no MCP route, and there is nothing to guard
            self.methods = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.methods is None
            or scope["type"] != "http"
            or scope["method"] != "POST"
            or not relative_path(scope).startswith(MCP_PREFIX)
        ):
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        why = why_not_mcp(body, self.methods)
        if why is None:
            sent = encodable_arguments(body)
            if sent is not None:
                headers = [(k, v) for k, v in scope.get("headers", ()) if k.lower() != b"content-length"]
                scope = {**scope, "headers": [*headers, (b"content-length", str(len(sent)).encode())]}
            await self.app(scope, replay(sent or body, receive), send)
            return
        self.refusals.refused(f"with a body that is {why}")
        await answer(send, 400, f"not an MCP message: the body is {why}")


class ThrottledLogFilter(logging.Filter):
    """On a logger: each record whose message starts with one of `reasons`' prefixes becomes a refusal of
    `refusals` (a few lines a minute, then a count) named by that prefix's reason."""

    def __init__(self, reasons: dict[str, str], refusals: RefusalLog):
        super().__init__()
        self.reasons = reasons
        self.refusals = refusals

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        for prefix, why in self.reasons.items():
            if message.startswith(prefix):
                self.refusals.refused(why)
                return False
        return True


def quiet_loggers() -> None:
    """Keep a normal MCP call out of the log; each message MCP cannot validate (logged on the root logger,
    one line per field of every message type it tried), each request that is not HTTP and each one past
    the connection cap (uvicorn, one line each) become throttled refusals."""
    for name in QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    throttled = (
        ("", {NOT_VALID: "that the MCP library could not validate"}, "mcp"),
        # one warning per call naming a tool the app does not have, the name in it: a throttled count instead
        ("mcp.server.lowlevel.server", {UNKNOWN_TOOL: "naming a tool this app does not have"}, "mcp"),
        ("uvicorn.error", {"Invalid HTTP request": "that is not valid HTTP", "Exceeded concurrency": "past the connection cap"}, "http"),
    )  # fmt: skip
    for name, reasons, what in throttled:
        logger = logging.getLogger(name or None)
        if not any(isinstance(f, ThrottledLogFilter) for f in logger.filters):
            logger.addFilter(ThrottledLogFilter(reasons, RefusalLog(what=what, logger=log)))
