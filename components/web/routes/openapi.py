"""`GET /api/v1/openapi.json`: the OpenAPI 3.1 document of the plain HTTP API, made from what the routes run.

The answer schemas come from the `Api` methods' return annotations (the TypedDicts of
`queries/answers.py`, the same source Gradio's API page and the MCP schema read), through pydantic;
the parameters from the route table (`api_table.py`), their descriptions from the methods' docstrings
(`api.described`). Pydantic refuses `typing.TypedDict` before Python 3.12, so each answer type is first copied
as a `typing_extensions.TypedDict` with the same name, docstring, fields and required keys.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any, Union

import typing_extensions
from pydantic import TypeAdapter
from pydantic.json_schema import JsonSchemaMode

from components.queries import answers, api
from components.runtime import settings
from components.web.routes import api_table
from components.web.routes.api_table import ENDPOINTS, JSON_TYPE, Endpoint, Parameter, method_of

REF = "#/components/schemas/{model}"
VERSION = "1"
TITLE = "torch-neuronx model support"
ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string", "description": "What was wrong, in words."}},
    "required": ["error"],
}
HEADERS = {
    "ETag": {"description": "Changes exactly when the answer does.", "schema": {"type": "string"}},
    "Cache-Control": {"description": api_table.CACHE_CONTROL, "schema": {"type": "string"}},
    "Access-Control-Allow-Origin": {"description": "*", "schema": {"type": "string"}},
}


def portable(shape: Any, copies: dict[type, Any] | None = None) -> Any:
    """`shape` with every `typing.TypedDict` in it copied as a `typing_extensions.TypedDict` (one copy per type)."""
    copies = {} if copies is None else copies
    if typing_extensions.is_typeddict(shape):
        if shape not in copies:
            required = shape.__required_keys__
            fields = {
                name: (typing_extensions.Required if name in required else typing_extensions.NotRequired)[
                    portable(hint, copies)
                ]
                for name, hint in typing.get_type_hints(shape).items()
            }
            copy = typing_extensions.TypedDict(shape.__name__, fields)  # type: ignore[misc]  # a TypedDict built at run time, named after the answer type it copies
            copy.__doc__, copy.__module__ = shape.__doc__, shape.__module__
            copies[shape] = copy
        return copies[shape]
    origin, args = typing.get_origin(shape), typing.get_args(shape)
    if origin in (Union, types.UnionType):
        return Union[tuple(portable(a, copies) for a in args)]  # noqa: UP007 - built from a tuple
    if origin in (list, tuple, dict) and args:
        return origin[tuple(portable(a, copies) for a in args)]
    return shape


def field_descriptions(name: str) -> dict[str, str]:
    """One line per field of the answer type `name`, from `answers.describe(shape)` ({field: line}) when the
    answer types carry descriptions; until they do, fields are described by their type alone."""
    describe = getattr(answers, "describe", None)
    shape = getattr(answers, name, None)
    if describe is None or shape is None:
        return {}
    return dict(describe(shape))


def schemas(returns: dict[str, Any]) -> tuple[dict[str, dict], dict[str, dict]]:
    """({endpoint: its answer's schema}, {type name: schema}) for the return types `returns`, refs shared."""
    copies: dict[type, Any] = {}
    inputs: list[tuple[str, JsonSchemaMode, TypeAdapter[Any]]] = [
        (name, "serialization", TypeAdapter(portable(shape, copies))) for name, shape in returns.items()
    ]
    by_key, definitions = TypeAdapter.json_schemas(inputs, ref_template=REF)
    components = dict(definitions.get("$defs", {}))
    for name, schema in components.items():
        for field, line in field_descriptions(name).items():
            if field in schema.get("properties", {}):
                schema["properties"][field]["description"] = line
    return {name: by_key[(name, mode)] for name, mode, _ in inputs}, components


# A name segment of a Hub id as `records.hub_id` takes it (huggingface_hub's `validate_repo_id`): letters and
# digits, single `-`, `_` or `.` between them.
_SEGMENT = r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*"
# The forms the API checks that a schema can state (`queries/arguments.py`, `queries/sizes.py`). Two rules it
# cannot: a task must be one the data has (named in the 400's words), and a size range's low end must be
# below its high end.
FORMS: dict[str, dict[str, Any]] = {
    "model": {"minLength": 1, "maxLength": settings.HUB_ID.value, "pattern": f"^(?:{_SEGMENT}/)?{_SEGMENT}$"},
    "task": {"pattern": "^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$"},
    "size": {"pattern": r"^(?:\d{1,6}(?:\.\d{1,3})?-(?:\d{1,6}(?:\.\d{1,3})?)?|-\d{1,6}(?:\.\d{1,3})?)?$"},
}


def parameter(p: Parameter) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", **FORMS.get(p.name, {})}
    if p.default is not None:
        schema["default"] = p.default
    if p.choices:  # "" (no value) is the parameter's default, one of them
        schema["enum"] = ["", *p.choices] if "" not in p.choices else list(p.choices)
    return {"name": p.name, "in": "query", "required": p.required, "description": p.description, "schema": schema}


def operation(answers_from: api.Api, endpoint: Endpoint, answer: dict) -> dict[str, Any]:
    method = method_of(answers_from, endpoint)
    summary, described, returns = api.described(method)
    errors = {
        "400": "A parameter the route does not take, given twice, missing or not UTF-8; an argument the endpoint refuses.",
        "404": "A stack that is not in the data; the error names the known stacks.",
        "414": f"A query string over {settings.API_V1_QUERY.value} bytes.",
    }
    responses: dict[str, Any] = {
        "200": {
            "description": " ".join(returns) or summary,
            "headers": HEADERS,
            "content": {JSON_TYPE: {"schema": answer}},
        },
        **{code: {"description": text, "content": {JSON_TYPE: {"schema": {"$ref": REF.format(model="Error")}}}}
           for code, text in errors.items()},
    }  # fmt: skip
    found: dict[str, Any] = {
        "operationId": endpoint.name,
        "summary": summary,
        "description": f"Answers what the named endpoint /{endpoint.name} answers.",
        "parameters": [parameter(p) for p in api_table.parameters(method, endpoint)],
        "responses": responses,
    }
    if endpoint.body:
        found["requestBody"] = {
            "required": True,
            "description": described.get(endpoint.body, ""),
            # a config.json's text is read whatever the content type says; the form it must have is a JSON object
            "content": {JSON_TYPE: {"schema": {"type": "object"}}},
        }
    else:
        responses["304"] = {"description": "Not modified: the If-None-Match ETag is the answer's.", "headers": HEADERS}
    return found


def document(answers_from: api.Api, endpoints: Sequence[Endpoint] = ENDPOINTS) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the routes `endpoints`, answered by `answers_from`'s methods."""
    returns = {e.name: typing.get_type_hints(method_of(answers_from, e))["return"] for e in endpoints}
    answer_schemas, components = schemas(returns)
    components["Error"] = ERROR
    paths = {
        e.path: {e.method.lower(): operation(answers_from, e, answer_schemas[e.name])} for e in endpoints
    }  # fmt: skip
    return {
        "openapi": "3.1.0",
        "info": {
            "title": TITLE,
            "version": VERSION,
            "description": "Does this Hub model run unmodified on AWS Trainium? Every route answers what the "
            "app's named endpoint of the same name answers, with an ETag, and any origin may read it.",
        },
        "paths": paths,
        "components": {"schemas": components},
    }
