"""The named endpoints' arguments, checked before an endpoint runs: their types, and that none is missing.

Gradio hands an endpoint whatever JSON the caller sent (`/gradio_api/call/NAME`, gradio_client, MCP):
an int, a list or an object arrives as it is, where a string is wanted. Unchecked, `/compare` with ints
raised AttributeError deep in the queries: the caller read `{"error": null}` and the log a 40-line
traceback per call. `checked` makes a wrong type a `gr.Error` that names the argument and is not logged.

A call with fewer values than its endpoint takes never reaches the endpoint: Gradio refuses it inside its
queue with a ValueError, which the caller reads as `{"error": null}` (and the log gets a traceback quoting
the values sent, newlines and all). Two halves, both the app's own, make it an error naming the missing
arguments:

- `ShortCalls`, an ASGI middleware on `POST /gradio_api/call/NAME` (the plain HTTP route, whose `data` is a
  list), fills each missing value with a marker (`{"__argument_missing__": NAME}`), so the call reaches the
  endpoint;
- `checked`, around each endpoint, finds the markers and raises the error, in the answer's usual place
  (the result stream's `error` event), as a wrong type does.

gradio_client and MCP build the list themselves from the endpoint's schema (`construct_args`): a missing
argument with a default gets it, and one without is refused before the call with "No value provided for
required argument: NAME". Only the plain HTTP route lets a short list through, so only it is filled.
A patch of Gradio's own check would cover all three, but would stand down with the next Gradio release.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import gradio as gr

from components.web.asgi import ASGIApp, Receive, Scope, Send, read_body, relative_path
from components.web.middleware.limits import replay

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

MISSING = "__argument_missing__"
CALL = re.compile(r"^/gradio_api/call/([^/]+)/?$")


def kind(value: Any) -> str:
    """What a JSON value is, as a caller would name it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


def is_missing(value: Any) -> bool:
    """Whether `value` is the marker `ShortCalls` puts in place of a value the caller did not send."""
    return isinstance(value, dict) and len(value) == 1 and MISSING in value


def parameters(fn: Callable[..., Any]) -> list[str]:
    """The names of the arguments a caller gives `fn` (a method's `self` is not one)."""
    return [name for name in inspect.signature(fn).parameters if name != "self"]


def checked(fn: F) -> F:
    """`fn` that first checks no argument is missing and every argument annotated `str` is a string, else
    raises a `gr.Error` naming them.

    The signature, docstring and annotations stay `fn`'s: Gradio reads them for the API page and MCP.
    """
    signature = inspect.signature(fn)
    wanted = len(parameters(fn))
    # `str`, or "str" in a module with `from __future__ import annotations`: nothing to evaluate
    strings = [name for name, p in signature.parameters.items() if p.annotation in (str, "str")]
    defaults = {name: ' ("" for the default)' for name, p in signature.parameters.items() if p.default == ""}

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = signature.bind_partial(*args, **kwargs).arguments
        missing = [name for name, value in given.items() if is_missing(value)]
        if missing:
            raise gr.Error(
                f"{fn.__name__}: {wanted} arguments wanted, {wanted - len(missing)} given; "
                f"missing: {', '.join(missing)}",
                print_exception=False,
            )
        for name in strings:
            if name in given and not isinstance(given[name], str):
                raise gr.Error(
                    f"{fn.__name__}: the argument {name} must be a string{defaults.get(name, '')}, "
                    f"not {kind(given[name])}",
                    print_exception=False,
                )
        return fn(*args, **kwargs)

    return typing.cast(F, wrapper)


def check_arguments(cls: type[T]) -> type[T]:
    """Class decorator: every public method of `cls` checks its arguments (see `checked`), so an endpoint
    added later is covered without a line of its own."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(member):
            setattr(cls, name, checked(member))
    return cls


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


class ShortCalls:
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
        if body is None:
            return
        sent = filled(body, names) or body
        headers = [
            (k, v) for k, v in scope.get("headers", ()) if k.lower() not in (b"content-length", b"transfer-encoding")
        ]
        scope = {**scope, "headers": [*headers, (b"content-length", str(len(sent)).encode())]}
        await self.app(scope, replay(sent, receive), send)
