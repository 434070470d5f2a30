"""Methods on the running app (issue 45): every address the app serves itself, and every page, answers a
method it does not take with 405 and `Allow`, and HEAD as GET does: the same status and Content-Length, no
body. Gradio's own routes keep their methods (MCP's streamable HTTP takes DELETE)."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers import SAMPLE_ARGS, Server

SECRET = "methods-test-secret"
# The app's own addresses, with a query that GET answers (the webhook takes POST only).
OWN = (
    "/api/v1/stacks",
    "/api/v1/search?q=qwen",
    "/api/v1/lookup?model=Qwen/Qwen3-0.6B",
    "/api/v1/compare",
    "/api/v1/failures",
    "/api/v1/architectures",
    "/api/v1/wanted",
    "/api/v1/grid",
    "/api/v1/openapi.json",
    "/badge?model=Qwen/Qwen3-0.6B",
    "/feed.atom",
    "/wanted.atom",
    "/grid.atom",
    "/card.png?model=Qwen/Qwen3-0.6B",
    "/export/csv",
    "/busy.js",
)
PAGES = ("/", "/compare", "/failures", "/architectures", "/grid", "/wanted", "/about", "/charts", "/endpoints")
OTHER_METHODS = ("PUT", "DELETE", "PATCH")


@pytest.fixture(scope="module")
def methods_http():
    server = Server(*SAMPLE_ARGS, env={"WEBHOOK_SECRET": SECRET}).wait()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client
    server.stop()


@pytest.mark.parametrize("method", OTHER_METHODS)
@pytest.mark.parametrize("path", [*OWN, *PAGES, "/webhooks/dataset"])
def test_a_method_an_address_does_not_take_is_a_405_with_allow(methods_http, path, method):
    answer = methods_http.request(method, path)
    assert answer.status_code == 405, (method, path, answer.status_code, answer.text[:200])
    allowed = {m.strip() for m in answer.headers["allow"].split(",")}
    assert method not in allowed and allowed & {"GET", "POST"}
    assert "error" in answer.json()


@pytest.mark.parametrize("path", [*OWN, *PAGES])
def test_head_answers_as_get_does_without_a_body(methods_http, path):
    for encoding in ("identity", "gzip"):
        headers = {"Accept-Encoding": encoding}
        got = methods_http.get(path, headers=headers)
        head = methods_http.head(path, headers=headers)
        assert head.status_code == got.status_code == 200, (path, head.status_code, got.status_code)
        assert head.content == b""
        if "content-length" in got.headers:
            assert head.headers["content-length"] == got.headers["content-length"], (path, encoding)
            assert int(got.headers["content-length"]) == len(got.content) or encoding == "gzip"


def test_the_webhook_takes_post_and_answers_head_405(methods_http):
    assert methods_http.head("/webhooks/dataset").status_code == 405
    assert methods_http.post("/webhooks/dataset", json={}).status_code == 401  # still the webhook's own answer


def test_gradio_routes_keep_their_methods(methods_http):
    # MCP's streamable HTTP takes DELETE (its own answer: a stateless server ends no session)
    deleted = methods_http.delete("/gradio_api/mcp/", headers={"Accept": "application/json, text/event-stream"})
    assert "Session termination not supported" in deleted.text
    assert methods_http.get("/gradio_api/info").status_code == 200
    assert methods_http.get("/config").status_code == 200
