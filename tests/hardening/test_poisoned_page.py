"""The kept first page of a link: no request header can change it for another visitor (issue 45).

One request with `X-Gradio-Server: https://evil.example` made the kept first HTML of a link carry
`"root":"https://evil.example"`, and every later visitor of that link fetched scripts, `theme.css` and its
`queue/join` from there. Here every forwarding header that Gradio, Starlette, uvicorn or the app reads, or a
later release may read, is sent (one by one, then all at once) from a client the app does not trust; then a
plain visitor must get a page whose every absolute address is the app's own, over HTTP and in Chromium. A
property test holds that the page depends on nothing a request sends beyond what its cache key holds.
"""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page, expect

from components.web import page_cache
from tests.helpers import SPACE_ENV

EVIL = "evil.example"
# Each header as an attacker would send it: the ones read today, then those a later release may read.
FORWARDING = {
    "X-Gradio-Server": f"https://{EVIL}",
    "X-Forwarded-Host": EVIL,
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.66",
    "X-Forwarded-Port": "8443",
    "X-Forwarded-Prefix": "/evil",
    "Forwarded": f"for=203.0.113.66;host={EVIL};proto=https",
}
# More names proxies use for the same things; none may reach a page either.
OTHER_NAMES = ("X-Forwarded-Server", "X-Forwarded-Scheme", "X-Forwarded-Ssl", "X-Original-Host", "X-Host")
LINKS = ("/?model=Qwen/Qwen3-0.6B", "/", "/compare", "/failures", "/architectures", "/wanted", "/about", "/charts")
# Absolute addresses a page may hold besides the app's own: where its text sends people (the Neuron pip index).
ELSEWHERE = {
    "pip.repos.neuron.amazonaws.com",
    "huggingface.co",
    "github.com",
    "awsdocs-neuron.readthedocs-hosted.com",
    "img.shields.io",
}  # the badge Markdown of a model's panel (its own address relative: `html/follow.py`)
UNTRUSTED = "127.0.0.2"  # another loopback address: not the trusted proxy (127.0.0.1)
SPACE_HOST = SPACE_ENV["SPACE_HOST"]  # the `space_app` fixture's


def untrusted_client(url: str) -> httpx.Client:
    """A client whose connections come from `UNTRUSTED`, as a visitor's from the internet would."""
    return httpx.Client(base_url=url, timeout=30, transport=httpx.HTTPTransport(local_address=UNTRUSTED))


def addresses(page: str) -> dict[str, str]:
    """The page's absolute addresses that matter: Gradio's root, og:url, og:image and the canonical link."""
    found = {
        "root": re.search(r'"root":"([^"]*)"', page),
        "og:url": re.search(r'<meta property="og:url" content="([^"]*)"', page),
        "og:image": re.search(r'<meta property="og:image" content="([^"]*)"', page),
        "canonical": re.search(r'<link rel="canonical" href="([^"]*)"', page),
    }
    return {name: match.group(1) for name, match in found.items() if match}


def assert_clean(page: str, own: str, public: str | None = None) -> None:
    """Every absolute address in `page` is the app's own (`own`, or its configured `public` address for the
    links made to be shared), or one of `ELSEWHERE`; nothing names the attacker's origin."""
    assert EVIL not in page and "/evil" not in page and ":8443" not in page
    named = addresses(page)
    assert named.get("root") == own, named
    for name in ("og:url", "og:image", "canonical"):
        if name in named:
            assert named[name].startswith((public or own) + "/"), (name, named[name])
    hosts = {urlsplit(url).netloc for url in re.findall(r"https?://[^\"'\s<>)\\]+", page)}
    assert hosts <= {urlsplit(own).netloc, urlsplit(public or own).netloc} | ELSEWHERE, hosts


def poison(url: str, link: str, headers: dict[str, str] | None = None) -> None:
    """Ask for `link` with each forwarding header alone, then all of them, from an untrusted client."""
    with untrusted_client(url) as client:
        for name, value in FORWARDING.items():
            assert client.get(link, headers={name: value, **(headers or {})}).status_code == 200
        assert client.get(link, headers={**FORWARDING, **(headers or {})}).status_code == 200


@pytest.mark.parametrize("link", LINKS)
def test_after_every_forwarding_header_a_plain_visitor_gets_a_clean_page(sample_app, link):
    poison(sample_app.url, link)
    plain = httpx.get(sample_app.url + link, timeout=30)
    assert plain.status_code == 200
    assert_clean(plain.text, sample_app.url)


def test_the_attackers_own_answer_is_clean_too(sample_app):
    with untrusted_client(sample_app.url) as client:
        answer = client.get("/?model=Qwen/Qwen3-8B", headers=FORWARDING)
    assert_clean(answer.text, sample_app.url)


def test_on_a_space_the_shared_links_name_the_space_and_the_root_the_address_asked(space_app):
    link = "/?model=Qwen/Qwen3-0.6B"
    # through the Space's proxy (loopback, trusted), an attacker's headers passed along, and straight in
    poison(space_app.url, link)
    with httpx.Client(base_url=space_app.url, timeout=30) as proxy:
        assert proxy.get(link, headers=FORWARDING).status_code == 200
        assert proxy.get(link, headers={**FORWARDING, "Host": SPACE_HOST}).status_code == 200
        visitor = proxy.get(link, headers={"Host": SPACE_HOST, "X-Forwarded-Proto": "https"})
        local = proxy.get(link)
    assert_clean(visitor.text, f"https://{SPACE_HOST}", f"https://{SPACE_HOST}")
    assert_clean(local.text, space_app.url, f"https://{SPACE_HOST}")
    with untrusted_client(space_app.url) as client:  # a Host the app does not serve: the Space's own address
        assert_clean(client.get(link, headers={"Host": EVIL}).text, f"https://{SPACE_HOST}", f"https://{SPACE_HOST}")


def test_a_host_header_that_names_no_host_is_refused(sample_app):
    host, port = urlsplit(sample_app.url).hostname, urlsplit(sample_app.url).port
    with socket.create_connection((host, port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: evil.example/<script>\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 400 ") and b"<script>" not in answer


header_values = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60).map(
    str.strip
)  # h11 sends no edge spaces


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sent=st.dictionaries(
        st.sampled_from([*FORWARDING, *OTHER_NAMES, "User-Agent", "Cookie", "Accept-Language", "Referer"]),
        header_values,
        max_size=8,
    ),
    nonce=st.integers(0, 10**9),
)  # fmt: skip
def test_the_page_depends_on_nothing_its_key_does_not_hold(sample_app, sent, nonce):
    """Two requests whose keys differ only in a parameter the page ignores (so each is rendered, not looked up):
    whatever other headers one sends, both pages are the same bytes."""
    link = "/?model=Qwen/Qwen3-0.6B&n="
    with untrusted_client(sample_app.url) as client:
        plain = client.get(f"{link}{nonce}-plain", headers={"Accept-Encoding": "identity"})
        sent_page = client.get(f"{link}{nonce}-sent", headers={**sent, "Accept-Encoding": "identity"})
    assert sent_page.status_code == plain.status_code == 200
    assert sent_page.headers["etag"] == plain.headers["etag"]


def test_the_key_holds_the_host_the_encoding_and_no_forwarding_header():
    scope = {"type": "http", "scheme": "http", "query_string": b"model=a/b", "root_path": "", "headers": []}
    base = page_cache.key_of({**scope, "headers": [(b"host", b"a:1"), (b"accept-encoding", b"gzip")]}, "")
    more = [(name.lower().encode(), b"x") for name in (*FORWARDING, *OTHER_NAMES, "User-Agent")]
    with_more = {**scope, "headers": [(b"host", b"a:1"), (b"accept-encoding", b"gzip"), *more]}
    assert page_cache.key_of(with_more, "") == base
    assert page_cache.key_of({**scope, "headers": [(b"host", b"b:1"), (b"accept-encoding", b"gzip")]}, "") != base
    assert page_cache.key_of({**scope, "scheme": "https", "headers": [(b"host", b"a:1"), (b"accept-encoding", b"gzip")]}, "") != base  # fmt: skip


def test_in_chromium_a_plain_visit_after_the_attack_stays_on_the_apps_origin(sample_app, page: Page):
    link = "/?model=Qwen/Qwen3-8B"
    with page.expect_request(lambda r: r.url == sample_app.url + "/about") as first:  # what Chromium sends a page
        page.goto(sample_app.url + "/about")
    encoding = first.value.all_headers().get("accept-encoding", "")
    poison(sample_app.url, link, {"Accept-Encoding": encoding})  # the attack aims at the key Chromium's visit has
    own = urlsplit(sample_app.url).netloc
    elsewhere: list[str] = []
    page.on("request", lambda r: None if urlsplit(r.url).netloc == own else elsewhere.append(r.url))
    page.route(f"**://{EVIL}/**", lambda route: route.abort())
    page.goto(sample_app.url + link)
    expect(page.locator("#details")).to_contain_text("Qwen/Qwen3-8B", timeout=30_000)
    # the live page ran: its load event went through this origin's queue
    expect(page.locator("#first-paint")).to_have_count(0, timeout=30_000)
    assert page.evaluate("window.gradio_config.root") == sample_app.url
    assert not [url for url in elsewhere if urlsplit(url).netloc not in ELSEWHERE], elsewhere
