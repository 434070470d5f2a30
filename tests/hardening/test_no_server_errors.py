"""No 500 for what a caller can send (issue 45): the inputs found, then generated ones.

Found: `GET /?page=zzz` (Gradio's `/` read `page` as one of its pages: KeyError), `POST /api/v1/check_config`
with `{"model_type":"\\udfff"}` (a lone surrogate UTF-8 cannot write: UnicodeEncodeError) and an MCP message
whose `method` is an object or a list (unhashable: TypeError). Generated: the pages' query parameters and MCP's
JSON-RPC shapes (hypothesis), and `/api/v1` against its OpenAPI document (schemathesis, every check, undeclared
methods included).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.queries import grid
from components.sources.dataset import SAMPLE_DIR, load
from tests.helpers import ROOT

MCP = "/gradio_api/mcp/"
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
PAGES = ("/", "/compare", "/failures", "/architectures", "/grid", "/wanted", "/about", "/charts", "/endpoints")
# What the pages and Gradio's page routes read from a query, and some they do not.
PARAMETERS = ("model", "view", "task", "q", "size", "neuronx_cc", "transformers", "library", "library_version",
              "page", "deep_link", "__theme", "rows", "x")  # fmt: skip
# The two rules the OpenAPI document cannot state (a task the data has; a size range low end first), given to
# schemathesis by hooks, so "valid data accepted" is checked on everything else.
HOOKS = "tests.hardening.schemathesis_hooks"


def tasks_every_view_offers() -> list[str]:
    """The tasks of the bundled sample that every view takes (the ranked views take only the ranked ones)."""
    from components.queries import views
    from components.sources.app_sources import Sources
    from components.sources.dataset_store import DatasetStore
    from components.sources.rankings_store import resolve_rankings
    from components.sources.records_store import RecordsStore
    from tests.helpers import ROOT

    sources = Sources(
        DatasetStore(str(ROOT / "data" / "sample")),
        resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json")),
        RecordsStore(ROOT / "data" / "models_snapshot.json", live=False),
    )
    sources.begin()
    now = sources.now()
    offered = [set(views.view_tasks(now.snapshot, now.rankings, now.records, v)) - {""} for v in views.VIEWS]
    return sorted(set.intersection(*offered))


def test_the_found_inputs_get_no_server_error(sample_http):
    assert sample_http.get("/?page=zzz").status_code == 200
    assert sample_http.get("/?pag%65=zzz&page=compare").status_code == 200
    surrogate = sample_http.post(
        "/api/v1/check_config", content=b'{"model_type": "\\udfff", "architectures": ["\\ud800X"]}'
    )
    assert surrogate.status_code == 200 and surrogate.json()["model_type"] == "\udfff"
    for method in ({"a": 1}, ["tools/call"], 7, None):
        message = {"jsonrpc": "2.0", "id": 1, "method": method}
        answer = sample_http.post(MCP, content=json.dumps(message).encode(), headers=MCP_HEADERS)
        assert answer.status_code == 400 and "not an MCP message" in answer.text, answer.text[:200]


text = st.text(max_size=40) | st.sampled_from(["", "zzz", "compare", "Qwen/Qwen3-0.6B", "1-", "-", "%ff", "\udfff"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    page=st.sampled_from(PAGES),
    pairs=st.lists(st.tuples(st.sampled_from(PARAMETERS) | st.text(max_size=8), text), max_size=6),
    raw=st.binary(max_size=30),
)
def test_no_page_query_gets_a_server_error(sample_http, page, pairs, raw):
    encoded = "&".join(f"{quote(k, errors='surrogatepass')}={quote(v, errors='surrogatepass')}" for k, v in pairs)
    for query in (encoded, "".join(f"%{b:02x}" for b in raw), "page=" + "".join(f"%{b:02x}" for b in raw)):
        for method in ("GET", "HEAD"):
            answer = sample_http.request(method, httpx.URL(page, query=query.encode()))
            assert answer.status_code < 500, (method, page, query, answer.status_code)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
methods = (
    st.sampled_from(["initialize", "tools/list", "tools/call", "ping", "resources/list", "prompts/list"]) | json_values
)
messages = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "1.0"]) | json_values, "method": methods},
    optional={"id": json_values, "params": json_values | st.fixed_dictionaries({"name": json_values, "arguments": json_values})},
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=messages | st.lists(messages, max_size=3) | json_values)
def test_no_json_rpc_shape_gets_a_server_error_from_mcp(sample_http, body):
    answer = sample_http.post(MCP, content=json.dumps(body).encode(), headers=MCP_HEADERS)
    assert answer.status_code < 500, (body, answer.status_code, answer.text[:300])


def test_schemathesis_finds_nothing_in_api_v1(sample_app, tmp_path):
    """Every check schemathesis has (not a server error, status codes, content types, response headers and
    schemas as the document declares them, undeclared methods, valid data accepted and invalid data rejected,
    which holds the document's forms to what the API checks), over examples, the
    coverage phase (which sends each undeclared method) and fuzzing."""
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{sample_app.url}/api/v1/openapi.json",
        "--checks", "all", "--phases", "examples,coverage,fuzzing",
        "--max-examples", "40", "--seed", "45", "--workers", "1", "--generation-database", "none",
        "--report-dir", str(tmp_path),
    ]  # fmt: skip
    tasks = tasks_every_view_offers()
    assert tasks  # the hooks need some: an empty list would let only "" through
    libraries = grid.libraries(load(SAMPLE_DIR))  # /grid takes a library the data has, as a task
    env = {**os.environ, "SCHEMATHESIS_HOOKS": HOOKS, "API_TASKS": json.dumps(tasks),
           "API_LIBRARIES": json.dumps(libraries), "PYTHONPATH": str(ROOT)}  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "9/9" in run.stdout  # every operation of the document was tested
