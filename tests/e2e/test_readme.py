"""The README's promises: its code examples run against a launched app, its commands are the real ones."""

from __future__ import annotations

import contextlib
import io
import re

from tests.helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DEFAULT_URL = "http://127.0.0.1:7860"


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.S | re.M)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_readme_starts_with_the_space_front_matter():
    front = README.split("---")[1]
    assert "sdk: gradio" in front and "app_file: app.py" in front
    requirements = (ROOT / "requirements.txt").read_text()
    pinned = re.search(r"gradio(?:\[[^\]]*\])?==([\d.]+)", requirements).group(1)
    assert f"sdk_version: {pinned}" in front


def test_the_test_command_is_the_one_ci_runs():
    command = re.search(r"## Test it\n+```bash\n(.*?)\n```", README, re.S).group(1)
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert [line for line in ci if line and not line.startswith(("#", "set ", "cd "))] == [f"exec {command}"]


def test_every_use_it_from_code_example_runs(sample_app):
    blocks = python_blocks(section("Use it from code"))
    assert len(blocks) >= 4
    for block in blocks:
        code = block.replace(DEFAULT_URL, sample_app.url)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})
