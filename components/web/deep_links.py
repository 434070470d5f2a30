"""A deep link as the server reads it: its parameters (`page_query`), the public address its links are made
from (`base_url`), and the address of its preview card (`CARD_PATH`). The page's first HTML
(`middleware/first_html.py`) and the card (`routes/card.py`) read a link the same way.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.requests import Request

from components.queries import links
from components.runtime import settings

CARD_PATH = "/card.png"


def page_query(raw: str) -> dict[str, str]:
    """A link's parameters (the first value of each); a query too long for a link counts as none."""
    if len(raw) > settings.CARD_QUERY.value:
        return {}
    params: dict[str, str] = {}
    for key, value in parse_qsl(raw, keep_blank_values=True):
        params.setdefault(key, value)
    return params


def base_url(request: Request) -> str:
    """The Space's public address when known (env SPACE_HOST), else the address the request came to."""
    return links.space_url() or links.public_url(request)
