"""`GET /api/v1/NAME` on the launched app: the same JSON as the named endpoint through gradio_client, on the
bundled sample and on hostile data; ETag, 304, a new ETag after a webhook refresh, CORS and the 4xx."""

from __future__ import annotations

import time

import httpx
from gradio_client import Client

from components.web.routes import webhook
from tests.hardening.hostile import HOSTILE_CC, HOSTILE_LINK_MODEL, HOSTILE_MODEL, LONG_MODEL
from tests.helpers import LOG_TIME, NEW_CC, OLD_CC, Server, row, write

SECRET = "s3cret-for-api-v1"
PAYLOAD = {"event": {"action": "update", "scope": "repo.content"}}


def calls(stacks: list[dict]) -> list[tuple[str, dict, dict]]:
    """(route, its query parameters, the named endpoint's keyword arguments) for a range of cases."""
    old, newest = stacks[-1], stacks[0]
    return [
        ("stacks", {}, {}),
        ("search", {}, {}),
        ("search", {"q": "qwen3 0.6b"}, {"query": "qwen3 0.6b"}),
        ("search", {"view": "trending"}, {"view": "trending"}),
        ("search", {"view": "downloads", "task": "image-text-to-text"}, {"view": "downloads", "task": "image-text-to-text"}),
        ("search", {"library_version": "diffusers==0.36.0"}, {"library_version": "diffusers==0.36.0"}),
        ("search", {"neuronx_cc": old["neuronx_cc"], "library_version": old["library_version"]},
         {"neuronx_cc": old["neuronx_cc"], "library_version": old["library_version"]}),
        ("lookup", {"model": "Qwen/Qwen3-0.6B"}, {"model_id": "Qwen/Qwen3-0.6B"}),
        ("lookup", {"model": "nobody/nothing"}, {"model_id": "nobody/nothing"}),
        ("compare", {"neuronx_cc_a": old["neuronx_cc"], "library_version_a": old["library_version"]},
         {"neuronx_cc_a": old["neuronx_cc"], "library_version_a": old["library_version"]}),
        ("failures", {}, {}),
        ("failures", {"neuronx_cc": newest["neuronx_cc"].split("+")[0]}, {"neuronx_cc": newest["neuronx_cc"].split("+")[0]}),
        ("architectures", {"task": "text-generation"}, {"task": "text-generation"}),
    ]  # fmt: skip


def same_json(url: str, client: Client, name: str, params: dict, kwargs: dict) -> dict:
    answer = httpx.get(f"{url}/api/v1/{name}", params=params, timeout=60)
    assert answer.status_code == 200, (name, params, answer.text[:300])
    assert answer.json() == client.predict(**kwargs, api_name=f"/{name}"), (name, params)
    return answer.json()


def test_each_route_answers_the_named_endpoints_json_on_the_sample(sample_app, client):
    stacks = client.predict(api_name="/stacks")
    for name, params, kwargs in calls(stacks):
        same_json(sample_app.url, client, name, params, kwargs)


def test_an_unknown_stack_is_a_404_over_http_and_not_tested_in_the_named_lookup(sample_app, client):
    answer = httpx.get(f"{sample_app.url}/api/v1/lookup", params={"model": "Qwen/Qwen3-0.6B", "neuronx_cc": "2.99.0"})
    assert answer.status_code == 404 and "Known stacks" in answer.json()["error"]
    named = client.predict(model_id="Qwen/Qwen3-0.6B", neuronx_cc="2.99.0", api_name="/lookup")
    assert named["result"] == "not tested" and "2.99.0" in named["unknown_stack"]


def test_each_route_answers_the_named_endpoints_json_on_hostile_data(hostile_app):
    client = Client(hostile_app.url, verbose=False)
    for name, params, kwargs in calls(client.predict(api_name="/stacks")):
        same_json(hostile_app.url, client, name, params, kwargs)
    for model in (HOSTILE_MODEL, HOSTILE_LINK_MODEL, LONG_MODEL):
        answer = same_json(hostile_app.url, client, "lookup", {"model": model}, {"model_id": model})
        assert answer["model_id"] == model  # data, sent as it is: JSON is not markup
    rows = same_json(hostile_app.url, client, "search", {"q": "evil"}, {"query": "evil"})
    assert HOSTILE_MODEL in {r["model_id"] for r in rows}
    on_hostile_stack = {"neuronx_cc": HOSTILE_CC, "library_version": "<script>window.__pwned='lv'</script>"}
    same_json(hostile_app.url, client, "failures", on_hostile_stack, on_hostile_stack)


def test_hostile_requests_get_a_clean_4xx_and_leave_no_traceback(hostile_app):
    with httpx.Client(base_url=hostile_app.url, timeout=60) as http:
        refused = {
            "/api/v1/search?q=%FF": 400,
            "/api/v1/search?q=" + "x" * 10_000: 414,
            "/api/v1/search?q=a&q=b": 400,
            "/api/v1/search?qq=a": 400,
            "/api/v1/lookup": 400,
            "/api/v1/failures?neuronx_cc=%00%1B%5B31m": 404,
            "/api/v1/nothing-here": 404,
        }
        for path, status in refused.items():
            answer = http.get(path)
            assert answer.status_code == status and set(answer.json()) == {"error"}, (path[:80], answer.text[:200])
        answer = http.get("/api/v1/lookup", params={"model": "\x00\x1b[31m\r\nFORGED <script>"})
        assert answer.status_code == 400 and "cannot be a Hub model id" in answer.json()["error"]
        assert "\x1b" not in answer.json()["error"] and "\n" not in answer.json()["error"]
        big = http.post(
            "/api/v1/search", content=b"x" * (2 * 1024 * 1024), headers={"Content-Type": "application/json"}
        )
        assert big.status_code == 413  # the app's body limit stands in front of these routes too
    log = hostile_app.log.name
    hostile_app.log.flush()
    text = open(log, encoding="utf-8", errors="replace").read()
    assert "Traceback" not in text and "FORGED" not in text, text[-2000:]
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines and all(LOG_TIME.match(line) for line in lines), text[-2000:]  # a UTC time on every line


def test_an_etag_a_304_and_headers_any_origin_can_read(sample_app):
    with httpx.Client(base_url=sample_app.url, timeout=60) as http:
        first = http.get("/api/v1/lookup", params={"model": "Qwen/Qwen3-0.6B"})
        tag = first.headers["etag"]
        assert first.headers["cache-control"] == "public, max-age=60, s-maxage=60, stale-while-revalidate=60"
        again = http.get("/api/v1/lookup", params={"model": "Qwen/Qwen3-0.6B"}, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
        foreign = http.get("/api/v1/stacks", headers={"Origin": "https://tools.example"})
        assert foreign.headers["access-control-allow-origin"] == "*"
        # Gradio's own CORS layer stands in front of every route: on a host that is not local it echoes the
        # origin instead of "*"; either way any origin can read the answer
        on_a_space = http.get("/api/v1/stacks", headers={"Origin": "https://tools.example", "Host": "x.hf.space"})
        assert on_a_space.headers["access-control-allow-origin"] in ("*", "https://tools.example")
        preflight = http.options("/api/v1/search")
        assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
        document = http.get("/api/v1/openapi.json")
        assert document.status_code == 200 and document.json()["openapi"] == "3.1.0"
        assert "/api/v1/lookup" in document.json()["paths"]


def test_a_webhook_refresh_gives_a_new_etag(tmp_path):
    folder = tmp_path / "data"
    write(folder / "new.parquet", [row("org/model", cc=NEW_CC), row("org/other", cc=NEW_CC)])
    write(folder / "old.parquet", [row("org/model", cc=OLD_CC, lib_version="4.50.0")])
    server = Server("--dataset", str(folder), env={"WEBHOOK_SECRET": SECRET}).wait()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            before = http.get("/api/v1/lookup", params={"model": "org/model"})
            old_stack = http.get("/api/v1/search", params={"neuronx_cc": OLD_CC})
            assert before.json()["result"] == "PASS"
            write(
                folder / "new.parquet",
                [row("org/model", cc=NEW_CC, result="FAIL", error="boom"), row("org/other", cc=NEW_CC)],
            )
            assert http.post(webhook.PATH, json=PAYLOAD, headers={webhook.HEADER: SECRET}).status_code == 202
            started = time.monotonic()
            while time.monotonic() - started < 20:
                after = http.get(
                    "/api/v1/lookup", params={"model": "org/model"}, headers={"If-None-Match": before.headers["etag"]}
                )
                if after.status_code != 304:
                    break
                time.sleep(0.2)
            assert after.status_code == 200 and after.json()["result"] == "FAIL", after.text[:300]
            assert after.headers["etag"] != before.headers["etag"]
            unchanged = http.get("/api/v1/search", params={"neuronx_cc": OLD_CC},
                                 headers={"If-None-Match": old_stack.headers["etag"]})  # fmt: skip
            assert unchanged.status_code == 304  # an answer the refresh did not change keeps its ETag
    finally:
        server.stop()
