"""Take the README screenshots, or any page state, in headless Chromium.

python assets/make_screenshot.py --readme      # starts the app on the bundled sample and writes
                                               # assets/screenshot.png, screenshot-dark.png, screenshot-phone.png
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
    ("screenshot-phone.png", 390, 844, False, "#summary"),
)
README_STATE = "/?q=qwen3&model=Qwen/Qwen3-0.6B"


def shoot(
    url: str, out: Path, width: int, height: int, dark: bool, click_first_row=False, full_page=False, top=None
) -> None:
    url += ("&" if "?" in url else "?") + "__theme=dark" if dark else ""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": height}, color_scheme="dark" if dark else "light")
        page.goto(url)
        page.locator("#results [role=gridcell]").first.wait_for(timeout=30000)
        if click_first_row:
            page.locator("#results [role=gridcell]").first.click(position={"x": 4, "y": 4})
            page.locator("#details-summary h3").wait_for(timeout=10000)
        if top:
            page.locator(top).evaluate("(el) => el.scrollIntoView()")
        page.wait_for_timeout(1200)
        page.screenshot(path=str(out), full_page=full_page)
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
    finally:
        app.terminate()
        app.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url", nargs="?")
    parser.add_argument("out", nargs="?")
    parser.add_argument("--readme", action="store_true", help="the README's three screenshots, from the sample")
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
