"""The pieces every HTML fragment is built from, with markupsafe: a plain `str` is always escaped, and only
`Markup` (the app's own tags) passes as markup. Model ids, errors, notes and scripts are data.
"""

from __future__ import annotations

import html
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
    It is the browser's text: the caller takes it as it takes a link's `model=`. Read in one pass (a cell
    may be anything a client sends), at most `MAX_CELL` characters of it."""
    cell = cell[:MAX_CELL]
    start = cell.find(MODEL_HREF)
    end = cell.find('"', start + len(MODEL_HREF)) if start >= 0 else -1
    if end < 0 or MODEL_CLASS not in cell[end : end + 100]:
        return ""
    return unquote(html.unescape(cell[start + len(MODEL_HREF) : end]))


# how `model_link` starts and marks its link; the longest id in the data fits in a cell this long
MODEL_HREF = '<a href="' + links.HUB + "/"
MODEL_CLASS = 'class="model-link">'
MAX_CELL = 65_536


def badge(kind: str, result: object) -> Markup:
    """A result as a coloured label: its kind's label, or the result itself (cut short) for another kind."""
    label = KIND_LABELS[kind] if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else str(result or "unknown")[:40]
    css = kind if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else OTHER
    return Markup('<span class="badge badge-{}">{}</span>').format(css.replace(" ", "-"), label)
