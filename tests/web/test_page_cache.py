"""`PageCache`: one render per link and data, bounded, ETags that match."""

from __future__ import annotations

import asyncio

from components.web import etags, page_cache
from tests.helpers import run_async


def test_a_burst_on_one_link_makes_it_once_and_new_data_makes_it_again():
    cache = page_cache.PageCache(size=2)
    made: list[str] = []

    def maker(key: str):
        async def make():
            made.append(key)
            await asyncio.sleep(0.05)  # the others arrive while it is being made
            return page_cache.Page([], key.encode())

        return make

    async def scenario():
        first = ("snapshot-1",)
        pages = await asyncio.gather(*(cache.get(first, "a", maker("a")) for _ in range(1000)))
        assert {p.body for p in pages} == {b"a"} and made == ["a"]
        await cache.get(first, "b", maker("b"))
        await cache.get(first, "c", maker("c"))  # past the bound: "a", the least recently asked, goes
        await cache.get(first, "a", maker("a"))
        assert made == ["a", "b", "c", "a"] and len(cache.kept) == 2
        await cache.get(("snapshot-2",), "c", maker("c"))  # new data: made again
        assert made[-1] == "c" and list(cache.kept) == ["c"]

    run_async(scenario())


def test_a_failed_make_is_not_kept_and_the_next_request_makes_it():
    cache = page_cache.PageCache()

    async def nothing():
        return None

    async def page():
        return page_cache.Page([], b"x")

    async def scenario():
        assert await cache.get((1,), "k", nothing) is None
        assert (await cache.get((1,), "k", page)).body == b"x"

    run_async(scenario())


def test_etags_differ_by_body_and_if_none_match_names_them():
    one, two = page_cache.Page([], b"one"), page_cache.Page([], b"two")
    assert one.etag != two.etag and one.etag == etags.tag_of(b"one").encode()
    asked = {"headers": [(b"if-none-match", b'W/"other", ' + one.etag)]}
    assert etags.scope_matches(asked, one.etag) and not etags.scope_matches(asked, two.etag)
    assert not etags.scope_matches({"headers": []}, one.etag)
