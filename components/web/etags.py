"""ETags and 304s, one way for every route that sends an ETag: `tag_of` makes the tag, `matches` reads a request's
`If-None-Match` (RFC 9110 §13.1.2) and says whether the caller already holds the answer, and `response` answers a
route's request with both (the app's own routes: `/api/v1`, the cards, the scripts). The first HTML
(`middleware/first_html.py`) answers at the ASGI level with the same `tag_of` and `scope_matches`.

Gradio's own files keep the ETag Starlette gives them (`middleware/assets.py` answers as Gradio does); they are
compared here too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

# One element of the list: an entity-tag (an optional weakness mark, then a quoted opaque tag, which may hold a
# comma), `*`, or nothing (the list syntax allows empty elements), then a comma or the end.
_ELEMENT = re.compile(rb'[ \t]*(?:(?:W/)?("[^"]*")|(\*))?[ \t]*(?:,|$)')


def tag_of(body: bytes) -> str:
    """A strong ETag of `body`, quoted: equal bodies, equal tags. 128 bits of SHA-256, which OpenSSL hashes with
    the CPU's SHA instructions: faster than BLAKE2b on a large answer (benchmarks/api_v1.py times both)."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _bytes(value: str | bytes) -> bytes:
    return value.encode("latin-1", "replace") if isinstance(value, str) else value


def matches(if_none_match: str | bytes | None, etag: str | bytes) -> bool:
    """Whether an `If-None-Match` value names `etag`: `*` names any; otherwise its comma-separated entity-tags
    are compared weakly (`W/"x"` and `"x"` are the same tag), as RFC 9110 says for `If-None-Match`. A list that
    does not parse names nothing (the answer is then sent whole)."""
    asked = _bytes(if_none_match or b"").strip()
    own = _bytes(etag).strip().removeprefix(b"W/")
    named, end = False, 0
    while end < len(asked):
        found = _ELEMENT.match(asked, end)
        if found is None or found.end() == end:
            return False
        named = named or found.group(1) == own or found.group(2) is not None
        end = found.end()
    return named


def if_none_match(scope: Mapping[str, Any]) -> bytes:
    """An ASGI request's `If-None-Match` header, or b"" when it sends none."""
    for key, value in scope.get("headers", ()):
        if key.lower() == b"if-none-match":
            return value
    return b""


def scope_matches(scope: Mapping[str, Any], etag: str | bytes) -> bool:
    """Whether an ASGI request's `If-None-Match` names `etag` (see `matches`)."""
    return matches(if_none_match(scope), etag)


def response(
    request: Request, body: bytes, media_type: str, headers: Mapping[str, str], etag: str | None = None
) -> Response:
    """`body` with `headers` and its ETag (`etag`, else `tag_of(body)`), or 304 with the same headers and no body when
    the request's `If-None-Match` names the tag."""
    tag = tag_of(body) if etag is None else etag
    headers = {**headers, "ETag": tag}
    if matches(request.headers.get("if-none-match"), tag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)
