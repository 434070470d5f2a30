"""Lighthouse on the first page and a model's link, as a phone and as a desktop: accessibility, best practices
and SEO at 100. Minutes, not seconds (four audits of a loaded page): marked `slow`, outside the fast tier.

Lighthouse comes from the npm registry into the gitignored .lighthouse/ (tests/lighthouse.sh); without it, or
without Node, the test is skipped, saying why. Performance is measured, not judged: benchmarks/lighthouse.py.
"""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import CHROMIUM
from tests.helpers import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.browser]
PAGES = {"home": "/", "model link": "/?model=Qwen/Qwen3-0.6B"}
JUDGED = ("accessibility", "best-practices", "seo")
FORM_FACTORS = ("mobile", "desktop")


def lighthouse() -> list[str]:
    found = subprocess.run(["bash", str(ROOT / "tests" / "lighthouse.sh")], capture_output=True, text=True, check=False)
    if not found.stdout.strip():
        pytest.skip(found.stderr.strip().splitlines()[-1] if found.stderr.strip() else "no Lighthouse")
    return found.stdout.split()


def audit(command: list[str], url: str, form_factor: str, out) -> dict:
    """Lighthouse's report of `url` as a phone ("mobile") or a desktop, in the headless Chromium the tests use."""
    preset = ["--preset=desktop"] if form_factor == "desktop" else []
    subprocess.run(
        [*command, url, "--output=json", f"--output-path={out}", "--quiet", *preset,
         f"--only-categories={','.join(JUDGED)}", "--chrome-flags=--headless=new --no-sandbox"],
        env={**os.environ, "CHROME_PATH": CHROMIUM or ""}, check=True, timeout=300,
    )  # fmt: skip
    return json.loads(out.read_text(encoding="utf-8"))


def failing(report: dict, category: str) -> list[str]:
    """The audits of `category` that cost it points: id, score and Lighthouse's own title."""
    audits = report["audits"]
    return [
        f"{ref['id']} ({audits[ref['id']]['score']}): {audits[ref['id']]['title']}"
        for ref in report["categories"][category]["auditRefs"]
        if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1
    ]


@pytest.fixture(scope="module")
def audits(sample_app, tmp_path_factory):
    """Every audit, two at a time (each mostly waits on its own Chromium's page), each test reading its own:
    {(path, form factor): its report, to come}."""
    command, folder = lighthouse(), tmp_path_factory.mktemp("lighthouse")
    with ThreadPoolExecutor(2) as pool:
        yield {
            (path, form_factor): pool.submit(
                audit, command, sample_app.url + path, form_factor, folder / f"{i}-{form_factor}.json"
            )
            for i, path in enumerate(PAGES.values())
            for form_factor in FORM_FACTORS
        }


@pytest.mark.parametrize("form_factor", FORM_FACTORS)
@pytest.mark.parametrize("path", PAGES.values(), ids=PAGES.keys())
def test_accessibility_best_practices_and_seo_are_100(audits, path, form_factor):
    report = audits[(path, form_factor)].result()
    scores = {c: report["categories"][c]["score"] for c in JUDGED}
    assert scores == dict.fromkeys(JUDGED, 1), {c: failing(report, c) for c in JUDGED if scores[c] != 1}
