"""Take the README screenshots, or any page state, in headless Chromium.

python assets/make_screenshot.py --readme      # starts the app on the bundled sample and writes
                                               # assets/screenshot.png, screenshot-dark.png, screenshot-phone.png
                                               # and docs/screenshot-table.png, screenshot-fail-panel.png,
                                               # screenshot-phone-table.png, screenshot-phone-answer.png
python assets/make_screenshot.py URL OUT.png [--width 1400] [--dark] [--click-first-row] [--full-page]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
ROOT = Path(__file__).resolve().parent.parent
# (file, width, height, dark, element scrolled to the top): what the README shows; the page opens
# Qwen3-0.6B from the search.
README_SHOTS = (
    ("screenshot.png", 1400, 1000, False, None),
    ("screenshot-dark.png", 1400, 1000, True, None),
    ("screenshot-phone.png", 390, 844, False, None),
)
README_STATE = "/?q=qwen3&model=Qwen/Qwen3-0.6B"


@dataclass(frozen=True)
class Shot:
    """A screenshot for docs/: a page state at a window size, the whole window or one element of it, after
    tapping the row of `tap` (a model id) where one is named."""

    name: str
    path: str
    width: int
    height: int
    element: str | None = None
    tap: str | None = None


# What docs/ shows of the Models page: the table as a leaderboard, a FAIL's panel, and a phone's first screen
# and the answer a tapped row scrolls to.
FAILED = "llava-hf/llava-1.5-7b-hf"
DOCS_SHOTS = (
    Shot("screenshot-table.png", "/?sort=-downloads", 1366, 900),
    # a window as tall as the panel: run.py's viewer draws only the lines in the window
    Shot("screenshot-fail-panel.png", f"/?model={FAILED}&neuronx_cc=2.28.7631.0&transformers=5.0.0", 1366, 3400,
         element="#details"),
    Shot("screenshot-phone-table.png", "/", 390, 844),
    Shot("screenshot-phone-answer.png", "/", 390, 844, tap=FAILED),
)  # fmt: skip


def shoot(
    url: str, out: Path, width: int, height: int, dark: bool, click_first_row=False, full_page=False, top=None
) -> None:
    url += ("&" if "?" in url else "?") + "__theme=dark" if dark else ""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": height}, color_scheme="dark" if dark else "light")
        page.goto(url)
        # a model's link is the model's page: the table is there, one step back, out of sight
        page.locator("#results [role=gridcell]").first.wait_for(state="attached", timeout=30000)
        page.locator("#first-paint").wait_for(state="detached", timeout=30000)
        if click_first_row:
            page.locator("#results [role=gridcell]").first.click(position={"x": 4, "y": 4})
            page.locator("#details-summary h2").wait_for(timeout=10000)
        if top:
            page.locator(top).evaluate("(el) => el.scrollIntoView()")
        page.wait_for_timeout(1200)
        page.screenshot(path=str(out), full_page=full_page)
        browser.close()


def docs_shot(url: str, shot: Shot) -> None:
    """One of docs/'s screenshots (`DOCS_SHOTS`), in the light theme."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        touch = {"has_touch": True, "is_mobile": True} if shot.width < 600 else {}
        page = browser.new_page(viewport={"width": shot.width, "height": shot.height}, color_scheme="light", **touch)
        page.goto(url + shot.path)
        page.locator("#results [role=gridcell]").first.wait_for(state="attached", timeout=30000)
        page.locator("#first-paint").wait_for(state="detached", timeout=30000)
        if shot.tap:
            page.locator("#results tbody tr", has_text=shot.tap).first.tap()
            page.locator("#details-summary h2", has_text=shot.tap).wait_for(timeout=30000)
        page.wait_for_timeout(1500)  # the model's page has drawn
        target = page.locator(shot.element) if shot.element else page
        target.screenshot(path=str(ROOT / "docs" / shot.name))
        browser.close()


def readme_shots() -> None:
    """Serve the bundled sample (as with no network) and take the README's three screenshots."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ["--dataset", "data/sample", "--rankings", "data/rankings_snapshot.json", "--port", str(port)]
    app = subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), *args], cwd=ROOT, env={**os.environ, "HF_HUB_OFFLINE": "1"}
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(240):
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                time.sleep(0.25)
        for name, width, height, dark, top in README_SHOTS:
            shoot(url + README_STATE, ROOT / "assets" / name, width, height, dark, top=top)
            print(f"wrote assets/{name}")
        for shot in DOCS_SHOTS:
            docs_shot(url, shot)
            print(f"wrote docs/{shot.name}")
    finally:
        app.terminate()
        app.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url", nargs="?")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--readme", action="store_true", help="the README's and docs/' screenshots, from the sample")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1000)
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--click-first-row", action="store_true")
    parser.add_argument("--full-page", action="store_true")
    args = parser.parse_args()
    if args.readme:
        readme_shots()
    elif args.url and args.out:
        shoot(args.url, Path(args.out), args.width, args.height, args.dark, args.click_first_row, args.full_page)
    else:
        parser.error("give URL and OUT, or --readme")


if __name__ == "__main__":
    main()
