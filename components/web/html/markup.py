"""The pieces every HTML fragment is built from, with markupsafe: a plain `str` is always escaped, and only
`Markup` (the app's own tags) passes as markup. Model ids, errors, notes and scripts are data.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from urllib.parse import unquote

from markupsafe import Markup, escape

from components.domain.results import EXCLUDED, FAIL, KIND_LABELS, NOT_TESTED, OTHER, PASS
from components.queries import links


def esc(value: object) -> Markup:
    """A value as text in HTML (None is nothing)."""
    return Markup("") if value is None else escape(str(value))


def join(parts: Iterable[str]) -> Markup:
    """Pieces of HTML (each `str` escaped unless it is Markup) as one."""
    return Markup("").join(parts)


def model_link(model_id: str) -> Markup:
    """The model's id, linking to its page on the Hub."""
    return Markup('<a href="{}" target="_blank" rel="noopener noreferrer" class="model-link">{}</a>').format(
        links.model_url(model_id), model_id
    )


def model_in_cell(cell: str) -> str:
    """The model id a table cell links to (a cell `model_link` wrote, as the browser sends it back), or "".
    It is the browser's text: the caller takes it as it takes a link's `model=`."""
    found = MODEL_CELL.search(cell[:MAX_CELL])
    return unquote(html.unescape(found.group(1))) if found else ""


# `model_link`'s address, which names the model; a cell longer than any the table shows is not read whole
MODEL_CELL = re.compile(r'<a href="' + re.escape(links.HUB) + r'/([^"<>]{1,200})"[^<>]{0,200}class="model-link">')
MAX_CELL = 2000


def badge(kind: str, result: object) -> Markup:
    """A result as a coloured label: its kind's label, or the result itself (cut short) for another kind."""
    label = KIND_LABELS[kind] if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else str(result or "unknown")[:40]
    css = kind if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else OTHER
    return Markup('<span class="badge badge-{}">{}</span>').format(css.replace(" ", "-"), label)
