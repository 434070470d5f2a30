"""What a browser tab does when it opens a model link, recorded from a real Chromium visit, and kept in
`benchmarks/visit.json` for the visitor benchmark (`visitors.py`, `locustfile.py`) to replay.

    python benchmarks/visit.py          # records ours and the floor, and writes visit.json

Ours is recorded twice: on a tested model's link (`ours`), whose first HTML carries the live answer, so the tab
asks no queue; and on an untested model's link (`ours_untested`), whose page keeps its load event (it counts the
visit towards /wanted): the visitor benchmark replays that event for any link whose page has one.

Each request the tab makes until its live page is filled is kept with its kind:

- `page`: the first HTML of the link;
- `heartbeat`: the page's heartbeat stream, held while the tab is open (Gradio opens one for a page that
  keeps `gr.State`; ours keeps none and the floor none);
- `asset`: Gradio's scripts, styles and fonts (a browser keeps them: a new visitor in ten fetches them);
- `other`: the rest of what every tab asks (the theme, the API info);
- `join`: the load event joining the queue (its body, session aside, is kept to replay);
- `data`: the queue's result stream for the tab's session.

`shape()` is what a recording must keep to stay current (`tests/e2e/test_visit_recording.py`): the kinds and
paths, with session ids and build hashes left out.
"""

from __future__ import annotations

import json
import re
import sys
from urllib.parse import urlsplit

import common

RECORDING = common.HERE / "visit.json"
MODEL = "Qwen/Qwen3-8B"  # a tested model in the bundled sample: its page carries its answer, no load event
LINK = "/?model=" + MODEL
UNTESTED = "ByteDance-Seed/UI-TARS-1.5-7B"  # an untested one: its page keeps the load event that counts the visit
ASSET_TYPES = ("script", "stylesheet", "font", "image")
# the live page is filled: ours once a model's details name it, the floor once its table has a cell
FILLED = {"ours": f"#details-summary:has-text('{MODEL}')", "floor": "#results [role=gridcell]:has-text('model-0')",
          "ours_untested": f"#details-summary:has-text('{UNTESTED}')"}  # fmt: skip


def kind_of(path: str, resource_type: str, method: str) -> str:
    """A request's kind (see the module's docstring)."""
    if resource_type == "document":
        return "page"
    if path.startswith("/gradio_api/heartbeat/"):
        return "heartbeat"
    if path == "/gradio_api/queue/join" and method == "POST":
        return "join"
    if path == "/gradio_api/queue/data":
        return "data"
    return "asset" if resource_type in ASSET_TYPES else "other"


def normal_path(path: str) -> str:
    """`path` without what changes per visit or per build: session ids and content hashes."""
    path = re.sub(r"^/gradio_api/heartbeat/[^/]+", "/gradio_api/heartbeat/{session}", path)
    return re.sub(r"-[A-Za-z0-9_-]{8,10}(\.[a-z0-9]+)$", r"-{hash}\1", path)


def record(browser, url: str, page_path: str, filled: str) -> list[dict]:
    """The requests one fresh tab of `browser` (Playwright's Chromium) makes opening `page_path` until
    `filled` is on screen, in order."""
    seen: list[dict] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()

        def on_request(request) -> None:
            parts = urlsplit(request.url)
            if parts.hostname != "127.0.0.1":
                return
            entry = {"kind": kind_of(parts.path, request.resource_type, request.method),
                     "method": request.method, "path": parts.path + (f"?{parts.query}" if parts.query else "")}  # fmt: skip
            if entry["kind"] == "join":
                body = json.loads(request.post_data or "{}")
                body.pop("session_hash", None)
                entry["body"] = body
            seen.append(entry)

        page.on("request", on_request)
        page.goto(url + page_path)
        page.locator(filled).first.wait_for(timeout=60_000)
        page.wait_for_timeout(1000)  # the heartbeat and late requests of a settled page
    finally:
        context.close()
    return seen


def shape(visit: list[dict]) -> list[tuple[str, str, str]]:
    """What must stay the same for a recording to be current: each distinct (kind, method, normal path)."""
    found = {(v["kind"], v["method"], normal_path(urlsplit(v["path"]).path)) for v in visit}
    return sorted(found)


def record_all(browser) -> dict[str, list[dict]]:
    """A visit to ours (a tested model's link, a Space's environment), to ours on an untested model's link (whose
    page keeps its load event: `ours_untested`) and to the floor (its only page)."""
    recorded = {}
    with common.App(common.ROOT / "app.py", ("--dataset", str(common.SAMPLE), "--rankings", str(common.RANKINGS)),
                    common.SPACE) as app:  # fmt: skip
        recorded["ours"] = record(browser, app.url, LINK, FILLED["ours"])
        recorded["ours_untested"] = record(browser, app.url, "/?model=" + UNTESTED, FILLED["ours_untested"])
    with common.App(common.BASELINES / "floor.py", env=common.SPACE) as floor:
        recorded["floor"] = record(browser, floor.url, "/", FILLED["floor"])
    return recorded


def load() -> dict[str, list[dict]]:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def main() -> None:
    from browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            visits = record_all(chromium)
        finally:
            chromium.close()
    RECORDING.write_text(json.dumps(visits, indent=1) + "\n", encoding="utf-8")
    for name, visit in visits.items():
        print(name, len(visit), "requests:", ", ".join(sorted({v["kind"] for v in visit})), file=sys.stderr)


if __name__ == "__main__":
    main()
