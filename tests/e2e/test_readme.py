"""The README's and docs/' promises: every code example runs against a launched app, the commands are the real
ones, the README stays short, and every document the README links is there."""

from __future__ import annotations

import contextlib
import io
import re

from tests.helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
USING = (ROOT / "docs" / "using-from-code.md").read_text(encoding="utf-8")
DEFAULT_URL = "http://127.0.0.1:7860"
MAX_README_LINES = 250  # after the front matter: what a newcomer reads in minutes


def docs() -> dict[str, str]:
    """Every document under docs/, by its name."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}


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


def test_the_readme_is_short_and_links_what_it_left_out():
    body = README.split("---\n", 2)[2]
    assert len(body.splitlines()) <= MAX_README_LINES
    assert not python_blocks(README)  # examples live in docs/, where they are run below
    for name in ("using-from-code.md", "data.md", "deploying.md", "limits.md"):
        assert f"(docs/{name}" in README and (ROOT / "docs" / name).is_file(), name


PUBLIC_DATASET = "hf://datasets/aws-neuron/torch-neuronx-model-support/data"


def test_every_python_example_in_the_docs_runs(sample_app):
    ran = 0
    for name, text in docs().items():
        for block in python_blocks(text):
            # the app's address becomes the running app's; the public dataset, the bundled sample (a real read
            # of the same files: no network here)
            code = block.replace(DEFAULT_URL, sample_app.url).replace(PUBLIC_DATASET, str(ROOT / "data" / "sample"))
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"docs/{name}", "exec"), {"__name__": "__readme__"})
            ran += 1
    assert ran >= 7 and len(python_blocks(USING)) >= 4


def _ci_gate() -> str:
    block = next(b for b in python_blocks(USING) if "sys.exit" in b)
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
    block = next(b for b in python_blocks(USING) if "/compare" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(
            compile(block.replace(DEFAULT_URL, sample_app.url), "docs/using-from-code.md", "exec"),
            {"__name__": "__readme__"},
        )
    first = next(line for line in out.getvalue().splitlines() if "→" in line)
    assert re.fullmatch(r"neuronx-cc \S+ \+ \S+ \S+ → neuronx-cc \S+ \+ \S+ \S+", first), first
    assert first.split(" → ")[0] != first.split(" → ")[1]


def test_the_curl_example_sends_every_argument_and_gets_the_answer(sample_app):
    import shutil
    import subprocess

    assert shutil.which("curl"), "the curl example needs curl"
    block = re.search(r"```bash\n(URL=.*?)```", USING, re.S).group(1)
    script = block.replace(DEFAULT_URL, sample_app.url)
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "event: complete" in done.stdout
    assert re.search(r'"model_id": ?"Qwen/Qwen3-0.6B"', done.stdout) and re.search(r'"result": ?"PASS"', done.stdout)
