"""What a replica reports at `GET /metrics`, in Prometheus's text format (`prometheus_client`).

Requests are counted by route template and status, and timed to the answer's first byte (an event stream's
answer begins at once and then stays open: its length is how long a tab stayed, not how fast the app was).
A route label is a template (`/api/v1/lookup`, `/gradio_api/heartbeat/{session_hash}`) or `other`, never the
path asked for: a crawler's thousand made-up paths or model ids make no new series. The rest is read when
scraped: the queue's length (`gradio/queue_look.py`, handed in), each source's age and failed refreshes, and the wanted
counts. `METRICS=0` turns all of it off (the route answers 404 and nothing is counted).

Each `Metrics` has a registry of its own, so several apps built in one process (tests) count apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.registry import Collector
from starlette.routing import BaseRoute, Match, Mount

from components.runtime import environment, settings
from components.sources.app_sources import Sources
from components.sources.wanted_counts import Wanted
from components.web.asgi import Scope, relative_path

CONTENT_TYPE = CONTENT_TYPE_LATEST
# From a cached page (~1 ms) to a slow export (seconds).
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
OTHER = "other"


def enabled(env: dict[str, str] | None = None) -> bool:
    """Whether metrics are on: env `METRICS` unset, or anything but `0`, `false`, `no` or `off`."""
    return environment.METRICS.get(env)


def route_of(scope: Scope, pages: frozenset[str] = frozenset()) -> str:
    """The template of the route that answered, `other` when none did: a page's path when the path is one of
    `pages` (answered from the page cache, before any route); else the route Starlette left in the scope; else
    the first route of the app's own router, or of an app mounted in it (Gradio), that matches the request.
    The last is the usual case: a middleware before this one's inner app (`origin.HostRewriteMiddleware`) passes a copy
    of the scope on, so what the routers write reaches the copy, not the scope this reads."""
    path = relative_path(scope)
    if path in pages:
        return path
    route = scope.get("route")
    template = getattr(route, "path", None)
    if isinstance(template, str) and not isinstance(route, Mount):
        return template or "/"
    router = scope.get("router") or getattr(scope.get("app"), "router", None)
    routes = getattr(router, "routes", ())
    return _templates.get(routes, scope)


class RouteTemplates:
    """The template `matching` finds for a method and path, remembered per list of routes (an app's routes are
    fixed once it serves): most requests ask for a few paths ("/", the queue's, the scripts'). At most `size`
    are kept; then it starts again empty (the paths that name an event or a file are seldom asked twice)."""

    def __init__(self, size: int = settings.ROUTE_TEMPLATES.value):
        self.size = size
        self.lists: list[Sequence[BaseRoute]] = []  # each list of routes asked about, held: its place is its key
        self.found: dict[tuple[int, int, object, object, object], str] = {}

    def get(self, routes: Sequence[BaseRoute], scope: Scope) -> str:
        place = next((i for i, known in enumerate(self.lists) if known is routes), None)
        if place is None:
            if len(self.lists) >= settings.ROUTE_LISTS.value:
                self.lists.clear()
                self.found.clear()
            place = len(self.lists)
            self.lists.append(routes)
        # the list's length too: a route added after a path was first asked for is seen
        key = (place, len(routes), scope.get("method"), scope.get("root_path"), scope.get("path"))
        kept = self.found.get(key)
        if kept is not None:
            return kept
        try:
            template = matching(routes, scope) or OTHER
        except Exception:  # a route that cannot read this scope: the answer is counted, not refused
            template = OTHER
        if len(self.found) >= self.size:
            self.found.clear()
        self.found[key] = template
        return template


_templates = RouteTemplates()


def matching(routes: Iterable[BaseRoute], scope: Scope, prefix: str = "", depth: int = 0) -> str | None:
    """The template of the first of `routes` that matches `scope` whole, looking into mounted apps (two deep at
    most: the app, then Gradio's) and into routers FastAPI included (Gradio's API under `/gradio_api`); None
    when none does."""
    for route in routes:
        match, child = route.matches(scope)
        if match is not Match.FULL:
            continue
        if isinstance(route, Mount):
            inner = getattr(route, "routes", ()) if depth < 2 else ()
            return matching(inner, {**scope, **child}, prefix + route.path, depth + 1)
        included = _included(route)
        if included is not None and depth < 4:
            routes_inside, more = included
            root = str(scope.get("root_path", "")) + more
            found = matching(routes_inside, {**scope, "root_path": root}, prefix + more, depth + 1)
            if found is not None:
                return found
        return (prefix + str(getattr(route, "path", ""))) or "/"
    return None


def _included(route: BaseRoute) -> tuple[Sequence[BaseRoute], str] | None:
    """A router FastAPI included (`app.include_router(router, prefix=...)`) is a route with no path of its own:
    its routes and its prefix, or None for any other route. Read from the attributes this FastAPI gives it
    (`original_router`, `include_context.prefix`); a release without them gives None, and the route is counted
    under the enclosing template as before."""
    if isinstance(getattr(route, "path", None), str):
        return None
    routes = getattr(getattr(route, "original_router", None), "routes", None)
    prefix = getattr(getattr(route, "include_context", None), "prefix", None)
    if not isinstance(routes, list) or not isinstance(prefix, str):
        return None
    return routes, prefix


class Metrics:
    """The request counts and latencies of one app, and what it reads from `sources`, the queue and `wanted`
    when scraped."""

    def __init__(self, sources: Sources, queue_length: Callable[[], int | None] = lambda: None,
                 wanted: Callable[[], Wanted] | None = None):  # fmt: skip
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "http_requests", "Requests answered, by route template and status", ("route", "status"),
            registry=self.registry,
        )  # fmt: skip
        self.latency = Histogram(
            "http_request_duration_seconds", "Seconds from a request to its answer's first byte, by route template",
            ("route",), buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.registry.register(_Readings(sources, queue_length, wanted))

    def observe(self, route: str, status: int, seconds: float) -> None:
        self.requests.labels(route, str(status)).inc()
        self.latency.labels(route).observe(seconds)

    def text(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)


class _Readings(Collector):
    """What is read at each scrape rather than counted as it happens."""

    def __init__(self, sources: Sources, queue_length: Callable[[], int | None], wanted: Callable[[], Wanted] | None):
        self.sources, self.queue_length, self.wanted = sources, queue_length, wanted

    def collect(self) -> Iterator[Metric]:
        queued = self.queue_length()
        if queued is not None:
            yield GaugeMetricFamily("app_queue_length", "Events waiting in the live page's queue", value=queued)
        age = GaugeMetricFamily(
            "app_data_age_seconds", "Seconds since what a source serves was read (the data moment's age)",
            labels=("source",),
        )  # fmt: skip
        failures = CounterMetricFamily(
            "app_refresh_failures",
            "Failed refreshes of a source since the start (the dataset's also count a read that found a file "
            "unreadable and served its last good rows)",
            labels=("source",),
        )
        now = datetime.now(UTC)
        for store in self.sources.stores:
            status = store.source_status()
            served_for = status.age(now)
            if served_for is not None:
                age.add_metric((status.source,), served_for.total_seconds())
            failures.add_metric((status.source,), getattr(store, "failed_refreshes", 0))
        yield age
        yield failures
        if self.wanted is not None:
            counted = self.wanted().counted()
            yield GaugeMetricFamily("app_wanted_models", "Untested models looked up in the window", value=len(counted))
            yield GaugeMetricFamily(
                "app_wanted_lookups", "Counted lookups of untested models in the window (every replica's)",
                value=sum(c.lookups for c in counted),
            )  # fmt: skip
