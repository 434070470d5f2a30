"""/api/v1 keeps its own `Access-Control-Allow-Origin: *` behind Gradio's CORS layer, on a Space's host too;
every other path keeps Gradio's origin echo, and the patch stands down where Gradio's layer changed."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from gradio import route_utils

from components.web.patches import cors
from components.web.patches.guard import apply_patch
from tests.web.patches.conftest import fresh

SPACE = "owner-space.hf.space"
ELSEWHERE = "https://tools.example"


async def api_like(scope, receive, send):
    """What /api/v1 answers: its own CORS header."""
    headers = [(b"access-control-allow-origin", b"*"), (b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"{}"})


def answer(path: str, method: str = "GET") -> dict[str, str]:
    """The headers Gradio's CORS layer (around `api_like`) sends for a cross-origin request to `path` on a Space."""
    middleware = route_utils.CustomCORSMiddleware(api_like, strict_cors=True)
    headers = [(b"host", SPACE.encode()), (b"origin", ELSEWHERE.encode())]
    if method == "OPTIONS":
        headers.append((b"access-control-request-method", b"GET"))
    scope = {"type": "http", "method": method, "path": path, "headers": headers, "query_string": b""}
    sent: dict[str, str] = {}

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            sent.update({k.decode().lower(): v.decode() for k, v in message["headers"]})

    # a thread of its own: a test before this one may have left an event loop running on this thread
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, middleware(scope, receive, send)).result()
    return sent


def gradios_own():
    """Gradio's own `__call__`, even where the app's patch was applied earlier in this process."""
    current = route_utils.CustomCORSMiddleware.__call__
    return getattr(current, "__wrapped__", current)


@pytest.fixture
def patched(monkeypatch):
    monkeypatch.setattr(route_utils.CustomCORSMiddleware, "__call__", gradios_own())
    assert apply_patch(fresh(cors.PATCH))


def test_it_fits_this_gradio():
    cors.PATCH.check()


def test_without_the_patch_gradio_echoes_the_origin_with_credentials(monkeypatch):
    monkeypatch.setattr(route_utils.CustomCORSMiddleware, "__call__", gradios_own())
    sent = answer("/api/v1/stacks")
    assert sent["access-control-allow-origin"] == ELSEWHERE and sent.get("access-control-allow-credentials") == "true"


def test_the_api_keeps_its_own_star(patched):
    sent = answer("/api/v1/stacks")
    assert sent["access-control-allow-origin"] == "*" and "access-control-allow-credentials" not in sent


def test_every_other_path_keeps_gradios_behaviour(patched):
    sent = answer("/gradio_api/info")
    assert sent["access-control-allow-origin"] == ELSEWHERE and sent["access-control-allow-credentials"] == "true"
    assert answer("/api/v1x/stacks")["access-control-allow-origin"] == ELSEWHERE


def test_it_stands_down_where_gradios_cors_layer_changed(monkeypatch, stands_down):
    original = route_utils.CustomCORSMiddleware.__call__

    async def changed(self, scope):  # a different signature
        return None

    monkeypatch.setattr(route_utils.CustomCORSMiddleware, "__call__", changed)
    assert "no longer takes" in stands_down(cors.PATCH)
    assert route_utils.CustomCORSMiddleware.__call__ is changed and changed is not original
