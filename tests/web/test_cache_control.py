"""What a shared cache may keep: the first HTML of a link, `/api/v1`, cards, badges and feeds carry `s-maxage`
and `stale-while-revalidate`, vary only with what shapes them, and carry nothing personal (no `Set-Cookie`;
the balancer's cookie is set by the page's own script)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

import app as the_app
from components.runtime import settings
from components.web import cache_control, replicas
from components.web.gradio import mount
from tests.web.routes.test_health import sample_sources

SHARED = ("/api/v1/stacks", "/card.png?model=Qwen/Qwen3-0.6B", "/badge?model=Qwen/Qwen3-0.6B", "/feed.atom",
          "/wanted.atom", "/grid.atom", "/api/v1/grid")  # fmt: skip


@pytest.fixture(scope="module")
def in_process_app():
    sources = sample_sources()
    sources.begin()
    sources.start()
    with TestClient(mount.build(the_app.build(sources), sources, host="127.0.0.1", port=7860)) as in_process_app:
        yield in_process_app
    sources.stop()


def varies(answer) -> set[str]:
    """Every header named by the answer's `Vary` lines, once each (an answer may carry several lines)."""
    lines = answer.headers.get_list("vary")
    assert len(lines) == 1, lines  # nginx 1.22 reads one line: the last
    named = [v.strip().lower() for v in lines[0].split(",")]
    assert len(named) == len(set(named)), named
    return set(named)


def directives(value: str) -> dict[str, str]:
    return dict((part.strip().split("=", 1) + [""])[:2] for part in value.split(","))


def test_the_value_says_how_long_a_shared_cache_and_a_browser_keep_it():
    assert cache_control.shared(60) == "public, max-age=60, s-maxage=60, stale-while-revalidate=60"
    assert directives(cache_control.PAGE) == {
        "public": "", "max-age": "0", "s-maxage": str(settings.PAGE_CACHE_SECONDS.value),
        "stale-while-revalidate": str(settings.PAGE_CACHE_SECONDS.value),
    }  # fmt: skip


def test_the_first_html_of_a_link_is_kept_by_a_shared_cache_and_revalidated_by_browsers(in_process_app, monkeypatch):
    monkeypatch.delenv("SPACE_HOST", raising=False)
    page = in_process_app.get("/", params={"model": "Qwen/Qwen3-0.6B"}, headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and "set-cookie" not in page.headers
    kept = directives(page.headers["cache-control"])
    assert kept["public"] == "" and kept["max-age"] == "0" and int(kept["s-maxage"]) > 0
    assert int(kept["stale-while-revalidate"]) > 0
    # off a Space its links come from the request's origin: a cache keys on its host and its scheme (which uvicorn
    # takes from a trusted proxy's X-Forwarded-Proto), and on the encoding; every other forwarding header is
    # dropped before anything reads it (middleware/origin.py), so none is named
    assert varies(page) == {"accept-encoding", "host", "x-forwarded-proto"}
    assert replicas.STICKY_SCRIPT in page.text and page.text.index(replicas.STICKY_SCRIPT) < page.text.index("<body")
    # a browser revalidates with the encodings it asked with: each encoding is its own body, with its own ETag
    again = in_process_app.get("/", params={"model": "Qwen/Qwen3-0.6B"},
                       headers={"If-None-Match": page.headers["etag"], "Accept-Encoding": "gzip"})  # fmt: skip
    assert again.status_code == 304 and again.headers["cache-control"] == page.headers["cache-control"]


def test_on_a_space_the_page_varies_only_with_the_encoding(in_process_app, monkeypatch):
    monkeypatch.setenv("SPACE_HOST", "owner-space.hf.space")
    for encoding in ("gzip", "identity"):
        assert varies(in_process_app.get("/compare", headers={"Accept-Encoding": encoding})) == {"accept-encoding"}


# Pages and feeds (their links name the app's origin), then what a shared cache may keep or not, the app's and
# Gradio's: the rule below holds for each one a cache may keep.
SHAPED_BY_ORIGIN = ("/?model=Qwen/Qwen3-0.6B", "/?q=qwen", "/compare", "/wanted", "/grid", "/feed.atom", "/wanted.atom",
                    "/grid.atom")  # fmt: skip
ANSWERS = (*SHARED, *SHAPED_BY_ORIGIN[:4], "/api/v1/openapi.json", "/api/v1/lookup?model=Qwen/Qwen3-0.6B",
           "/busy.js", "/config", "/gradio_api/info", "/theme.css")  # fmt: skip


def shareable(answer) -> bool:
    """Whether a shared cache may keep the answer: only what says so (nginx keeps nothing else, with no
    `proxy_cache_valid`)."""
    kept = directives(answer.headers.get("cache-control", ""))
    return bool({"public", "s-maxage"} & kept.keys()) and not {"private", "no-store"} & kept.keys()


@pytest.mark.parametrize("path", ANSWERS)
def test_a_kept_answer_names_in_vary_each_request_header_it_was_shaped_by(in_process_app, monkeypatch, path):
    """Issue 61: the page's Vary named `Host` but not the scheme, so one request a trusted proxy forwarded with
    `X-Forwarded-Proto: https` filled a shared cache with https links for every later visitor. Off a Space, an
    answer a shared cache may keep whose bytes change with the scheme, the host or the encoding names that header
    (the scheme's: `X-Forwarded-Proto`, as uvicorn reads it); the pages and feeds do change with the first two."""
    monkeypatch.delenv("SPACE_HOST", raising=False)
    plain = {"Accept-Encoding": "identity"}
    answer = in_process_app.get(path, headers=plain)
    assert answer.status_code == 200, answer.text[:200]
    if not shareable(answer):
        assert path not in SHAPED_BY_ORIGIN and path not in SHARED
        return
    others = {
        "x-forwarded-proto": in_process_app.get("https://testserver" + path, headers=plain),
        "host": in_process_app.get(path, headers={**plain, "Host": "other.example"}),
        "accept-encoding": in_process_app.get(path, headers={"Accept-Encoding": "gzip"}),
    }
    named = varies(answer) if "vary" in answer.headers else set()
    shaped = {name for name, other in others.items() if other.content != answer.content}
    assert shaped <= named, (shaped, named)
    if path in SHAPED_BY_ORIGIN:
        assert {"x-forwarded-proto", "host"} <= shaped  # so the test above checks something


def test_vary_names_each_header_once_in_one_line():
    assert cache_control.vary("Host", ["accept-encoding", "Host, X-Forwarded-Proto"], ()) == (
        "Host, accept-encoding, X-Forwarded-Proto"
    )
    merged = cache_control.with_vary([(b"vary", b"Accept-Encoding"), (b"etag", b"x")], *cache_control.ORIGIN)
    assert merged == [(b"etag", b"x"), (b"vary", b"Accept-Encoding, Host, X-Forwarded-Proto")]
    assert cache_control.with_vary([(b"etag", b"x")]) == [(b"etag", b"x")]
    assert cache_control.headers("public", ()) == {"Cache-Control": "public"}


@pytest.mark.parametrize("path", SHARED)
def test_api_cards_badges_and_feeds_may_be_kept_by_a_shared_cache(in_process_app, path):
    answer = in_process_app.get(path)
    assert answer.status_code == 200, answer.text[:200]
    kept = directives(answer.headers["cache-control"])
    assert "public" in kept and int(kept["s-maxage"]) >= 60 and int(kept["stale-while-revalidate"]) > 0
    assert "set-cookie" not in answer.headers and "private" not in kept
