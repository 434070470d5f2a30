"""The probes and the metrics of one replica, on the whole app (`mount.build`): `/healthz`, `/readyz`,
`/metrics` by route template and status, and `X-Replica` on every answer."""

from __future__ import annotations

import logging

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

import app as the_app
from components.sources.app_sources import Sources
from components.sources.dataset_store import DatasetStore
from components.sources.rankings_store import resolve_rankings
from components.sources.records_store import RecordsStore
from components.web import metrics
from components.web.gradio import mount
from components.web.routes import health
from tests.helpers import ROOT

REPLICA = "replica-under-test"


def sample_sources() -> Sources:
    return Sources(
        DatasetStore(str(ROOT / "data" / "sample")),
        resolve_rankings(str(ROOT / "data" / "rankings_snapshot.json")),
        RecordsStore(ROOT / "data" / "models_snapshot.json", live=False),
    )


@pytest.fixture(scope="module")
def replica_app():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REPLICA", REPLICA)
        patch.delenv("METRICS", raising=False)
        sources = sample_sources()
        sources.begin()
        sources.start()
        app = mount.build(the_app.build(sources), sources, host="127.0.0.1", port=7860)
        with TestClient(app) as replica_app:
            yield replica_app
        sources.stop()


def samples(text: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    """Every sample of metric `name` in Prometheus text: its labels -> its value."""
    from prometheus_client.parser import text_string_to_metric_families

    return {
        tuple(sorted(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == name
    }


def test_the_probes_answer_and_say_the_data_is_served(replica_app):
    assert replica_app.get("/healthz").json() == {"status": "ok"}
    ready = replica_app.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"ready": True, "dataset": "sample"}
    assert ready.headers["cache-control"] == "no-store"


def test_not_ready_until_the_sources_serve():
    sources = sample_sources()  # not begun: nothing served yet
    with TestClient(Starlette(routes=health.routes(sources, None))) as replica_app:
        assert replica_app.get("/readyz").status_code == 503
        assert replica_app.get("/healthz").status_code == 200  # alive all the same
        assert replica_app.get("/metrics").status_code == 404  # no metrics given: not served
        sources.begin()
        assert replica_app.get("/readyz").status_code == 200
    sources.stop()


def test_every_answer_names_its_replica(replica_app):
    for path in ("/healthz", "/", "/api/v1/stacks", "/no/such/page", "/config"):
        assert replica_app.get(path).headers["x-replica"] == REPLICA


def test_requests_are_counted_by_route_template_never_by_path(replica_app):
    before = samples(replica_app.get("/metrics").text, "http_requests_total")
    made_up = ["org/made-up-model-1", "org/made-up-model-2"]
    for model in made_up:
        assert replica_app.get("/api/v1/lookup", params={"model": model}).status_code in (200, 404)
        replica_app.get(f"/no/such/{model}")
    replica_app.get("/", params={"model": made_up[0]})
    assert replica_app.get("/config").status_code == 200  # one of Gradio's routes, inside its mounted app
    assert replica_app.get("/gradio_api/info").status_code == 200  # and one of its API's, in a router FastAPI included
    text = replica_app.get("/metrics").text
    assert not any(model in text for model in made_up) and "/no/such" not in text
    after = samples(text, "http_requests_total")

    def grew(route: str, status: str) -> float:
        key = (("route", route), ("status", status))
        return after.get(key, 0) - before.get(key, 0)

    assert grew("other", "404") == 2
    assert grew("/", "200") == 1
    assert grew("/config", "200") == 1  # the route's own template, though a middleware passed on a copy of the scope
    assert grew("/gradio_api/info", "200") == 1  # not "/", the included router's own empty path
    assert sum(grew("/api/v1/lookup", status) for status in ("200", "404")) == 2
    latency = samples(text, "http_request_duration_seconds_count")
    assert latency[(("route", "/api/v1/lookup"),)] >= 2


def test_what_is_read_when_scraped(replica_app):
    text = replica_app.get("/metrics").text
    ages = samples(text, "app_data_age_seconds")
    assert {labels[0][1] for labels in ages} == {"dataset", "rankings", "records"}
    assert all(age >= 0 for age in ages.values())
    assert samples(text, "app_refresh_failures_total")[(("source", "dataset"),)] == 0
    assert samples(text, "app_queue_length")[()] == 0
    assert () in samples(text, "app_wanted_models") and () in samples(text, "app_wanted_lookups")


def test_metrics_can_be_turned_off():
    assert metrics.enabled({}) and metrics.enabled({"METRICS": "1"})
    assert not any(metrics.enabled({"METRICS": off}) for off in ("0", "false", "off", "no"))


def test_probes_and_scrapes_are_not_logged():
    quiet = health.ProbeLogFilter()

    def access(path: str) -> logging.LogRecord:  # as uvicorn's access logger makes its records
        return logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                                 ("127.0.0.1:5", "GET", path, "1.1", 200), None)  # fmt: skip

    assert not quiet.filter(access("/healthz")) and not quiet.filter(access("/readyz"))
    assert not quiet.filter(access("/metrics?x=1"))
    assert quiet.filter(access("/api/v1/stacks"))
    health.quiet_access_log()
    assert sum(isinstance(f, health.ProbeLogFilter) for f in logging.getLogger("uvicorn.access").filters) == 1


def test_gradios_app_id_is_the_releases(replica_app):

    assert replica_app.get("/gradio_api/app_id").json()["app_id"] == mount.app_id()


def test_a_paths_route_template_is_found_once_and_what_is_kept_is_bounded(monkeypatch):
    from starlette.routing import Route

    async def answer(scope, receive, send):  # pragma: no cover - never called: only matched
        pass

    routes = [Route("/api/v1/lookup", answer), Route("/gradio_api/call/{name}/{event_id}", answer)]
    looked: list[str] = []
    real = metrics.matching
    monkeypatch.setattr(metrics, "matching", lambda rs, scope: looked.append(scope["path"]) or real(rs, scope))
    templates = metrics.RouteTemplates(size=3)

    def template(path: str, method: str = "GET") -> str:
        return templates.get(routes, {"type": "http", "method": method, "path": path, "root_path": ""})

    assert [template("/api/v1/lookup") for _ in range(5)] == ["/api/v1/lookup"] * 5
    assert template("/gradio_api/call/search/abc") == "/gradio_api/call/{name}/{event_id}"
    assert template("/nowhere") == metrics.OTHER and template("/api/v1/lookup", "POST") == metrics.OTHER
    assert looked == ["/api/v1/lookup", "/gradio_api/call/search/abc", "/nowhere", "/api/v1/lookup"]
    assert len(templates.found) == 1  # the fourth path started it again, empty
    routes.append(Route("/nowhere", answer))  # a route added later is seen
    assert template("/nowhere") == "/nowhere"
    other = list(routes)  # another app's routes, even one given a freed list's id, are matched apart
    assert templates.get(other, {"type": "http", "method": "GET", "path": "/api/v1/lookup", "root_path": ""})
