"""The first response's HTML: the head tags that say what a page shows, and the block painted before any
script (the default view's first rows, or a model link's answer), all escaped by `markupsafe`.

The painted block sits over the page (out of the flow) while Gradio's app mounts hidden beneath it; once
the live page has its data, `SWAP_JS` removes the block and shows the live page in the same frame, so
nothing moves (no layout shift) and no id or table is on the page twice.
"""

from __future__ import annotations

from dataclasses import replace

from markupsafe import Markup, escape

from components.queries import links, ordering, views
from components.queries.formatting import noun
from components.queries.preview import APP_NAME, SAMPLE_LABEL, FirstRows, Preview, view_words
from components.queries.views import Query
from components.web.html import table, without_scripts

# While the block shows, the live page mounts hidden (its own shifts are not seen); the block keeps to
# the page's width and the system font the theme uses.
# While the swap happens no transition runs: Gradio's `div.svelte-1jts93g{transition:all .15s}` would
# otherwise ease the inherited `visibility` back in, and the live table would stay blank for ~60 ms after
# the painted block left (a blank flash where the rows were).
STYLE = Markup(
    "<style>.fp-wait gradio-app{visibility:hidden}.fp-swap gradio-app *{transition:none!important}"
    "#first-paint{position:absolute;top:0;left:0;right:0;box-sizing:border-box;max-width:1280px;margin:0 auto;"
    "padding:16px;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;"
    "line-height:1.5}"
    "#first-paint h1{margin:.2em 0 .1em;font-size:1.7em}"
    "#first-paint table{border-collapse:collapse;width:100%;margin-top:.5em}"
    "#first-paint th,#first-paint td{text-align:left;padding:.35em .5em;border-bottom:1px solid #d1d5db;"
    "word-break:break-word}"
    "#first-paint .fp-sample{font-weight:600;text-transform:uppercase;font-size:.85em}"
    "#first-paint .fp-note{opacity:.75;font-size:.9em}"
    "#first-paint .badge{font-weight:700;white-space:nowrap}"
    "#first-paint th{white-space:nowrap}#first-paint th a{color:inherit}"  # a header on one line ("Resul/t" broke)
    "#first-paint .task,#first-paint .rank{opacity:.75;margin:0 .3em}"
    "@media (prefers-color-scheme:dark){#first-paint a{color:#93c5fd}#first-paint th,#first-paint td"
    "{border-color:#374151}}"
    # then each column's alignment, width and screens: the registry's
    "@media (max-width:600px){#first-paint h1{font-size:1.3em}}" + table.column_css("#first-paint") + "</style>"
)
# Swaps the painted block for the live page once the page's load has filled it (with transitions off for
# two frames, so the live rows show in the frame the painted rows leave): the notice in `#header`
# and, on the Models page (its config names a `results` component), the table's first cell (or its "no models"
# summary), and every component the page shows on opening (its config's, but for hidden ones and those in a
# closed accordion). A page whose config carries its answer mounts its components one after another, each
# module as it arrives: the notice and the table may be there before the pickers above the table are. The title the first
# response gave is kept (Gradio's app names the tab with the app's title). After 20 s the live page is
# shown whatever it holds, unless it was refused as busy (`html/busy.py`: then the tab reloads).
SWAP_JS = """(() => {
  const root = document.documentElement, title = document.title;
  root.classList.add("fp-wait");
  const config = window.gradio_config || {}, components = config.components || [];
  const table = components.some((c) => c.props && c.props.elem_id === "results");
  const byId = new Map(components.map((c) => [c.id, c])), folded = new Set();
  const walk = (node, hidden) => {
    const c = byId.get(node.id), props = (c && c.props) || {};
    const hides = hidden || props.visible === false || (c && c.type === "accordion" && props.open === false);
    for (const child of node.children || []) {
      if (hides) folded.add(child.id);
      walk(child, hides);
    }
  };
  walk(config.layout || {}, false);
  const shown = components.filter((c) => c.props && c.props.elem_id && c.props.visible !== false && !folded.has(c.id))
    .map((c) => c.props.elem_id);
  const ready = () => {
    if (!document.querySelector("#header .provenance")) return false;
    if (shown.some((id) => !document.getElementById(id))) return false;
    if (!table && !document.getElementById("results")) return true;
    if (document.querySelector("#summary .summary.empty")) return true;
    for (const cell of document.querySelectorAll("#results [role=gridcell]")) if (cell.textContent.trim()) return true;
    return false;
  };
  let done = false;
  const swap = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    const block = document.getElementById("first-paint");
    if (block) block.remove();
    root.classList.add("fp-swap");
    root.classList.remove("fp-wait");
    document.title = title;
    requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove("fp-swap")));
  };
  const observer = new MutationObserver(() => { if (ready()) swap(); });
  observer.observe(root, {childList: true, subtree: true});
  setTimeout(() => { if (!root.classList.contains("fp-busy")) swap(); }, 20000);
})();"""
SCRIPT = Markup("<script>{}</script>").format(Markup("".join(line.strip() for line in SWAP_JS.splitlines())))


def head(preview: Preview, url: str, image: str) -> Markup:
    """`<title>`, the meta description and one set of Open Graph and Twitter tags for `preview`; `url` is
    the page's canonical address, `image` its card's."""
    # written by hand, each value escaped: `Markup.format` costs ~8 µs a call, and a new link's page waits on these

    def meta(key: str, value: str) -> str:
        return f'<meta property="{key}" content="{escape(value)}">'

    def named(key: str, value: str) -> str:
        return f'<meta name="{key}" content="{escape(value)}">'

    tags = [
        f"<title>{escape(preview.title)}</title>",
        named("description", preview.description),
        meta("og:type", "website"),
        meta("og:site_name", APP_NAME),
        meta("og:title", preview.title),
        meta("og:description", preview.description),
        meta("og:url", url),
        meta("og:image", image),
        meta("og:image:width", "1200"),
        meta("og:image:height", "630"),
        meta("og:image:alt", preview.description),
        named("twitter:card", "summary_large_image"),
        named("twitter:title", preview.title),
        named("twitter:description", preview.description),
        named("twitter:image", image),
        f'<link rel="canonical" href="{escape(url)}">',
    ]
    return Markup("".join(tags)) + STYLE + (without_scripts.STYLE if preview.model else "")


def _badge(kind: str, text: str) -> Markup:
    return Markup('<b class="fp-result fp-{}">{}</b>').format(kind.replace(" ", "-"), text)


def _heading(preview: Preview) -> Markup:
    sample = Markup('<p class="fp-sample">{}</p>').format(SAMPLE_LABEL) if preview.sample else Markup("")
    return Markup("<h1>{}</h1>{}").format(APP_NAME, sample)


def model_block(preview: Preview) -> Markup:
    """A model link's answer, laid out as the live model page is (the page is the model's, the table a step
    back): the way back, the model and its verdict on the stack, its figures and why, then what to copy."""
    facts = [preview.figures] * bool(preview.kind != "not tested" and preview.figures) + [preview.detail] * bool(
        preview.detail
    )
    listed = Markup("").join(Markup("<li>{}</li>").format(f) for f in facts)
    asked = Markup('<p class="fp-note"><strong>{}</strong></p>').format(preview.unknown_stack)
    return Markup(
        '{}<p class="fp-back"><a href="./?{}">← Back to the table</a></p><h2>{}</h2><p>{} on {}</p>{}{}'
    ).format(
        asked if preview.unknown_stack else Markup(""), preview.table_query, preview.model,
        _badge(preview.kind, preview.verdict), preview.stack,
        Markup('<ul class="fp-facts">{}</ul>').format(listed) if facts else Markup(""), without_scripts.job(preview),
    )  # fmt: skip


def rows_block(first: FirstRows) -> Markup:
    """A link's first rows as the live table shows them (`table.results_table`: the same columns, order and
    links, sortable by its headers' links with scripts off), under a summary of the whole view."""
    result, query = first.result, first.state.query
    where = Markup(" on {}").format(result.stack.label) if result.stack is not None else Markup("")
    if result.stack is None and result.stacks:  # no stack named: every library's newest
        where = Markup(" on each library's newest stack ({})").format(", ".join(s.library_label for s in result.stacks))
    if first.frame.empty:
        return Markup("<p>No models match{}: {}.</p>").format(where, _asked(query))
    order = ordering.parse(first.state.sort)
    rows = table.results_table(
        first.frame, query.view, order, ordering.shown(order, query.view, bool(query.text.strip())),
        lambda opened, sort: links.build(links.PageState(query, opened, sort=sort)), live=False,
    )  # fmt: skip
    return Markup(
        '<p><b>{:,}</b> {} · <b>{:,}</b> pass{} · the first {} shown</p><p class="fp-note">The first rows of {}</p>{}'
    ).format(result.total, noun(result.total, "model"), result.passed, where, len(first.frame), _asked(query), rows)


def _asked(query: Query) -> str:
    """The view a link asks for, in words: "the Selected view", "the Trending view · text-generation"."""
    words = view_words(replace(query, view=views.DEFAULT))
    return f"the {views.of(query.view).label} view" + (f" · {words}" if words else "")


# A model link's page is the model's own (style.css `.model-page`): the live page mounts so, beneath the block.
MODEL_PAGE = Markup('<script>document.documentElement.classList.add("model-page")</script>')


def block(preview: Preview, content: Markup) -> Markup:
    """The painted block: the heading, `content` and the swap script."""
    return Markup('<div id="first-paint">{}{}</div>{}{}').format(
        _heading(preview), content, SCRIPT, MODEL_PAGE if preview.model else Markup("")
    )


def page_block(preview: Preview) -> Markup:
    """Another page's painted block: what it shows and the data's state."""
    return Markup("<h2>{}</h2><p>{}</p>").format(preview.title.split(" · ")[0], preview.description)
