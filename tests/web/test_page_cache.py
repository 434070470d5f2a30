"""A link's first HTML made once per data moment (`middleware/first_html.py` keeping `page_cache.Page`s in a
`MomentCache`), and ETags that match."""

from __future__ import annotations

import asyncio

import pytest

from components.runtime import settings
from components.sources.dataset import load
from components.web import etags, page_cache
from components.web.middleware.first_html import FirstHtmlMiddleware
from tests.helpers import NEW_CC, row, run_async, served, write

PAGE = b'<html><head><meta charset="utf-8"></head><body><p>the app\'s page</p></body></html>'


@pytest.fixture
def one_row_sources(tmp_path):
    write(tmp_path / "new.parquet", [row("org/passes", cc=NEW_CC)])
    return served(load(tmp_path))


class Gated:
    """An ASGI app answering `body` as `content_type` once `gate` opens, counting the requests it answers."""

    def __init__(self, gate: asyncio.Event, content_type: bytes = b"text/html; charset=utf-8", body: bytes = PAGE):
        self.gate, self.content_type, self.body, self.asked = gate, content_type, body, 0

    async def __call__(self, scope, receive, send) -> None:
        self.asked += 1
        await self.gate.wait()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", self.content_type)]})
        await send({"type": "http.response.body", "body": self.body})


async def get(app, path: str = "/", query: bytes = b"model=org/passes") -> tuple[int, bytes]:
    """One GET through `app`: its status and body."""
    scope = {"type": "http", "method": "GET", "path": path, "root_path": "", "scheme": "http",
             "query_string": query, "headers": [(b"host", b"example.org")]}  # fmt: skip
    status, body = 0, b""

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
        else:
            body += message.get("body", b"")

    await app(scope, receive, send)
    return status, body


def test_a_burst_on_one_link_asks_the_app_once_and_new_data_asks_again(one_row_sources):
    async def scenario():
        gate = asyncio.Event()
        gradio = Gated(gate)
        app = FirstHtmlMiddleware(gradio, one_row_sources)
        burst = [asyncio.ensure_future(get(app)) for _ in range(100)]
        await asyncio.sleep(0)  # each runs to its wait: one asks the app, 99 wait for its answer
        gate.set()
        answers = await asyncio.gather(*burst)
        assert gradio.asked == 1 and len({body for _, body in answers}) == 1
        assert answers[0][0] == 200 and b"org/passes" in answers[0][1]  # rewritten for the link
        await get(app, query=b"model=org/other")
        assert gradio.asked == 1 and len(app.pages) == 2  # another link: made from Gradio's answer kept
        await get(app, path="/compare", query=b"")
        assert gradio.asked == 2  # another page: Gradio asked for its own
        await get(app)
        assert gradio.asked == 2  # kept
        one_row_sources.datasets.value = (
            one_row_sources.now().snapshot.with_provenance()
        )  # a refresh: every page made again
        await get(app)
        assert gradio.asked == 3 and len(app.pages) == 1

    run_async(scenario())


def test_an_answer_that_is_not_a_page_goes_out_to_each_request_as_it_came_and_nothing_is_kept(one_row_sources):
    async def scenario():
        gate = asyncio.Event()
        gradio = Gated(gate, b"application/json", b'{"not": "a page"}')
        app = FirstHtmlMiddleware(gradio, one_row_sources)
        burst = [asyncio.ensure_future(get(app)) for _ in range(5)]
        await asyncio.sleep(0)
        gate.set()
        answers = await asyncio.gather(*burst)
        assert answers == [(200, b'{"not": "a page"}')] * 5
        assert gradio.asked == 5 and len(app.pages) == 0  # the waiters asked the app themselves

    run_async(scenario())


def test_etags_differ_by_body_and_if_none_match_names_them():
    one, two = page_cache.Page([], b"one"), page_cache.Page([], b"two")
    assert one.etag != two.etag and one.etag == etags.tag_of(b"one").encode()
    asked = {"headers": [(b"if-none-match", b'W/"other", ' + one.etag)]}
    assert etags.scope_matches(asked, one.etag) and not etags.scope_matches(asked, two.etag)
    assert not etags.scope_matches({"headers": []}, one.etag)


def test_the_pages_kept_are_bounded_in_bytes_too(one_row_sources):
    """256 links of pages near the 4 MB a page may be would keep a gigabyte: the bytes are bounded as well."""

    async def scenario():
        gate = asyncio.Event()
        gate.set()
        gradio = Gated(gate)
        app = FirstHtmlMiddleware(gradio, one_row_sources)
        await get(app, query=b"model=org/m0")
        one = app.pages.bytes
        assert one > len(PAGE)  # the page as kept: painted for its link, with its headers
        app.pages.max_bytes = int(3.5 * one)  # room for three pages of that size
        for i in range(1, 10):
            await get(app, query=f"model=org/m{i}".encode())
        assert gradio.asked == 1 and len(app.pages) == 3 and app.pages.bytes <= app.pages.max_bytes
        # below 256 pages at the 4 MB a page may be
        assert settings.PAGE_CACHE.value * settings.PAGE_SCAN.value > settings.PAGE_CACHE_BYTES.value

    run_async(scenario())


def test_gradio_is_asked_once_per_page_host_and_its_own_parameters_not_per_link(one_row_sources):
    """Gradio reads none of a link's parameters: 50 model links are made from one answer of Gradio's; what
    Gradio does read (another host, its `deep_link`) asks it again, and each page is still its link's."""

    async def scenario():
        gate = asyncio.Event()
        gate.set()
        gradio = Gated(gate)
        app = FirstHtmlMiddleware(gradio, one_row_sources)
        bodies = [(await get(app, query=f"model=org/m{i}&sort=-cores".encode()))[1] for i in range(50)]
        assert gradio.asked == 1 and len(set(bodies)) == 50  # one answer of Gradio's, fifty pages
        assert all(f"org/m{i}<".encode() in body for i, body in enumerate(bodies))  # each its own link's
        await get(app, query=b"model=org/m1&deep_link=abc")
        assert gradio.asked == 2
        await get(app, query=b"model=org/m2&deep_link=abc")
        assert gradio.asked == 2
        other_host = {"type": "http", "method": "GET", "path": "/", "root_path": "", "scheme": "http",
                      "query_string": b"model=org/m3", "headers": [(b"host", b"other.example.org")]}  # fmt: skip
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        await app(other_host, receive, send)
        assert gradio.asked == 3 and sent[0]["status"] == 200

    run_async(scenario())
