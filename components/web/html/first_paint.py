"""The first response's HTML: the head tags that say what a page shows, and the block painted before any
script (the default view's first rows, or a model link's answer), all escaped by `markupsafe`.

The painted block sits over the page (out of the flow) while Gradio's app mounts hidden beneath it; once
the live page has its data, `SWAP_JS` removes the block and shows the live page in the same frame, so
nothing moves (no layout shift) and no id or table is on the page twice.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import cast

from markupsafe import Markup, escape

from components.queries import links, ordering, views
from components.queries.answers import LookupAnswer
from components.queries.formatting import noun
from components.queries.preview import APP_NAME, PAGES, SAMPLE_LABEL, FirstRows, Preview, view_words
from components.queries.views import Query
from components.web.html import details, notice, table, without_scripts

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
    return Markup("".join(tags)) + STYLE + (without_scripts.STYLE + MODEL_STYLE if preview.model else "")


def _badge(kind: str, text: str) -> Markup:
    return Markup('<b class="fp-result fp-{}">{}</b>').format(kind.replace(" ", "-"), text)


def _heading(preview: Preview) -> Markup:
    sample = Markup('<p class="fp-sample">{}</p>').format(SAMPLE_LABEL) if preview.sample else Markup("")
    return Markup("<h1>{}</h1>{}").format(APP_NAME, sample)


# A model link's painted page is the live model page's first screen drawn without scripts (issue 62): Gradio's nav
# bar (the pages in its order, `app.py`), the title, the data's notice, then the model's head (`details.head`, the
# live page's own) and its commands, each at the live page's place (measured in tests/e2e/test_first_response.py).
# The live page's look comes with its scripts (the theme and style.css): these are its values, written out.
NAV = ("", "compare", "charts", "architectures", "grid", "failures", "wanted", "about")
MODEL_STYLE = Markup(
    "<style>#first-paint:has(.fp-model){max-width:none;padding:0;font-size:14px;line-height:1.4;color:#1f2937}"
    ".fp-model a{color:#4338ca}.fp-model code,.fp-model pre{font-family:ui-monospace,Consolas,monospace}"
    ".fp-nav{border-bottom:1px solid #e5e7eb;padding:8px 0}"
    ".fp-nav>div{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:8px;max-width:1280px;margin:0 auto;"
    "padding:0 32px;box-sizing:border-box;font-size:16px;line-height:24px}"
    ".fp-nav a{padding:4px 8px;color:inherit;text-decoration:none}"
    ".fp-main{max-width:1280px;margin:0 auto;padding:16px 44px;box-sizing:border-box}"
    "#first-paint .fp-main h1{margin:15px 0 2px;font-size:23.8px;line-height:31px}"
    ".fp-main .tagline{margin:0;line-height:23px;color:#4b5563}"
    ".fp-main .provenance{margin:36px 0 0;padding:7.7px 11.6px;border:2px solid #6366f1;border-radius:6px;"
    "background:#f9fafb;font-size:12.88px;line-height:18px}"
    ".fp-main .sample-flag{display:inline-block;padding:0 5.5px;margin-right:3.3px;border-radius:999px;"
    "background:#4338ca;color:#fff;text-transform:uppercase;letter-spacing:.04em;font-size:.85em}"
    ".fp-main .rankings-line{color:#4b5563}"
    ".fp-main .back-to-table{margin:36px 0 2.7px;font-size:13.3px;line-height:21.6px}"
    ".fp-main .details-head h2{margin:2px 0 3px;font-size:19.6px;line-height:1.3;word-break:break-word}"
    ".fp-main .details-head h2 .badge{font-size:.6em;vertical-align:middle}.fp-main h2 a{text-decoration:none}"
    ".fp-main .badge{display:inline-block;padding:.05em .55em;border-radius:999px;font-weight:600;"
    "border:1px solid currentColor}"
    ".fp-main .badge-pass{color:#166534}.fp-main .badge-fail{color:#991b1b}.fp-main .badge-excluded{color:#854d0e}"
    ".fp-main .lead{margin:2.1px 0;line-height:22.75px}"
    ".fp-main .model-kind{margin:1.4px 0;color:#4b5563;font-size:.92em}"
    ".fp-main .figures{display:flex;flex-wrap:wrap;gap:1.4px 19.6px;list-style:none;padding:0;margin:4.2px 0}"
    "#first-paint .fp-main .fp-commands{gap:36px 40px;margin:37px 0}"
    "#first-paint .fp-main h3{margin:0 61px 5px 0;font-size:15.2px;line-height:21px}"
    "#first-paint .fp-main pre+h3{margin-top:36px}"
    "#first-paint .fp-commands ul{margin:4px 0 0;padding-left:1.2em;font-size:.82em;line-height:1.4;opacity:1;"
    "color:#4b5563}"
    "#first-paint .fp-main pre{padding:5.2px 7.8px;border:1px solid #e5e7eb;border-radius:4px;background:#f3f4f6;"
    "max-height:none}"
    "@media (prefers-color-scheme:dark){#first-paint:has(.fp-model){color:#f3f4f6}.fp-model a{color:#a5b4fc}"
    ".fp-nav{border-color:#374151}#first-paint .fp-nav a{color:inherit}.fp-main .provenance{background:#1f2937}"
    "#first-paint .fp-main pre{background:#1f2937;border-color:#374151}.fp-main .tagline,.fp-main .model-kind,"
    ".fp-main .rankings-line,#first-paint .fp-commands ul{color:#9ca3af}.fp-main .badge-pass{color:#4ade80}"
    ".fp-main .badge-fail{color:#f87171}.fp-main .badge-excluded{color:#facc15}}"
    "@media (max-width:720px){.fp-main{padding:16px 24px}.fp-main .tagline{display:none}"
    "#first-paint .fp-main h1{font-size:18.2px;line-height:24px}}</style>"
)


def _painted_ids(html: Markup) -> Markup:
    """The live page's `html` with each id prefixed `fp-`: the painted block and the live page are on the page
    together for a moment, and an id must not be there twice."""
    return Markup(re.sub(r'\bid="', 'id="fp-', str(html)))


def model_top(moment_notice: Markup) -> Markup:
    """What heads a model link's painted page as it heads the live one: the nav bar, the title and the notice."""
    links_ = Markup("").join(Markup('<a href="./{}">{}</a>').format(page, PAGES[page][0]) for page in NAV)
    return Markup('<nav class="fp-nav"><div>{}</div></nav>').format(links_) + Markup(
        '<div class="fp-main">{}{}'
    ).format(notice.title(APP_NAME), _painted_ids(moment_notice))


def model_block(preview: Preview, moment_notice: Markup, form: Markup = Markup("")) -> Markup:
    """A model link's answer, laid out as the live model page is (the page is the model's, the table a step
    back), under the page's top (`model_top`): the way back, the model's head as the live page draws it, an
    untested model's reason, then what to copy; `form` (a search with scripts off) under it all."""
    answer = cast(LookupAnswer, preview.answer or {})
    asked = Markup('<p class="fp-note"><strong>{}</strong></p>').format(preview.unknown_stack)
    why = Markup('<p class="fp-note">{}</p>').format(preview.detail)
    return Markup(
        '<div class="fp-model">{}{}<p class="back-to-table"><a href="./?{}">← Back to the table</a></p>{}{}{}{}'
        "</div></div>"
    ).format(
        model_top(moment_notice), asked if preview.unknown_stack else Markup(""), preview.table_query,
        _painted_ids(details.head(answer)), why if preview.kind == "not tested" and preview.detail else Markup(""),
        without_scripts.job(preview), form,
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
    """The painted block: the heading (a model's page has its own, `model_top`), `content` and the swap script."""
    return Markup('<div id="first-paint">{}{}</div>{}{}').format(
        Markup("") if preview.model else _heading(preview), content, SCRIPT, MODEL_PAGE if preview.model else Markup("")
    )


def page_block(preview: Preview) -> Markup:
    """Another page's painted block: what it shows and the data's state."""
    return Markup("<h2>{}</h2><p>{}</p>").format(preview.title.split(" · ")[0], preview.description)
