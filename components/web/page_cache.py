"""The first HTML of a link, made once per data snapshot: a burst of visitors to one shared link costs one
render, and the thousandth visitor a dictionary look-up on the event loop.

`PageCache` keeps the finished answers of the most recently asked links (bounded, least recently asked
dropped first) and forgets them all when the served snapshot changes. While one request makes a link's
answer, others asking for the same link wait for it rather than make it again. Each answer has an ETag:
a request whose `If-None-Match` names it is answered 304 with no body.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

from components.runtime import settings
from components.web import cache_control, etags

# A page's first HTML is ~40-60 KB: 256 links keep at most ~15 MB, more distinct links than a launch
# shares; a crawler walking thousands of links only turns the oldest over.
PAGE_CACHE = settings.PAGE_CACHE.value
# Browsers keep the page and ask again with `If-None-Match` each time (a 304 when the data has not changed); a
# shared cache may keep it a minute (`cache_control.py`).
CACHE_CONTROL = cache_control.PAGE.encode()
# The request headers a page's answer depends on, once `middleware/origin.py` has set the app's own origin
# and dropped every forwarding header: the host (Gradio's `root`, the painted links) and the encodings the
# caller takes (the body is kept as sent). With the path, query, root path and scheme they decide the answer;
# tests/hardening/test_poisoned_page.py holds that no other header changes it.
KEY_HEADERS = (b"host", b"accept-encoding")


@dataclass
class Page:
    """A finished first response: its status line's headers (no length) and body, and its ETag."""

    headers: list[tuple[bytes, bytes]]
    body: bytes
    etag: bytes = field(init=False)

    def __post_init__(self) -> None:
        self.etag = etags.tag_of(self.body).encode()


def key_of(scope: dict, page: str) -> tuple:
    """What decides a page route's answer: the page, the query, the root path, the scheme and `KEY_HEADERS`."""
    headers = dict((k.lower(), v) for k, v in scope.get("headers", ()) if k.lower() in KEY_HEADERS)
    return (page, scope.get("query_string", b""), scope.get("root_path", ""), scope.get("scheme", "http"),
            *(headers.get(name, b"") for name in KEY_HEADERS))  # fmt: skip


class PageCache:
    """The most recent `size` finished pages of one snapshot, each made by one request at a time."""

    def __init__(self, size: int = PAGE_CACHE):
        self.size = size
        self.kept: OrderedDict[Hashable, Page] = OrderedDict()
        self.making: dict[Hashable, asyncio.Future[Page | None]] = {}
        self.served: tuple[object, ...] = ()

    async def get(
        self, served: tuple[object, ...], key: Hashable, make: Callable[[], Awaitable[Page | None]]
    ) -> Page | None:
        """The page kept for `key` while the same data objects are `served` (the snapshot, rankings and
        records of one moment), else the one `make()` returns (kept for the next request); None when
        `make()` made none (the answer was not a page to keep) or, for a request that waited on another's,
        when that one made none."""
        if not self._same(served):  # new data: every page may have changed
            self.kept.clear()
            self.served = served
        page = self.kept.get(key)
        if page is not None:
            self.kept.move_to_end(key)
            return page
        pending = self.making.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        pending = self.making[key] = asyncio.get_running_loop().create_future()
        page = None
        try:
            page = await make()
        finally:
            del self.making[key]
            pending.set_result(page)
        if page is not None and self._same(served):
            self.kept[key] = page
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
        return page

    def _same(self, served: tuple[object, ...]) -> bool:
        return len(served) == len(self.served) and all(a is b for a, b in zip(served, self.served, strict=True))
