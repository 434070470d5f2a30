"""The page's download links for what it shows; the route that answers them: `routes/downloads.py`."""

from __future__ import annotations

from markupsafe import Markup

from components.queries import links


def links_html(state: links.PageState) -> Markup:
    """The two download links for what the page shows (a relative address: it works under any root)."""
    query = links.build(links.PageState(state.query, ""))
    parts = [
        Markup('<a id="download-{}" href="export/{}{}" download title="{}">{}</a>').format(
            fmt, fmt, "?" + query if query else "", title, label
        )
        for fmt, label, title in (
            ("csv", "CSV", "Text starting with = + - @ gets a leading ' so that spreadsheets do not run it"),
            ("parquet", "Parquet", "Every matching row, typed"),
        )
    ]
    return Markup('<span class="downloads">Download every matching row: {} · {}</span>').format(*parts)
