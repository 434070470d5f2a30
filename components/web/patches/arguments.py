"""Argument types of the named endpoints, checked before an endpoint runs.

Gradio hands an endpoint whatever JSON the caller sent (`/gradio_api/call/NAME`, gradio_client, MCP):
an int, a list or an object arrives as it is, where a string is wanted. Unchecked, `/compare` with ints
raised AttributeError deep in the queries: the caller read `{"error": null}` and the log a 40-line
traceback per call. Here a wrong type is a `gr.Error` that names the argument and is not logged.
Gradio's own check that a call sent enough values raised a ValueError too (`{"error": null}`, and a
traceback quoting the values sent, newlines and all); `PATCH` makes that a `gr.Error` as well.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import gradio as gr
from gradio.block_function import BlockFunction

from components.web.patches.guard import Patch, PatchMismatch, need, need_assigned, need_parameters, source_of

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


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


def checked(fn: F) -> F:
    """`fn` that first checks every argument annotated `str` is a string, else raises a `gr.Error` naming it.

    The signature, docstring and annotations stay `fn`'s: Gradio reads them for the API page and MCP.
    """
    signature = inspect.signature(fn)
    # `str`, or "str" in a module with `from __future__ import annotations`: nothing to evaluate
    strings = [name for name, p in signature.parameters.items() if p.annotation in (str, "str")]
    defaults = {name: ' ("" for the default)' for name, p in signature.parameters.items() if p.default == ""}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        given = signature.bind_partial(*args, **kwargs).arguments
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
    """Class decorator: every public method of `cls` checks its string arguments (see `checked`), so an
    endpoint added later is covered without a line of its own."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(member):
            setattr(cls, name, checked(member))
    return cls


def check() -> None:
    need(gr.Blocks, "validate_inputs", "preprocess_data")
    need_parameters(gr.Blocks.validate_inputs, "self", "block_fn", "inputs")
    if "self.validate_inputs(block_fn, inputs)" not in source_of(gr.Blocks.preprocess_data):
        raise PatchMismatch("Blocks.preprocess_data no longer calls validate_inputs(block_fn, inputs)")
    need_assigned(BlockFunction.__init__, "inputs", "fn", "api_name", "name")


def apply() -> Callable:
    """Make a call with fewer values than its endpoint has arguments a `gr.Error` naming the missing ones
    (Gradio raises a ValueError, which the caller reads as `{"error": null}`). No public mechanism reaches
    this check: Gradio makes it inside the queue, after every route (HTTP, gradio_client, MCP) has taken
    the call."""
    original = gr.Blocks.validate_inputs

    def validate_inputs(self, block_fn, inputs: list[Any]) -> None:
        wanted = len(block_fn.inputs)
        if len(inputs) < wanted:
            names = list(inspect.signature(block_fn.fn).parameters) if block_fn.fn else []
            missing = names[len(inputs) : wanted] if len(names) >= wanted else []
            raise gr.Error(
                f"{block_fn.api_name or block_fn.name}: {wanted} arguments wanted, {len(inputs)} given"
                + (f"; missing: {', '.join(missing)}" if missing else ""),
                print_exception=False,
            )
        original(self, block_fn, inputs)

    gr.Blocks.validate_inputs = validate_inputs
    return original


PATCH = Patch("arguments", check, apply)
