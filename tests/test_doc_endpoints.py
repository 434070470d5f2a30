"""The two pages that list the endpoints say what the code serves: `docs/using-from-code.md` counts and names the
MCP tools (one per named endpoint, `api.NAMED`, each declared as a tool by `web/gradio/endpoints.py`), and
`docs/http-api.md`'s route table has one row per `/api/v1` route served (`api_table.ENDPOINTS`, and the OpenAPI
document) with its method and every parameter."""

from __future__ import annotations

import re

from components.queries import api
from components.web.routes.api_table import ENDPOINTS, OPENAPI_PATH, method_of, parameters
from tests.helpers import ROOT

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def test_the_mcp_section_counts_and_names_every_tool():
    text = (ROOT / "docs" / "using-from-code.md").read_text(encoding="utf-8")
    said = re.search(r"The same (\w+) endpoints are MCP tools \(([^)]*)\)", text)
    assert said, "using-from-code.md no longer says how many endpoints are MCP tools"
    assert said[1] == NUMBERS[len(api.NAMED)]
    assert re.findall(r"`(\w+)`", said[2]) == list(api.NAMED)


def route_table() -> dict[str, set[str]]:
    """`METHOD path` → the parameters its row names, from http-api.md's Routes table."""
    text = (ROOT / "docs" / "http-api.md").read_text(encoding="utf-8")
    table = text.split("## Routes", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for line in table.splitlines()[2:]:
        route, given = line.split("|")[1:3]
        method, _, path = route.strip().strip("`").rpartition(" ")
        rows[f"{method or 'GET'} {path}"] = set(re.findall(r"`(\w+)`", given))
    return rows


def test_the_route_table_lists_every_route_served_with_its_parameters():
    answers = api.Api.__new__(api.Api)  # only the methods' signatures and docstrings are read
    served = {f"{e.method} {e.path}": {p.name for p in parameters(method_of(answers, e), e)} for e in ENDPOINTS} | {
        f"GET {OPENAPI_PATH}": set()
    }
    assert route_table() == served
    assert "POST /api/v1/check_config" in served and "size" in served["GET /api/v1/search"]
