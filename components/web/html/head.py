"""What every page's head carries (Gradio sends it inside every page's config), and the page's own script,
served as a file of its own (`SCRIPT_PATH`)."""

from __future__ import annotations


def minified_head(text: str) -> str:
    """The head's scripts without indentation or blank lines (its lines kept, so no statement runs into the
    next): Gradio sends the head inside every page's config."""
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


# An open model is a page of its own, the table one step back (style.css `.model-page`): its back link returns
# to the table the person came from where the table opened the model in this tab (that history entry is the
# address script's, `wiring.ADDRESS_JS`, and Back shows its address: `html/table.py`), else it goes to the
# table's address as a link does.
OPEN_MODEL = """(() => {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest(".back-to-table a");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    if (!(window.history.state && window.history.state.fromTable)) return;
    event.preventDefault();
    window.history.back();
  });
})();"""

# Gradio's footer link "Use via API or MCP" opens the API panel of the page it is on (`?view=api`, on the
# first page), but the named endpoints sit on a page of their own (`/endpoints`, so that no other page carries
# their ~45 KB of schemas): anywhere else the panel said "No API Routes found". The link, and any `?view=api`
# address, go to `/endpoints#api`, which opens that page's panel with its own link (Gradio opens the panel
# from the link; a `?view=api` it finds on load would make that click close it). The app's own `view=` values
# (selected, trending, downloads) are left alone.
API_DOCS = """(() => {
  if (window.__apiDocs) return;  // once, however often the head is put in
  window.__apiDocs = true;
  const docs = () => (window.gradio_config && window.gradio_config.root || location.origin).replace(/\\/$/, "") + "/endpoints#api";
  const elsewhere = () => !/\\/endpoints\\/?$/.test(location.pathname);
  if (new URLSearchParams(location.search).get("view") === "api" && elsewhere()) return location.replace(docs());
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("footer .show-api");
    if (!link || !elsewhere()) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    location.assign(docs());
  }, true);
  if (elsewhere() || location.hash !== "#api") return;
  const open = () => {
    const button = document.querySelector("footer .show-api");
    if (button) button.click();
    return Boolean(button);
  };
  if (!open()) {
    const observer = new MutationObserver(() => open() && observer.disconnect());
    observer.observe(document.documentElement, { childList: true, subtree: true });
  }
})();"""

# The script behind `markup.copy_block` and `markup.code_block`: it makes a badge's relative addresses absolute
# from the address the browser shows (a handler does not know it), copies a block's text (without a clipboard, on
# plain http, Copy selects the text for Ctrl+C), and saves a script as a file. One script for every block costs
# the page no component and no event.
COPY = """(() => {
  const relative = encodeURIComponent("./badge?");
  const absolute = () => document.querySelectorAll("pre[data-relative]").forEach((el) => {
    const base = new URL("./", location.href).href.replace(/\\/$/, "");
    el.textContent = el.textContent.split(relative).join(encodeURIComponent(base + "/badge?")).split("](./?").join("](" + base + "/?");
    el.removeAttribute("data-relative");
  });
  new MutationObserver(absolute).observe(document.documentElement, {childList: true, subtree: true});
  document.addEventListener("click", (event) => {
    const save = event.target.closest && event.target.closest("button[data-download]");
    const script = save && document.getElementById(save.dataset.download);
    if (script) {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([script.textContent], {type: "text/plain"}));
      link.download = save.dataset.filename || "download.txt";
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      return;
    }
    const button = event.target.closest && event.target.closest("button[data-copy]");
    const el = button && document.getElementById(button.dataset.copy);
    if (!el) return;
    const copied = () => { button.textContent = "Copied"; setTimeout(() => { button.textContent = "Copy"; }, 1500); };
    const select = () => getSelection().selectAllChildren(el);
    navigator.clipboard ? navigator.clipboard.writeText(el.textContent).then(copied, select) : select();
  });
})();"""

# A phone's width goes to the page, not to its margins (32 px a side left a stack picker too narrow for its
# value). The page's margins are outside what the app's stylesheet reaches (Gradio scopes each rule of it in a
# media query to the inside of the page, `.contain`), so the script puts this rule in the head itself.
PHONE_MARGINS = """(() => {
  const style = document.createElement("style");
  style.textContent = "@media (max-width: 600px) { .gradio-container .main.app { padding-left: 12px; padding-right: 12px; } }";
  document.head.append(style);
})();"""

# `/endpoints` is painted by no first response (`middleware/first_html.py` UNPAINTED), so nothing keeps the title
# that response gave: Gradio's app named the tab with the app's bare name. The page keeps its own (its og:title).
ENDPOINTS_TITLE = """(() => {
  if (!/\\/endpoints\\/?$/.test(location.pathname)) return;
  const meta = document.querySelector('meta[property="og:title"]');
  if (!meta || !meta.content) return;
  const keep = () => { if (document.title !== meta.content) document.title = meta.content; };
  keep();
  new MutationObserver(keep).observe(document.head, { childList: true, subtree: true, characterData: true });
})();"""

# Every page's script, served as `SCRIPT_PATH` (`routes/scripts.py`): a file browsers keep, not ~4 KB in every
# page's config (Gradio sends the head inside it). It runs once however often Gradio puts the head in.
SCRIPT_PATH = "/page.js"
SCRIPT = (
    "if (!window.__pageScript) {\nwindow.__pageScript = true;\n"
    + "\n".join((OPEN_MODEL, API_DOCS, COPY, PHONE_MARGINS, ENDPOINTS_TITLE))
    + "\n}\n"
)

# What every page's <head> carries (inside its config): the feed, for feed readers and browsers, and the page's
# script; relative addresses, so they work under any root.
HEAD = (
    '<link rel="alternate" type="application/atom+xml" title="Result changes" href="feed.atom">'
    f'<script src="{SCRIPT_PATH.lstrip("/")}"></script>'
)
