"""`MissingArgumentsMiddleware`: a named endpoint called over plain HTTP with fewer values than it takes reaches it, so that it
refuses the call in words naming what is missing.

A call with fewer values than its endpoint takes never reaches the endpoint: Gradio refuses it inside its
queue with a ValueError, which the caller reads as `{"error": null}` (and the log gets a traceback quoting
the values sent, newlines and all). Two halves, both the app's own, make it an error naming the missing
arguments:

- `MissingArgumentsMiddleware`, an ASGI middleware on `POST /gradio_api/call/NAME` (the plain HTTP route, whose `data` is a
  list), fills each missing value with a marker (`{"__argument_missing__": NAME}`), so the call reaches the
  endpoint;
- `checked` (`queries/argument_types.py`), around each endpoint, finds the markers and refuses the call, in the
  answer's usual place (the result stream's `error` event), as a wrong type is refused.

gradio_client and MCP build the list themselves from the endpoint's schema (`construct_args`): a missing
argument with a default gets it, and one without is refused before the call with "No value provided for
required argument: NAME". Only the plain HTTP route lets a short list through, so only it is filled.
A patch of Gradio's own check would cover all three, but would stand down with the next Gradio release.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from components.queries.argument_types import MISSING
from components.web.asgi import ASGIApp, Receive, Scope, Send, read_body, relative_path, replay

CALL = re.compile(r"^/gradio_api/call/([^/]+)/?$")


def filled(body: bytes, names: Sequence[str]) -> bytes | None:
    """`body` (a `/gradio_api/call/NAME` body) with a marker for each of `names` past the values sent; None
    when it needs none (or is not such a body: Gradio answers it as it would)."""
    try:
        call = json.loads(body)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    data = call.get("data") if isinstance(call, dict) else None
    if not isinstance(data, list) or len(data) >= len(names):
        return None
    call["data"] = data + [{MISSING: name} for name in names[len(data) :]]
    return json.dumps(call).encode()


class MissingArgumentsMiddleware:
    """ASGI middleware: a `POST /gradio_api/call/NAME` with fewer values than endpoint NAME takes reaches
    it with a marker for each missing one (`checked` turns them into an error naming them)."""

    def __init__(self, app: ASGIApp, endpoints: Mapping[str, Sequence[str]]):
        self.app = app
        self.endpoints = endpoints  # api_name -> its arguments' names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = CALL.match(relative_path(scope)) if scope["type"] == "http" and scope["method"] == "POST" else None
        names = self.endpoints.get(found.group(1)) if found else None
        if not names:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        sent = filled(body, names) or body
        headers = [
            (k, v) for k, v in scope.get("headers", ()) if k.lower() not in (b"content-length", b"transfer-encoding")
        ]
        scope = {**scope, "headers": [*headers, (b"content-length", str(len(sent)).encode())]}
        await self.app(scope, replay(sent, receive), send)
