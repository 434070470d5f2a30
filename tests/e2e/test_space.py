"""The app in a Hugging Face Space's environment: server-side rendering asked for (GRADIO_SSR_MODE=true, Node 24
present), SYSTEM=spaces, SPACE_ID, SPACE_HOST, GRADIO_SERVER_NAME=0.0.0.0 and the webhook secret, on the sample.

Gradio's SSR puts a Node proxy in front of Python that passes only Gradio's own paths on; the app turns SSR off
(app.py `serve()`), so every route of its own answers at its documented address, and the page looks as it does
without the Space's environment. Without Node 24 these tests skip, saying so (tests/run.sh installs it).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import pyarrow.parquet as pq
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.test_mcp import EXPECTED
from tests.helpers import ROOT, SAMPLE_ARGS, SPACE_ID, SPACE_SECRET, Server, space_env

TIMEOUT = 20_000
MODEL = "Qwen/Qwen3-0.6B"


# ---- the app's own routes: each answers itself, not Gradio's page ------------------------------


def csv_models(body: bytes) -> list[str]:
    return [r["model_id"] for r in csv.DictReader(io.StringIO(body.decode("utf-8")))]


def parquet_models(body: bytes) -> list[str]:
    return pq.read_table(io.BytesIO(body)).column("model_id").to_pylist()


@dataclass(frozen=True)
class AppRoute:
    """A GET route of the app's own (beside Gradio's): the content type it answers and what must parse from it."""

    path: str
    content_type: str
    check: Callable[[bytes], object]  # raises (or returns falsy) when the body is not what the route serves
    attachment: bool = False  # a download: sent as a file to save


# What the Hub sends on a dataset change (the webhook refuses a body without event scope and action).
HUB_EVENT = {
    "event": {"action": "update", "scope": "repo.content"},
    "repo": {"type": "dataset", "name": "aws-neuron/torch-neuronx-model-support"},
}

# Add each new route of the app here: the Space's Node proxy would swallow it.
ROUTES = [
    AppRoute("/badge?model=Qwen/Qwen3-0.6B", "application/json", lambda b: json.loads(b)["schemaVersion"] == 1),
    AppRoute("/feed.atom", "application/atom+xml", lambda b: ET.fromstring(b).tag == "{http://www.w3.org/2005/Atom}feed"),
    AppRoute("/export/csv?q=qwen3+0.6b", "text/csv", lambda b: MODEL in csv_models(b), attachment=True),
    AppRoute("/export/parquet?q=qwen3+0.6b", "application/vnd.apache.parquet", lambda b: MODEL in parquet_models(b),
             attachment=True),
    AppRoute(f"/api/v1/lookup?model={MODEL}", "application/json", lambda b: json.loads(b)["model_id"] == MODEL),
    AppRoute("/api/v1/openapi.json", "application/json", lambda b: json.loads(b)["openapi"] == "3.1.0"),
    AppRoute("/api/v1/wanted", "application/json", lambda b: isinstance(json.loads(b)["models"], list)),
    AppRoute("/wanted.atom", "application/atom+xml", lambda b: ET.fromstring(b).tag == "{http://www.w3.org/2005/Atom}feed"),
]  # fmt: skip


@pytest.fixture(scope="module")
def space_http(ssr_space_app):
    with httpx.Client(base_url=ssr_space_app.url, timeout=30) as client:
        yield client


@pytest.mark.parametrize("route", ROUTES, ids=[r.path.split("?")[0] for r in ROUTES])
def test_each_route_of_the_app_answers_at_its_address(space_http, route):
    answer = space_http.get(route.path)
    assert answer.status_code == 200, answer.text[:300]
    assert answer.headers["content-type"].startswith(route.content_type), answer.headers["content-type"]
    if route.attachment:
        assert answer.headers["content-disposition"].startswith("attachment;")
    assert route.check(answer.content), answer.content[:300]


def test_the_webhook_refuses_a_missing_or_wrong_secret_and_queues_a_refresh_with_it(space_http):
    missing = space_http.post("/webhooks/dataset", json={})
    assert missing.status_code == 401 and "X-Webhook-Secret" in missing.json()["error"]
    wrong = space_http.post("/webhooks/dataset", json={}, headers={"X-Webhook-Secret": SPACE_SECRET + "x"})
    assert wrong.status_code == 403
    right = space_http.post("/webhooks/dataset", json=HUB_EVENT, headers={"X-Webhook-Secret": SPACE_SECRET})
    assert right.status_code == 202 and right.json() == {"refresh": "queued"}


def test_every_page_is_rendered_by_python_with_its_config(space_http):
    for path in ("/", "/compare", "/charts", "/architectures", "/about", f"/?model={MODEL}"):
        answer = space_http.get(path)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), path
        # rendered by Python (the config inlined), not by Gradio's Node server (which fetches /config later)
        assert "window.gradio_config" in answer.text, path


def test_search_answers_through_gradio_client(ssr_space_app):
    from gradio_client import Client

    rows = Client(ssr_space_app.url, verbose=False).predict(query="qwen3 0.6b", api_name="/search")
    assert MODEL in [r["model_id"] for r in rows]


def test_an_mcp_client_calls_a_tool_named_after_the_space(ssr_space_app):
    """On a Space Gradio prefixes each tool with the Space's name (docs/deploying.md, "Deploy as a Space")."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client

    prefix = SPACE_ID.split("/")[1].replace("-", "_") + "_"

    async def run():
        async with streamablehttp_client(ssr_space_app.url + "/gradio_api/mcp/") as (read, write, _):  # noqa: SIM117
            async with ClientSession(read, write) as session:
                await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                answer = await session.call_tool(
                    prefix + "lookup", {"model_id": MODEL, "neuronx_cc": "", "library_version": ""}
                )
                return names, answer

    with ThreadPoolExecutor(1) as pool:  # a thread of its own: Playwright may hold this thread's event loop
        names, answer = pool.submit(asyncio.run, run()).result(timeout=120)
    assert names == {prefix + n for n in EXPECTED}  # every tool, named after the Space
    assert not answer.isError
    found = json.loads(answer.content[0].text)
    assert found["model_id"] == MODEL and found["result"] == "PASS"


# ---- in Chromium: a deep link, and the page's look ----------------------------------------------


def test_a_deep_link_opens_its_model(page: Page, ssr_space_app):
    page.goto(f"{ssr_space_app.url}/?model={MODEL}")
    expect(page.locator("#details-summary h2")).to_contain_text(MODEL, timeout=TIMEOUT)
    expect(page.locator("#link textarea, #link input").first).to_have_value(re.compile(r"model=Qwen%2FQwen3-0\.6B"))


# Elements the app's stylesheet styles, and what it sets on them: under Gradio's SSR its rules lost to Gradio's
# reset (links lost their colour, badges and the sample-data notice their borders).
STYLED = {
    "model name link": "#results a.model-link",
    "result badge": "#results .badge",
    "sample-data notice": "#provenance",
    "sample-data flag": "#provenance .sample-flag",
}
PROPERTIES = ("color", "background-color", "border-top-width", "border-top-style", "border-top-color",
              "border-radius", "padding-top", "font-weight", "text-decoration-line", "display")  # fmt: skip
COMPUTED = """([styled, properties]) => Object.fromEntries(Object.entries(styled).map(([name, selector]) => {
  const element = document.querySelector(selector);
  const style = element && getComputedStyle(element);
  return [name, style && Object.fromEntries(properties.map((p) => [p, style.getPropertyValue(p)]))];
}))"""


def computed_styles(page: Page, url: str) -> dict:
    page.goto(url + "/")
    expect(page.locator("#results [role=gridcell] a.model-link").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#provenance .sample-flag")).to_be_visible(timeout=TIMEOUT)
    return page.evaluate(COMPUTED, [STYLED, list(PROPERTIES)])


def test_the_page_looks_as_it_does_without_the_spaces_environment(page: Page, ssr_space_app, sample_app):
    plain = computed_styles(page, sample_app.url)
    assert all(plain.values()), plain
    assert plain["result badge"]["border-top-width"] == "1px"  # the app's stylesheet is there to compare
    assert plain["sample-data notice"]["border-top-width"] == "2px"
    assert computed_styles(page, ssr_space_app.url) == plain


# ---- no writes into the app's folder (a Space's may be read-only) ------------------------------

# Python's bytecode caches, pytest-playwright's output and the tests' own Node are not the app's writes.
NOT_THE_APPS = {".git", ".node", ".venv", "__pycache__", "test-results"}


def listing() -> dict[str, tuple[int, int]]:
    """Every file of the app's folder with its size and modification time."""
    files = {}
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in NOT_THE_APPS]
        for name in names:
            stat = os.stat(os.path.join(folder, name))
            files[os.path.relpath(os.path.join(folder, name), ROOT)] = (stat.st_size, stat.st_mtime_ns)
    return files


def test_serving_pages_downloads_and_the_webhook_writes_nothing_into_the_app_folder(ssr_space_app, space_http):
    before = listing()
    for route in ROUTES:
        assert space_http.get(route.path).status_code == 200
    assert (
        space_http.post("/webhooks/dataset", json=HUB_EVENT, headers={"X-Webhook-Secret": SPACE_SECRET}).status_code
        == 202
    )
    for path in ("/", "/compare", "/charts", "/architectures", "/about"):
        assert space_http.get(path).status_code == 200
    from gradio_client import Client

    Client(ssr_space_app.url, verbose=False).predict(model_id=MODEL, api_name="/lookup")
    after = listing()
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert changed == []


# ---- why SSR is off: with it forced on, Gradio's Node server answers the app's routes -----------


def test_with_ssr_forced_on_the_apps_routes_would_be_lost(node):
    """The reason app.py turns SSR off, checked against this Gradio: when a Gradio release passes every path
    on, this fails, and SSR can be reconsidered (docs/deploying.md, "Deploy as a Space")."""
    server = Server(*SAMPLE_ARGS, env=space_env(node), script=ROOT / "benchmarks" / "baselines" / "ssr_on.py").wait()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            assert "window.gradio_config" not in client.get("/").text  # Node rendered the page: SSR is on
            for route in ROUTES:
                assert client.get(route.path).headers["content-type"].startswith("text/html"), route.path
            refused = client.post("/webhooks/dataset", json=HUB_EVENT, headers={"X-Webhook-Secret": SPACE_SECRET})
            assert refused.status_code == 405
    finally:
        server.stop()
