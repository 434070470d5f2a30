"""The pieces every HTML fragment is built from, with markupsafe: a plain `str` is always escaped, and only
`Markup` (the app's own tags) passes as markup. Model ids, errors, notes and scripts are data.
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup, escape

from components.domain.results import EXCLUDED, FAIL, KIND_LABELS, NOT_TESTED, OTHER, PASS
from components.queries import links
from components.runtime import settings


def esc(value: object) -> Markup:
    """A value as text in HTML (None is nothing)."""
    return Markup("") if value is None else escape(str(value))


def join(parts: Iterable[str]) -> Markup:
    """Pieces of HTML (each `str` escaped unless it is Markup) as one."""
    return Markup("").join(parts)


def nowrap(text: object) -> Markup:
    """A figure that stays on one line ("14 min 42 s", never "14 min 42" and a lone "s" below)."""
    return Markup('<span class="nowrap">{}</span>').format(text)


def model_link(model_id: str) -> Markup:
    """The model's id, linking to its page on the Hub."""
    return Markup('<a href="{}" target="_blank" rel="noopener noreferrer" class="model-link">{}</a>').format(
        links.model_url(model_id), model_id
    )


def badge(kind: str, result: object) -> Markup:
    """A result as a coloured label: its kind's label, or the result itself (cut short) for another kind."""
    label = (
        KIND_LABELS[kind]
        if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED)
        else str(result or "unknown")[: settings.RESULT_SHOWN.value]
    )
    css = kind if kind in (PASS, FAIL, EXCLUDED, NOT_TESTED) else OTHER
    return Markup('<span class="badge badge-{}">{}</span>').format(css.replace(" ", "-"), label)


def copy_block(element_id: str, text: str, label: str, relative: bool = False) -> Markup:
    """Text to copy, in a `<pre>` with a Copy button (`html/head.py`'s page script copies it); `relative`: the text
    holds `follow.badge_markdown`'s relative addresses, which the script makes absolute in the browser."""
    return Markup(
        '<pre class="copyable" id="{}"{}>{}</pre><button type="button" class="copy-button" data-copy="{}" '
        'aria-label="{}">Copy</button>'
    ).format(element_id, Markup(" data-relative") if relative else "", text, element_id, label)


def command_block(element_id: str, text: str, label: str, notes: tuple[str, ...] = ()) -> Markup:
    """A command to copy under its heading, the Copy button beside the heading (never under it: the heading is
    text, and a click on it copies nothing), `notes` in a list below the command. The page script
    (`html/head.py`) copies the `<pre>`'s text. Headings are `<h3>`: under the model's `<h2>`."""
    listed = Markup("").join(Markup("<li>{}</li>").format(note) for note in notes)
    return Markup(
        '<div class="code-head"><h3 class="code-label">{label}</h3>'
        '<button type="button" class="copy-button" data-copy="{id}" aria-label="Copy: {label}">Copy</button></div>'
        '<pre class="command" id="{id}">{text}</pre>{notes}'
    ).format(
        id=element_id, label=label, text=text,
        notes=Markup('<ul class="command-notes">{}</ul>').format(listed) if notes else "",
    )  # fmt: skip


def code_block(element_id: str, text: str, label: str, filename: str) -> Markup:
    """A script shown whole, its line numbers beside its lines, with Copy and Download buttons (`html/head.py`'s
    page script). The numbers are drawn by CSS (a counter per line), so the `<pre>`'s text, what a selection or
    Copy takes, is the script exactly. The `<pre>` takes focus (a keyboard scrolls a long line) and is named."""
    # each line escaped and wrapped by hand: `Markup.format` costs ~8 µs a call, and a script has dozens of lines
    lines = Markup("\n".join(f'<span class="line">{escape(line)}</span>' for line in text.split("\n")))
    return Markup(
        '<div class="code-head"><h3 class="code-label">{label}</h3>'
        '<button type="button" class="copy-button" data-copy="{id}" aria-label="Copy {file}">Copy</button>'
        '<button type="button" class="copy-button" data-download="{id}" data-filename="{file}" '
        'aria-label="Download {file}">Download</button></div>'
        '<pre class="code" id="{id}" tabindex="0" role="region" aria-label="{label}"><code>{lines}</code></pre>'
    ).format(id=element_id, label=label, file=filename, lines=lines)
