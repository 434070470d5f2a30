"""The plain HTTP API's table: its routes (`ENDPOINTS`, one line per named endpoint, each answered by an `Api`
method of `queries/api.py`) and each route's query parameters, read from its method's signature and docstring.

`api_v1.py` serves the table and `openapi.py` describes it; both read it here.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from components.queries import api, sizes, views
from components.queries.argument_types import ASKER
from components.runtime import settings
from components.web import cache_control

PREFIX = "/api/v1"
OPENAPI_PATH = f"{PREFIX}/openapi.json"
CACHE_CONTROL = cache_control.shared(
    settings.API_V1_CACHE_SECONDS.value
)  # the data changes a few times a day; a CI job polls
JSON_TYPE = "application/json"
# The Api argument names that read badly in a URL, and the names the routes take instead.
RENAMED = {"query": "q", "model_id": "model"}
# Arguments with a fixed set of values, declared as an enum in the OpenAPI document (the endpoint refuses any
# other, `queries/arguments.py`, with the words the named endpoint gives: a task or a view is checked there).
CHOICES = {"view": views.VIEWS}
# Arguments of a fixed form (compared lowercased, as the endpoint does): anything else is a 400, not any size.
FORMS = {
    "size": (sizes.RANGE, "a size is MIN-MAX in billions of parameters, either end open, such as 1-10 or 100-"),
}


@dataclass(frozen=True)
class Endpoint:
    """One route: the `Api` method `name`, read with GET; `body`: the argument a POST body fills instead
    (the text of a file such as a config.json), the other arguments still coming from the query string."""

    name: str
    body: str | None = None
    function: str = ""  # the `Api` method that answers, when not `name` (a route may take more than the endpoint)
    kept: bool = False  # its answer is one object per data moment, never changed: its JSON is kept with it (`api_v1`)

    @property
    def answers_with(self) -> str:
        return self.function or self.name

    @property
    def path(self) -> str:
        return f"{PREFIX}/{self.name}"

    @property
    def method(self) -> str:
        return "POST" if self.body else "GET"


# The route table: one line per named endpoint. Parameters come from each method's signature; /api/v1/search
# also takes `size` (the named /search keeps its five arguments: over plain HTTP a new one breaks every caller).
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("stacks"),
    Endpoint("search", function="search_by_size"),
    Endpoint("lookup", function="lookup_on_stack"),  # an unknown stack is a 404 here, "not tested" in /lookup
    Endpoint("compare"),
    Endpoint("failures"),
    Endpoint("architectures"),
    Endpoint("check_config", body="config_json"),
    Endpoint("wanted"),
    Endpoint("grid", kept=True),  # `grid.grid` is memoised per snapshot and read-only
)


@dataclass(frozen=True)
class Parameter:
    """A query parameter of a route: its HTTP `name`, the `Api` `argument` it fills, and what the
    method's docstring says of it."""

    name: str
    argument: str
    required: bool
    default: str | None
    description: str
    choices: tuple[str, ...] = ()


def method_of(answers: api.Api, endpoint: Endpoint) -> Callable[..., Any]:
    """The `Api` method that answers `endpoint`'s route."""
    return typing.cast(Callable[..., Any], getattr(answers, endpoint.answers_with))


def parameters(method: Callable[..., Any], endpoint: Endpoint) -> list[Parameter]:
    """The query parameters of `endpoint`'s route, in the order of `method`'s arguments."""
    described = api.described(method).arguments
    found = []
    for argument, p in inspect.signature(method).parameters.items():
        if argument in ("self", ASKER) or argument == endpoint.body:
            continue
        required = p.default is inspect.Parameter.empty
        found.append(
            Parameter(
                RENAMED.get(argument, argument), argument, required, None if required else p.default,
                described.get(argument, ""), tuple(CHOICES.get(argument, ())),
            )
        )  # fmt: skip
    return found
