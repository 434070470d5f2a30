"""What a new tab shows when the live page cannot start yet (Gradio's queue is full): a short note in the
painted block, and a script that reloads the page a little later, so the live page retries.

The painted answer above the note is the whole answer of the link; only the live page (filters, the full
table) waits. The note is in every painted block, hidden; it shows when the first response was made with
the queue full (`shown`), or when the live page's load event is refused (`POST .../queue/join` answered
503). The tab then keeps its painted block (the swap's own 20 s fallback stands aside) and reloads after
5 s, then 10, 20, 40, up to 60 s, each with jitter so a crowd of tabs does not return at one moment.
"""

from __future__ import annotations

from markupsafe import Markup

NOTE_TEXT = "The live page is busy with many visitors and will retry in a few seconds. The answer above is current."
NOTE = Markup('<p class="fp-busy-note" role="status" hidden>{}</p>').format(NOTE_TEXT)
NOTE_STYLE = "font-weight:600;border-left:3px solid currentColor;padding-left:.5em"
SHOWN = Markup('<p class="fp-busy-note" role="status" style="{}">{}</p>').format(NOTE_STYLE, NOTE_TEXT)
# The script is a file of its own (`routes/scripts.py`), cached by the browser across pages and visits: inlined,
# its ~1 KB would be in every page's first HTML. `defer` runs it before Gradio's client asks to join the queue
# (deferred scripts run in order, before DOMContentLoaded; the client joins only once its page is mounted).
SCRIPT_PATH = "/busy.js"
# Gradio's client calls the global `fetch` at each request, so wrapping it before Gradio's module scripts
# run sees the load event's join. The retry count lives in sessionStorage (one tab's, not shared) and is
# forgotten once a page has stayed un-refused for a minute.
RETRY_JS = """(() => {
  const root = document.documentElement, native = window.fetch, key = "fp-busy-retries";
  let retrying = false;
  const retry = () => {
    if (retrying) return;
    retrying = true;
    root.classList.add("fp-busy");
    const note = document.querySelector("#first-paint .fp-busy-note");
    if (note) { note.hidden = false; note.style.cssText = "%s"; }
    const tries = Number(sessionStorage.getItem(key) || 0);
    sessionStorage.setItem(key, String(tries + 1));
    const seconds = Math.min(60, 5 * 2 ** tries) * (0.75 + Math.random() / 2);
    setTimeout(() => location.reload(), seconds * 1000);
  };
  window.fetch = async (input, init) => {
    const answer = await native(input, init);
    const url = typeof input === "string" ? input : String(input && input.url || input);
    if (answer.status === 503 && url.includes("/queue/join")) retry();
    return answer;
  };
  setTimeout(() => { if (!retrying) sessionStorage.removeItem(key); }, 60000);
})();"""
SCRIPT = "".join(line.strip() for line in RETRY_JS.splitlines()) % NOTE_STYLE


def script_tag(base: str) -> Markup:
    """The tag that loads the retry script from the app at `base` (its public address)."""
    return Markup('<script src="{}" defer></script>').format(base + SCRIPT_PATH)


def shown(html: bytes) -> bytes:
    """`html` (a first response holding the hidden note) with the note shown."""
    return html.replace(str(NOTE).encode(), str(SHOWN).encode(), 1)
