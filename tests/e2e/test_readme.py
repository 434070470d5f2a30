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


def _ci_gate() -> str:
    block = next(b for b in python_blocks(section("Use it from code")) if "sys.exit" in b)
    assert 'NEURONX_CC, LIBRARY_VERSION = "Qwen/Qwen3-0.6B", "", ""' in block
    return block


def test_the_ci_gate_fails_non_zero_on_a_stack_that_is_not_in_the_data(sample_app):
    """The gate must never read a PASS from a stack it did not ask about."""
    import subprocess
    import sys

    for asked in ('"2.99.0", "9.9"', '"", "9.9"', '"2.99.0", ""'):
        code = _ci_gate().replace(DEFAULT_URL, sample_app.url)
        code = code.replace('NEURONX_CC, LIBRARY_VERSION = "Qwen/Qwen3-0.6B", "", ""',
                            f'NEURONX_CC, LIBRARY_VERSION = "Qwen/Qwen3-0.6B", {asked}')  # fmt: skip
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert done.returncode != 0, (asked, done.stdout)
        assert "No tested stack matches" in done.stderr and "passes" not in done.stdout
    newest = subprocess.run(
        [sys.executable, "-c", _ci_gate().replace(DEFAULT_URL, sample_app.url)], capture_output=True, text=True
    )
    assert newest.returncode == 0 and "passes on neuronx-cc" in newest.stdout


def test_the_compare_example_names_both_sides_of_each_stack(sample_app):
    block = next(b for b in python_blocks(section("Use it from code")) if "/compare" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.replace(DEFAULT_URL, sample_app.url), "README.md", "exec"), {"__name__": "__readme__"})
    first = next(line for line in out.getvalue().splitlines() if "→" in line)
    assert re.fullmatch(r"neuronx-cc \S+ \+ \S+ \S+ → neuronx-cc \S+ \+ \S+ \S+", first), first
    assert first.split(" → ")[0] != first.split(" → ")[1]


def test_the_curl_example_sends_every_argument_and_gets_the_answer(sample_app):
    import shutil
    import subprocess

    assert shutil.which("curl"), "the curl example needs curl"
    block = re.search(r"```bash\n(URL=.*?)```", section("Use it from code"), re.S).group(1)
    script = block.replace(DEFAULT_URL, sample_app.url)
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "event: complete" in done.stdout
    assert re.search(r'"model_id": ?"Qwen/Qwen3-0.6B"', done.stdout) and re.search(r'"result": ?"PASS"', done.stdout)
