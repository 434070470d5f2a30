"""The first HTML of a link, made once per data moment: a burst of visitors to one shared link costs one
render, and the thousandth visitor a dictionary look-up on the event loop.

`middleware/first_html.py` keeps the finished answers (`Page`) of the most recently asked links
(`PAGE_CACHE`, least recently asked dropped first) in a `sources.moment_cache.MomentCache`, which forgets
them all when the served data changes and lets one request make a link's answer while the others asking
for it wait. What decides a link's answer is `key_of`. Each answer has an ETag: a request whose
`If-None-Match` names it is answered 304 with no body.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from components.web import cache_control, etags

# Browsers keep the page and ask again with `If-None-Match` each time (a 304 when the data has not changed); a
# shared cache may keep it a minute (`cache_control.py`).
CACHE_CONTROL = cache_control.PAGE.encode()
# The request headers a page's answer depends on, once `middleware/origin.py` has set the app's own origin
# and dropped every forwarding header: the host (Gradio's `root`, the painted links) and the encodings the
# caller takes (the body is kept as sent). With the path, query, root path and scheme (which uvicorn took from
# a trusted proxy's `X-Forwarded-Proto`) they decide the answer; the answer's `Vary` names the same headers
# (`cache_control.py`), and tests/hardening/test_poisoned_page.py holds that no other header changes it.
KEY_HEADERS = (b"host", b"accept-encoding")


@dataclass
class Page:
    """A finished first response: its status line's headers (no length) and body, and its ETag."""

    headers: list[tuple[bytes, bytes]]
    body: bytes
    live: bool = False  # it carries the live page's answer: the page needs no load event, and no queue
    encoding: str = ""  # the body's content encoding ("" for none)
    busy_body: bytes | None = None  # the body with the busy note shown, in `encoding`: made once, when first sent
    etag: bytes = field(init=False)

    def __post_init__(self) -> None:
        self.etag = etags.tag_of(self.body).encode()

    def weight(self) -> int:
        """The bytes it keeps: its body and headers (what `PAGE_CACHE_BYTES` bounds)."""
        return len(self.body) + len(self.busy_body or b"") + sum(len(k) + len(v) for k, v in self.headers)


def key_of(scope: dict, page: str) -> tuple:
    """What decides a page route's answer: the page, the query, the root path, the scheme and `KEY_HEADERS`."""
    headers = dict((k.lower(), v) for k, v in scope.get("headers", ()) if k.lower() in KEY_HEADERS)
    return (page, scope.get("query_string", b""), scope.get("root_path", ""), scope.get("scheme", "http"),
            *(headers.get(name, b"") for name in KEY_HEADERS))  # fmt: skip
