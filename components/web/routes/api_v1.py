"""The plain HTTP API: `GET /api/v1/NAME?ARG=…` answers what the named endpoint NAME answers, through the
same `Api` method (`queries/api.py`), for curl, CI jobs and browser tools on other origins.

Each route's parameters are its `Api` method's arguments, read from the signature (an argument the method
gains is a parameter at once), under the HTTP names in `RENAMED` (the table: `api_table.py`); an argument
without a default is required. Every answer carries an ETag (a hash of the body sent, so it changes exactly when the answer
does: a refresh, a new record), `Cache-Control: public, max-age=60` and `Access-Control-Allow-Origin: *`;
`If-None-Match` with that ETag is answered 304 without a body. A name the route does not take, a name
given twice or a missing required one is a 400 that names it (a typo
must never fall back to the default answer); a value the endpoint refuses (`ArgumentRefused`: text that is not UTF-8 among them) is a 400 and a
stack not in the data (`UnknownStack`) a 404, in the words the named endpoint gives (the statuses:
`components/web/errors.py`).
Refused requests are not logged: the caller reads why in the answer.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from components.queries.api import Api
from components.queries.argument_types import ASKER
from components.runtime import settings
from components.sources.app_sources import Moment, Sources
from components.sources.wanted_counts import Wanted
from components.web import etags
from components.web.asgi import read_body
from components.web.clients import client_address
from components.web.errors import REFUSED, RequestRefused, answer_of
from components.web.routes import openapi
from components.web.routes.api_table import (
    CACHE_CONTROL,
    ENDPOINTS,
    FORMS,
    JSON_TYPE,
    OPENAPI_PATH,
    PREFIX,
    Endpoint,
    Parameter,
    method_of,
    parameters,
)

CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag"}
PREFLIGHT_MAX_AGE = "86400"
# Every method reaches a route under /api/v1 (Starlette's default is GET only; a method a route did not list
# fell through to Gradio's 404): an endpoint answers the others 405 with Allow, an unknown address 404.
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(
        {"error": message}, status_code=status, headers={**CORS, "Cache-Control": "no-store", **(headers or {})}
    )


def named(text: str) -> str:
    """A name or value from the request, as an error message quotes it (cut short, control characters escaped)."""
    shown = settings.REFUSED_VALUE_SHOWN.value
    return repr(text[:shown]) + ("…" if len(text) > shown else "")


def arguments(raw: bytes, endpoint: Endpoint, params: Sequence[Parameter]) -> dict[str, str]:
    """The method's keyword arguments from a raw query string; raises RequestRefused for anything else."""
    if len(raw) > settings.API_V1_QUERY.value:
        raise RequestRefused(414, f"query string over {settings.API_V1_QUERY.value} bytes")
    # bytes that are not UTF-8 become lone surrogates, which the endpoint refuses in the words every surface gives
    pairs = parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="surrogateescape")
    by_name = {p.name: p for p in params}
    takes = ", ".join(by_name) or "no parameters"
    given: dict[str, str] = {}
    for name, sent in pairs:
        if name not in by_name:
            raise RequestRefused(400, f"unknown parameter {named(name)}; {endpoint.path} takes {takes}")
        if name in given:
            raise RequestRefused(400, f"parameter {named(name)} given more than once; give it once")
        given[name] = sent
    for p in params:
        asked = given.get(p.name)
        if p.required and not (asked or "").strip():
            why = "missing" if asked is None else "empty"
            raise RequestRefused(400, f"{why} parameter {p.name!r}" + (f": {p.description}" if p.description else ""))
        form, hint = FORMS.get(p.argument, (None, ""))
        if form and asked and asked.strip() and not form.match(asked.strip().lower()):
            raise RequestRefused(400, f"parameter {p.name!r} is {named(asked)}; {hint}")
    return {by_name[name].argument: value for name, value in given.items()}


def body_json(answer: Any) -> bytes:
    """The answer as JSON bytes, as Starlette's JSONResponse writes it; a lone surrogate a caller sent (JSON's
    `"\\udfff"`, which UTF-8 cannot hold) is written back as the same JSON escape."""
    text = json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode("utf-8", "backslashreplace")


def encoded_kept(before: Moment, after: Moment, path: str, asked: Mapping[str, object], answer: Any) -> bytes:
    """`body_json(answer)` of a kept endpoint's answer (`Endpoint.kept`: one per data moment and never changed), kept
    in the snapshot's memo by what shapes it: the route, its arguments and the data moment, so a poller's repeat costs
    no encoding (the grid's 100 KB took ~5–12 ms). Kept only when the data read `before` the call is the data read
    `after` it: each source swaps in a new value, so the answer was made from that moment."""
    same = all(getattr(before, part) is getattr(after, part) for part in ("snapshot", "rankings", "records"))
    if not same:
        return body_json(answer)
    key = ("api-v1-json", path, tuple(sorted(asked.items())), before.rankings.serial, before.records.serial)
    return before.snapshot.memo(key, lambda: body_json(answer))


def cached(request: Request, answer: Any, cache_control: str = CACHE_CONTROL, body: bytes | None = None) -> Response:
    """200 with the answer (`body`: its JSON, when the caller has it), or 304 without a body when the caller already
    holds it."""
    body = body_json(answer) if body is None else body
    return etags.response(request, body, JSON_TYPE, {**CORS, "Cache-Control": cache_control})


def preflight(methods: str) -> Response:
    """The answer to a browser's CORS preflight: any origin, these methods, the headers a reader sends.

    Not Starlette's `CORSMiddleware`: it wraps a whole app (here Gradio's pages too, which keep Gradio's own CORS),
    answers a preflight 200 `OK` in plain text with the methods it was built with, not each route's, and a
    preflight it refuses 400; each route here answers its own 204 with `Allow`."""
    return Response(
        status_code=204,
        headers={
            **CORS,
            "Access-Control-Allow-Methods": methods,
            "Access-Control-Allow-Headers": "Content-Type, If-None-Match",
            "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
            "Allow": methods,
        },
    )


class HttpApi:
    """The routes of `ENDPOINTS` over an `Api`."""

    def __init__(self, api: Api, endpoints: Sequence[Endpoint] = ENDPOINTS):
        self.api = api
        self.endpoints = tuple(endpoints)

    def method(self, endpoint: Endpoint) -> Callable[..., Any]:
        return method_of(self.api, endpoint)

    def route(self, endpoint: Endpoint) -> Route:
        method = self.method(endpoint)
        params = parameters(method, endpoint)
        asks = ASKER in inspect.signature(method).parameters  # who asked (/lookup counts askers for /wanted)
        methods = ("GET", "HEAD", "OPTIONS") if endpoint.method == "GET" else ("POST", "OPTIONS")
        allowed = ", ".join(methods)

        async def answer(request: Request) -> Response:
            if request.method == "OPTIONS":
                return preflight(allowed)
            if request.method not in methods:
                return error(405, f"{endpoint.path} answers {endpoint.method}", {"Allow": allowed})
            try:
                kwargs: dict[str, object] = dict(arguments(request.scope.get("query_string", b""), endpoint, params))
                if endpoint.body:
                    kwargs[endpoint.body] = await read_text(request)
                if asks:
                    kwargs[ASKER] = client_address(request.scope)
                before = self.api.sources.now()
                result = await run_in_threadpool(method, **kwargs)
            except REFUSED as refused:  # the request's, a value the endpoint does not take, a stack not in the data
                return error(*answer_of(refused))
            if endpoint.body:  # an answer to a posted file: nothing to cache
                return cached(request, result, "no-store")
            if endpoint.kept:
                asked = {name: value for name, value in kwargs.items() if name != ASKER}  # who asked shapes nothing
                body = encoded_kept(before, self.api.sources.now(), endpoint.path, asked, result)
                return cached(request, result, body=body)
            return cached(request, result)

        return Route(endpoint.path, answer, methods=ANY_METHOD)  # the others answered 405 above, with Allow

    def routes(self) -> list[Route]:
        document: dict[str, Any] = {}

        async def openapi_json(request: Request) -> Response:
            if request.method == "OPTIONS":
                return preflight("GET, HEAD, OPTIONS")
            if not document:  # built on the first request: start-up does not wait for it
                document.update(await run_in_threadpool(openapi.document, self.api, self.endpoints))
            return cached(request, document)

        async def unknown(request: Request) -> Response:
            names = ", ".join(e.path for e in self.endpoints)
            return error(404, f"no such route {named(request.url.path)}; the routes are {names} and {OPENAPI_PATH}")

        return [
            Route(OPENAPI_PATH, openapi_json, methods=["GET", "HEAD", "OPTIONS"]),
            *(self.route(e) for e in self.endpoints),
            Route(PREFIX + "/{rest:path}", unknown, methods=ANY_METHOD),  # no such route, whatever the method
        ]


async def read_text(request: Request) -> str:
    """A POST body as text: at most API_V1_BODY bytes of UTF-8."""
    body = await read_body(request.receive, settings.API_V1_BODY.value)
    if body is None:
        raise RequestRefused(413, f"body over {settings.API_V1_BODY.value // 1024} KB")
    return body.decode("utf-8", errors="surrogateescape")  # refused by the endpoint, as a query's are


def routes(sources: Sources, endpoints: Sequence[Endpoint] = ENDPOINTS, wanted: Wanted | None = None) -> list[Route]:
    """`GET /api/v1/NAME` for every endpoint of `endpoints`, `/api/v1/openapi.json`, and a JSON 404 for any
    other address under /api/v1; `wanted`: the counts /lookup adds to (default: the process's own)."""
    return HttpApi(Api(sources, wanted), endpoints).routes()
