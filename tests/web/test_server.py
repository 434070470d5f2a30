"""The server: uvicorn's bounds as configuration, the one list of middleware, and the app built around the
mounted page (its own routes first, outside Gradio's CORS layer)."""

from __future__ import annotations

import pytest
import uvicorn
from starlette.middleware import Middleware
from starlette.testclient import TestClient

import app as the_app
from components.runtime import settings
from components.web import capacity, server
from components.web.gradio import assets, direct_calls, mount
from components.web.gradio.patches import unread
from components.web.middleware import (
    first_html,
    limits,
    methods,
    missing_arguments,
    origin,
    refusals,
    server_errors,
    streams,
)
from components.web.middleware.replica_metrics import ReplicaMetricsMiddleware
from tests.helpers import ROOT

SPACE = "owner-space.hf.space"


def test_the_bounds_are_uvicorns_configuration():
    config = server.config(app=lambda *a: None, host="127.0.0.1", port=1)
    config.load()
    protocol = config.http_protocol_class
    assert issubclass(protocol, server.PeerCappedH11Protocol) and issubclass(protocol, server.DeadlineH11Protocol)
    assert protocol.request_deadline == settings.REQUEST_DEADLINE.value <= 60
    assert config.timeout_keep_alive == settings.KEEP_ALIVE.value
    # far above the old 512, where uvicorn's all-or-nothing 503 refused a launch's crowd whole
    assert config.limit_concurrency == capacity.connection_cap(settings.CONNECTIONS.value) > 512
    # one peer takes at most an eighth; loopback is the trusted proxy, whose connections are not counted
    assert protocol.peer_cap == settings.PEER_CONNECTIONS.value <= settings.CONNECTIONS.value // 8
    assert config.proxy_headers and config.forwarded_allow_ips == protocol.trusted == "127.0.0.1,::1"


def test_both_connection_caps_are_settings(monkeypatch, caplog):
    monkeypatch.setenv("MAX_CONNECTIONS", "100")
    monkeypatch.setenv("MAX_PEER_CONNECTIONS", "7")
    monkeypatch.setenv("SYSTEM", "spaces")
    config = server.config(app=lambda *a: None, host="127.0.0.1", port=1)
    assert config.limit_concurrency == 100 and config.http.peer_cap == 7
    assert "10.0.0.0/8" in config.forwarded_allow_ips
    monkeypatch.setenv("MAX_PEER_CONNECTIONS", "many")
    assert server.config(app=lambda *a: None, host="127.0.0.1", port=1).http.peer_cap == 1024
    assert "MAX_PEER_CONNECTIONS='many' is not a positive whole number" in caplog.text
    assert config.backlog == settings.BACKLOG.value
    assert config.h11_max_incomplete_event_size == settings.REQUEST_HEAD.value


def test_the_middleware_is_one_list_in_the_order_a_request_meets_it(sample_stores):
    classes = [m.cls for m in server.middleware(sample_stores, files=[Middleware(assets.InMemoryAssetsMiddleware)])]
    assert classes[:9] == [
        ReplicaMetricsMiddleware,  # first: it names the replica on, and counts, every answer, the 500s of the next too
        server_errors.JsonServerErrorMiddleware,  # it catches what escapes every other
        origin.HostRewriteMiddleware,  # before anything reads the request's origin or client
        limits.BodySizeLimitMiddleware,  # before anything reads a body
        methods.AllowedMethodsMiddleware,
        refusals.UploadRefusalMiddleware,
        refusals.McpBodyValidationMiddleware,
        missing_arguments.MissingArgumentsMiddleware,
        streams.EventStreamLimitMiddleware,
    ]
    assert classes[-2:] == [assets.InMemoryAssetsMiddleware, first_html.FirstHtmlMiddleware]
    assert [m.cls for m in mount.gradio_middleware()] == [unread.UnknownResultMiddleware]


def test_the_built_app_runs_that_list_with_the_gradio_halfs_three(space_client):
    classes = [m.cls for m in space_client.app.user_middleware]
    assert classes[0] is ReplicaMetricsMiddleware and classes[-2:] == [
        assets.InMemoryAssetsMiddleware,
        first_html.FirstHtmlMiddleware,
    ]
    # the named endpoints over plain HTTP are answered beside the queue, once the streams are capped
    assert classes[classes.index(streams.EventStreamLimitMiddleware) + 1] is direct_calls.DirectCallMiddleware


def test_a_plain_http_call_of_the_built_app_is_answered_beside_the_queue(space_client):
    space_client.get("/api/v1/stacks")  # the middleware stack is built on the first request
    layer = space_client.app.middleware_stack
    while not isinstance(layer, direct_calls.DirectCallMiddleware):
        layer = layer.app
    event_id = space_client.post("/gradio_api/call/search", json={"data": ["qwen3", "selected", "", "", ""]}).json()[
        "event_id"
    ]
    assert event_id in layer.kept.results  # kept here, not on Gradio's queue
    read = space_client.get(f"/gradio_api/call/search/{event_id}")
    assert read.text.startswith("event: complete\ndata: [[") and "Qwen/Qwen3" in read.text
    assert event_id not in layer.kept.results


@pytest.fixture(scope="module")
def sample_stores():
    from components.sources.app_sources import Sources
    from components.sources.dataset_store import DatasetStore
    from components.sources.rankings_store import resolve_rankings
    from components.sources.records_store import RecordsStore

    sources = Sources(
        DatasetStore(str(ROOT / "data" / "sample")),
        resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json")),
        RecordsStore(ROOT / "data" / "models_snapshot.json", live=False),
    )
    sources.begin()
    sources.start()
    yield sources
    sources.stop()


@pytest.fixture(scope="module")
def space_client(sample_stores):
    app = mount.build(the_app.build(sample_stores), sample_stores, host="127.0.0.1", port=7860)
    with TestClient(app, base_url=f"https://{SPACE}") as space_client:  # runs the lifespan: the queue starts
        yield space_client


def test_the_apps_routes_come_first_then_the_page(space_client):
    assert space_client.get("/api/v1/stacks").status_code == 200
    page = space_client.get("/")
    assert page.status_code == 200 and "torch-neuronx model support" in page.text
    assert space_client.get("/gradio_api/mcp/schema").status_code == 200


def test_the_api_answers_its_own_cors_on_a_space_host(space_client):
    headers = {"Origin": "https://tools.example"}
    answer = space_client.get("/api/v1/stacks", headers=headers)
    assert answer.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in answer.headers
    preflight = space_client.options("/api/v1/stacks", headers={**headers, "Access-Control-Request-Method": "GET"})
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in preflight.headers
    # Gradio's own routes keep Gradio's CORS layer (it echoes an origin, with credentials)
    assert (
        space_client.get("/gradio_api/info", headers=headers).headers.get("access-control-allow-credentials") == "true"
    )


def test_the_page_keeps_its_settings(space_client, sample_stores):
    config = space_client.get("/config").json()
    assert config["footer_links"] == ["api"] and config["mcp_server"] is True
    assert "ssr_mode" not in config or config["ssr_mode"] is False
    assert mount.blocked_paths()[0] == str(ROOT.resolve())


def test_uvicorn_serves_it_on_a_thread_and_stops(sample_stores):
    import httpx

    from tests.helpers import free_port

    running = mount.start(the_app.build(sample_stores), sample_stores, port=free_port())
    try:
        assert httpx.get(running.url + "/api/v1/stacks", timeout=30).status_code == 200
    finally:
        running.stop()
    assert not running.thread.is_alive()
    assert isinstance(running.server, uvicorn.Server)


def test_gradios_start_up_route_does_not_start_the_queue_again(space_client):
    """A mounted Gradio leaves its start-up route armed; the app answers it as Gradio does after a start."""
    assert space_client.get("/gradio_api/startup-events").json() is False
