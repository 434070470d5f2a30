"""The whole job in the first response, with or without scripts: a plain GET search form (search text, view,
stack) for the painted block of the Models page, and on a model link what a person came to copy (the pinned
install line, the cache command with its notes, run.py) as selectable text. Escaped by `markupsafe`.

The ids are the live page's with an `fp-` prefix: the painted block and the live page are on the page
together for a moment, and an id must not be there twice.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from components.queries.details import RUN_COMMAND
from components.queries.preview import Preview, SearchForm
from components.web.html.details import CACHE_LABEL, INSTALL_LABEL, RUN_LABEL, run_py_title

# only a model link carries it (`first_paint.head`): scripts wrap and scroll
STYLE = Markup(
    "<style>#first-paint pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;margin:0;"
    "font-size:13px;line-height:20px}#first-paint h3{font-size:.95rem;margin:.6em 0 .2em}"
    "#first-paint .fp-commands{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:0 16px}"
    "#first-paint .fp-facts{list-style:none;padding:0;margin:.2em 0}#first-paint .fp-back{margin:.2em 0}</style>"
)


def _select(name: str, label: str, choices: tuple[tuple[str, str], ...], chosen: str) -> Markup:
    # `/` stays light: an option's value is its text unless told otherwise (views are read in any case), the
    # first option is chosen unless another is, and an option needs no end tag
    # escaped and joined by hand (`Markup.format` costs ~8 µs a call; a stack picker lists every stack)
    options = Markup(
        "".join(_option(value, text, value == chosen and i > 0) for i, (value, text) in enumerate(choices))
    )
    return Markup('<label>{} <select name="{}">{}</select></label> ').format(label, name, options)


def _option(value: str, text: str, selected: bool) -> str:
    shown = f' value="{escape(value)}"' if value.lower() != text.lower() else ""
    return f"<option{shown}{' selected' if selected else ''}>{escape(text)}"


def search_form(form: SearchForm) -> Markup:
    """A GET form to the Models page: `q`, `view`, `neuronx_cc` and `library_version`, as its deep links
    name them; it works with scripts off, the live page reads the same link."""
    return Markup(
        '<form action="./" role="search"><label>Search <input type="search" name="q" value="{}"></label> '
        "{}{}{}<button>Search</button></form>"
    ).format(
        form.text,
        _select("view", "View", form.views, form.view),
        _select("neuronx_cc", "neuronx-cc", form.compilers, form.neuronx_cc),
        _select("library_version", "Library", form.libraries, form.library_version),
    )


def _copy(element_id: str, title: str, text: str, notes: tuple[str, ...] = ()) -> Markup:
    listed = Markup("").join(Markup("<li>{}</li>").format(n) for n in notes)
    return Markup('<h3>{}</h3><pre id="{}"><code>{}</code></pre>{}').format(
        title, element_id, text, Markup('<ul class="fp-note">{}</ul>').format(listed) if notes else ""
    )


def job(preview: Preview) -> Markup:
    """What a model link's reader came to copy, placed as the live model page places it: the install line and
    the command that runs run.py beside the cache command and its notes, then run.py; nothing the answer does
    not have."""
    left, right = [], []
    if preview.install:
        left.append(_copy("fp-install", INSTALL_LABEL, preview.install))
    if preview.run_py:
        left.append(_copy("fp-run-command", RUN_LABEL, RUN_COMMAND))
    if preview.cache_sync:
        right.append(_copy("fp-cache-sync", CACHE_LABEL, preview.cache_sync, preview.cache_notes))
    commands = Markup('<div class="fp-commands"><div>{}</div><div>{}</div></div>').format(
        Markup("").join(left), Markup("").join(right)
    )
    script = _copy("fp-run-py", run_py_title(preview.run_py_from), preview.run_py) if preview.run_py else ""
    return commands + script if left or right else Markup(script)
