"""Take the README screenshot (or any page state) in headless Chromium.

`python assets/make_screenshot.py URL OUT.png [--width 1400] [--dark] [--click-first-row]`
"""

from __future__ import annotations

import argparse

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("out")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1000)
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--click-first-row", action="store_true")
    parser.add_argument("--full-page", action="store_true")
    args = parser.parse_args()
    url = args.url + (("&" if "?" in args.url else "?") + "__theme=dark" if args.dark else "")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(url)
        page.locator("#results [role=gridcell]").first.wait_for(timeout=20000)
        if args.click_first_row:
            page.locator("#results [role=gridcell]").nth(1).click()
            page.locator("#details-summary h3").wait_for(timeout=10000)
        page.wait_for_timeout(800)
        page.screenshot(path=args.out, full_page=args.full_page)
        browser.close()


if __name__ == "__main__":
    main()
