"""The named endpoints' Gradio side: each `Api` method (`queries/api.py`) as Gradio serves it to gradio_client,
MCP and `/gradio_api/call/NAME`.

An endpoint's refusals (`ArgumentRefused`, `UnknownStack`) become Gradio's clear errors with the same words
(not logged), as `GET /api/v1` answers them 400 and 404 (both read `components/web/errors.py`'s table); the address asking (`Api.lookup`'s `asker`) is read
from Gradio's request, which Gradio hands the endpoint by the annotation of its `request` argument.
"""

import functools
import inspect
from collections.abc import Callable
from typing import Any

import gradio as gr

from components.queries.api import NAMED, Api
from components.queries.argument_types import ASKER
from components.web.clients import client_address
from components.web.gradio.errors import REFUSALS, gradio_error

REQUEST = "request"


def address_of(request: gr.Request) -> str:
    """The address a Gradio request came from, as every per-address limit reads it (`clients.client_address`)."""
    inner = getattr(request, "request", None)
    if inner is not None and hasattr(inner, "scope"):
        return client_address(inner.scope)
    client = getattr(request, "client", None)
    return str(getattr(client, "host", None) or "unknown")


def named_endpoint(method: Callable[..., Any]) -> Callable[..., Any]:
    """`method` as a Gradio endpoint: its refusals as `gr.Error`, and its `asker` argument, if it takes one,
    given as `request: gr.Request` (Gradio fills it; a call from code gives None). The docstring, the other
    arguments and the return annotation stay the method's: Gradio reads them for the API page and MCP."""
    signature = inspect.signature(method)
    asks = ASKER in signature.parameters
    if asks:
        signature = signature.replace(
            parameters=[
                p.replace(name=REQUEST, annotation=gr.Request | None) if p.name == ASKER else p
                for p in signature.parameters.values()
            ]
        )

    @functools.wraps(method)
    def endpoint(*args: Any, **kwargs: Any) -> Any:
        if asks:
            given = signature.bind(*args, **kwargs).arguments
            request = given.pop(REQUEST, None)
            kwargs, args = {**given, ASKER: address_of(request) if request is not None else None}, ()
        try:
            return method(*args, **kwargs)
        except REFUSALS as refused:
            raise gradio_error(refused) from None

    if asks:
        endpoint.__signature__ = signature  # type: ignore[attr-defined]  # what inspect.signature reads first
        annotations = {k: v for k, v in method.__annotations__.items() if k != ASKER}
        endpoint.__annotations__ = {**annotations, REQUEST: gr.Request | None}
    return endpoint


def declare(api: Api) -> None:
    """Declare every named endpoint of `api` (inside the page that lists them, `pages/endpoints.py`)."""
    for name in NAMED:
        gr.api(named_endpoint(getattr(api, name)), api_name=name)
