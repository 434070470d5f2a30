"""The endpoints' arguments, checked before an endpoint runs: their types, and that none is missing.

Gradio hands an endpoint whatever JSON the caller sent (`/gradio_api/call/NAME`, gradio_client, MCP):
an int, a list or an object arrives as it is, where a string is wanted. Unchecked, `/compare` with ints
raised AttributeError deep in the queries: the caller read `{"error": null}` and the log a 40-line
traceback per call. `checked` makes a wrong type a `ArgumentRefused` that names the argument, which each half of the
web layer answers as the caller's clear error (not logged).

A value the caller did not send at all arrives as `MISSING`'s marker, put there by the plain HTTP route's
`MissingArgumentsMiddleware` (`web/middleware/missing_arguments.py`), and is refused naming it.

A string that cannot be written as UTF-8 (a lone surrogate: JSON's `"\\ud800"` parses to one) is refused here too,
in the same words on every surface: the plain call and gradio_client's route hand it on as it is, `/api/v1` hands
on bytes that are not UTF-8 as surrogates (`surrogateescape`), and MCP, whose library cannot send such text on,
gets `NOT_ENCODABLE`'s marker in its place (`web/middleware/refusals.py`). Unchecked, MCP answered Python's
`'utf-8' codec can't encode character ...`.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from components.queries.errors import ArgumentRefused

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])

# What `MissingArgumentsMiddleware` sends in place of a value the caller left out: `{MISSING: the argument's name}`.
MISSING = "__argument_missing__"
# What `McpBodyValidationMiddleware` sends in place of an MCP tool's argument whose text cannot be encoded (the MCP library, which
# checks each argument's type against the tool's schema, then sends it on as UTF-8 JSON, takes only a string).
NOT_ENCODABLE = "\x00__argument_not_utf8__\x00"
# The argument an endpoint takes from the server, not from the caller: the address asking (`Api.lookup`).
ASKER = "asker"


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
    """Whether `value` is the marker `MissingArgumentsMiddleware` puts in place of a value the caller did not send."""
    return isinstance(value, dict) and len(value) == 1 and MISSING in value


def encodable(text: str) -> bool:
    """Whether `text` can be written as UTF-8 (it holds no lone surrogate, nor `NOT_ENCODABLE`'s marker)."""
    if text.isascii():
        return text != NOT_ENCODABLE
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def not_encodable(fn_name: str, name: str) -> str:
    """The refusal of an argument whose text cannot be encoded, the same words on every surface."""
    return (
        f"{fn_name}: the argument {name} holds text that cannot be encoded as UTF-8 "
        "(a lone surrogate such as \\ud800, or bytes that are not UTF-8)"
    )


def parameters(fn: Callable[..., Any]) -> list[str]:
    """The names of the arguments a caller gives `fn` (a method's `self` is not one, nor `ASKER`)."""
    return [name for name in inspect.signature(fn).parameters if name not in ("self", ASKER)]


def answers_as(name: str) -> Callable[[F], F]:
    """Decorator: a method that answers what the endpoint `name` answers, under another name (`Api.search_by_size`
    is GET /api/v1/search), refuses in that endpoint's name."""

    def named(fn: F) -> F:
        fn.answers_as = name  # type: ignore[attr-defined]  # read by `checked`
        return fn

    return named


def checked(fn: F) -> F:
    """`fn` that first checks no argument is missing and every argument annotated `str` is a string that can be
    encoded as UTF-8, else raises `ArgumentRefused` naming them.

    The signature, docstring and annotations stay `fn`'s: Gradio reads them for the API page and MCP.
    """
    signature = inspect.signature(fn)
    wanted = len(parameters(fn))
    label = getattr(fn, "answers_as", fn.__name__)
    # `str`, or "str" in a module with `from __future__ import annotations`: nothing to evaluate
    strings = [name for name, p in signature.parameters.items() if p.annotation in (str, "str")]
    defaults = {name: ' ("" for the default)' for name, p in signature.parameters.items() if p.default == ""}

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = signature.bind_partial(*args, **kwargs).arguments
        missing = [name for name, value in given.items() if is_missing(value)]
        if missing:
            raise ArgumentRefused(
                f"{label}: {wanted} arguments wanted, {wanted - len(missing)} given; missing: {', '.join(missing)}"
            )
        for name in strings:
            if name in given and not isinstance(given[name], str):
                raise ArgumentRefused(
                    f"{label}: the argument {name} must be a string{defaults.get(name, '')}, not {kind(given[name])}"
                )
            if name in given and not encodable(given[name]):
                raise ArgumentRefused(not_encodable(label, name))
        return fn(*args, **kwargs)

    return typing.cast(F, wrapper)


def check_arguments(cls: type[T]) -> type[T]:
    """Class decorator: every public method of `cls` checks its arguments (see `checked`), so an endpoint
    added later is covered without a line of its own."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(member):
            setattr(cls, name, checked(member))
    return cls
