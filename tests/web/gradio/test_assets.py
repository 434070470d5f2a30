"""Gradio's scripts and stylesheets from memory: the same answer as Gradio's, and Gradio's for the rest."""

from __future__ import annotations

import gzip
import mimetypes

import brotli
import gradio as gr
import pytest
from gradio.routes import App
from starlette.middleware import Middleware
from starlette.testclient import TestClient

from components.runtime import settings
from components.web.gradio import assets

FILES = assets.gradio_files()
SCRIPT = max(
    (n for n in FILES if n.startswith("/assets/") and n.endswith(".js")), key=lambda n: FILES[n].stat().st_size
)
STYLE = max((n for n in FILES if n.endswith(".css")), key=lambda n: FILES[n].stat().st_size)
TINY = next(n for n in FILES if FILES[n].stat().st_size < settings.ASSET_MIN_SIZE.value)
STATIC = next(n for n in FILES if n.startswith("/static/"))
SAME = ("content-type", "etag", "last-modified", "content-encoding", "vary")


@pytest.fixture(scope="module")
def clients():
    """Gradio's own app, without and with `InMemoryAssetsMiddleware` in front."""
    with gr.Blocks() as demo:
        gr.Markdown("x")
    plain = TestClient(App.create_app(demo))
    ours = TestClient(App.create_app(demo, app_kwargs={"middleware": [Middleware(assets.InMemoryAssetsMiddleware)]}))
    mimetypes.add_type("application/javascript", ".js")  # what Gradio's page route does when first asked
    return plain, ours


def teapot_app():
    """An inner app that answers 418 to everything: what reaches it was not answered from memory."""
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["path"])
        await send({"type": "http.response.start", "status": 418, "headers": []})
        await send({"type": "http.response.body", "body": b"gradio"})

    return app, seen


def test_gradio_files_are_its_scripts_and_styles():
    assert len(FILES) > 100
    assert "/static/js/iframeResizer.contentWindow.min.js" in FILES
    assert all(n.endswith((".js", ".css")) and p.is_file() for n, p in FILES.items())


@pytest.mark.parametrize("name", [SCRIPT, STYLE, TINY, STATIC])
@pytest.mark.parametrize("accept", ["gzip, deflate, br, zstd", "gzip, deflate"])
def test_the_answer_is_gradios_own(clients, name, accept):
    plain, ours = clients
    theirs, mine = (c.get(name, headers={"Accept-Encoding": accept}) for c in (plain, ours))
    assert mine.status_code == theirs.status_code == 200
    assert {h: mine.headers.get(h) for h in SAME} == {h: theirs.headers.get(h) for h in SAME}
    assert mine.content == theirs.content == FILES[name].read_bytes()  # httpx decodes br and gzip
    assert int(mine.headers["content-length"]) == mine.num_bytes_downloaded  # the bytes sent, compressed or not


def test_the_body_is_compressed_and_its_length_is_the_compressed_length():
    headers, body = assets.encode(FILES[SCRIPT], "br")
    assert brotli.decompress(body) == FILES[SCRIPT].read_bytes() and len(body) < FILES[SCRIPT].stat().st_size / 2
    assert dict(headers)[b"content-length"] == str(len(body)).encode()
    headers, body = assets.encode(FILES[STYLE], "gzip")
    assert gzip.decompress(body) == FILES[STYLE].read_bytes()
    assert dict(headers)[b"content-encoding"] == b"gzip" and dict(headers)[b"vary"] == b"Accept-Encoding"
    headers, body = assets.encode(FILES[TINY], "br")  # as Gradio: a tiny file is sent as it is
    assert body == FILES[TINY].read_bytes() and b"content-encoding" not in dict(headers)


@pytest.mark.parametrize(
    ("path", "headers", "method"),
    [
        ("/assets/not-a-gradio-file.js", {}, "GET"),
        ("/assets/../routes.py", {}, "GET"),
        ("/assets/" + FILES[SCRIPT].name.replace(".js", ".map"), {}, "GET"),
        (SCRIPT, {"Accept-Encoding": "identity"}, "GET"),  # neither br nor gzip
        (SCRIPT, {"Range": "bytes=0-9"}, "GET"),
        (SCRIPT, {}, "HEAD"),
        ("/", {}, "GET"),
    ],
)
def test_what_it_does_not_cover_goes_on_to_gradio(path, headers, method):
    app, seen = teapot_app()
    client = TestClient(assets.InMemoryAssetsMiddleware(app))
    answer = client.request(method, path, headers={"Accept-Encoding": "br", **headers})
    assert answer.status_code == 418 and seen


def test_a_file_is_read_and_compressed_once(monkeypatch):
    calls = []
    encode = assets.encode
    monkeypatch.setattr(assets, "encode", lambda path, enc: calls.append((path, enc)) or encode(path, enc))
    app, seen = teapot_app()
    client = TestClient(assets.InMemoryAssetsMiddleware(app))
    for _ in range(3):
        assert client.get(SCRIPT, headers={"Accept-Encoding": "br"}).content == FILES[SCRIPT].read_bytes()
    client.get(SCRIPT, headers={"Accept-Encoding": "gzip"})
    assert calls == [(FILES[SCRIPT], "br"), (FILES[SCRIPT], "gzip")] and not seen


def test_past_its_bound_it_keeps_nothing_more_and_gradio_answers():
    app, seen = teapot_app()
    size = len(assets.encode(FILES[STYLE], "br")[1])
    middleware = assets.InMemoryAssetsMiddleware(app, max_kept=size)
    client = TestClient(middleware)
    assert client.get(STYLE, headers={"Accept-Encoding": "br"}).status_code == 200  # kept: exactly the bound
    assert client.get(SCRIPT, headers={"Accept-Encoding": "br"}).status_code == 418
    assert client.get(STYLE, headers={"Accept-Encoding": "br"}).status_code == 200  # what is kept is still served
    assert middleware.kept_bytes == size and list(middleware.kept) == [(STYLE, "br")] and seen == [SCRIPT]


def test_behind_a_root_path_the_file_is_found():
    app, seen = teapot_app()
    client = TestClient(assets.InMemoryAssetsMiddleware(app), root_path="/proxy")
    answer = client.get("/proxy" + SCRIPT, headers={"Accept-Encoding": "br"})
    assert answer.status_code == 200 and answer.content == FILES[SCRIPT].read_bytes() and not seen


def test_it_finds_gradios_files_where_the_package_ships_them():
    assert SCRIPT.startswith("/assets/") and STATIC.startswith("/static/")
    assert all(path.is_file() for path in FILES.values())


def test_where_the_package_holds_no_such_folder_every_request_goes_on_to_gradio(monkeypatch):
    monkeypatch.setattr(assets, "FOLDERS", {"/assets/": "templates/no-such-folder"})
    assert assets.gradio_files() == {}
    app, seen = teapot_app()
    answer = TestClient(assets.InMemoryAssetsMiddleware(app)).get(SCRIPT, headers={"Accept-Encoding": "br"})
    assert answer.status_code == 418 and seen


@pytest.mark.parametrize("name", [SCRIPT, STYLE, TINY])
def test_a_repeat_visit_gets_304_as_from_gradio(clients, name):
    """A browser that kept the file asks with its ETag: 304, no body, the validators kept (issue 32)."""
    ours = clients[1]
    accept = {"Accept-Encoding": "gzip, deflate, br"}
    full = ours.get(name, headers=accept)
    etag = full.headers["etag"]
    for asked in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        mine = ours.get(name, headers={**accept, "If-None-Match": asked})
        assert mine.status_code == 304, asked
        assert (
            mine.content == b""
            and mine.headers["etag"] == etag
            and mine.headers.get("vary") == full.headers.get("vary")
        )
        assert "content-encoding" not in mine.headers and "content-length" not in mine.headers
    stale = ours.get(name, headers={**accept, "If-None-Match": '"not-this-file"'})
    assert stale.status_code == 200 and stale.content == FILES[name].read_bytes()


def test_not_modified_reads_every_tag_of_the_header():
    headers = [(b"etag", b'"abc"')]
    assert assets.not_modified(b'"x", W/"abc"', headers)
    assert not assets.not_modified(b'"abcd"', headers)
    assert not assets.not_modified(b"", headers) and not assets.not_modified(b'"abc"', [])
