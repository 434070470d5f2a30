"""Schemathesis hooks for `test_no_server_errors.py`: the rules of the API that its OpenAPI document cannot
state (`routes/openapi.py`'s FORMS), given to the generator so that "valid data is accepted" is checked on
every other value.

- A task must be one the data has: the test passes those (every view offers them) in env `API_TASKS`, a JSON
  list, and each `task` parameter takes them as its values.
- A library must be one the data has (`/grid`): env `API_LIBRARIES`, a JSON list, as for tasks.
- A size range's low end must be below its high end: a generated range the wrong way round is turned round.
"""

from __future__ import annotations

import json
import os
import re

import schemathesis

RANGE = re.compile(r"^(\d[\d.]*)-(\d[\d.]*)$")


@schemathesis.hook
def before_load_schema(context, raw_schema):
    taken = {"task": json.loads(os.environ["API_TASKS"]), "library": json.loads(os.environ.get("API_LIBRARIES", "[]"))}
    for path in raw_schema.get("paths", {}).values():
        for operation in path.values():
            for parameter in operation.get("parameters", ()):
                if parameter.get("name") in taken:  # "": the default (the view's task, transformers)
                    parameter["schema"] = {"type": "string", "enum": ["", *taken[parameter["name"]]]}


@schemathesis.hook
def map_query(context, query):
    size = (query or {}).get("size")
    found = RANGE.match(size) if isinstance(size, str) else None
    if found and float(found.group(2)) <= float(found.group(1)):
        low, high = float(found.group(2)), float(found.group(1))
        query["size"] = f"{low:g}-{high + 1:g}" if high <= low else f"{low:g}-{high:g}"
    return query
