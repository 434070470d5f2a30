"""tests/run.sh, the README's test command: Chromium found or installed, or the browser tests skipped, saying so."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

INSTALL_LINE = "sudo apt-get update && sudo apt-get install -y chromium fonts-dejavu-core"


def stub(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!/bin/bash\n{body}\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def machine(tmp_path):
    """A PATH holding only stand-ins for `id` and `apt-get` (which logs its calls and 'installs' chromium)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"

    def run(uid: int = 0, apt_works: bool = True, **env: str) -> subprocess.CompletedProcess:
        stub(bin_dir, "id", f'[ "$1" = -u ] && echo {uid}')
        install = (
            f"printf '#!/bin/bash\\n' > {bin_dir}/chromium; chmod +x {bin_dir}/chromium" if apt_works else "exit 100"
        )
        stub(bin_dir, "apt-get", f'echo "$*" >> {log}; [ "$1" = install ] && {{ {install}; }}; true')
        return subprocess.run(
            ["/bin/bash", str(ROOT / "tests" / "chromium.sh")],
            env={"PATH": str(bin_dir), **env}, capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip

    run.bin, run.log = bin_dir, log
    return run


def apt_calls(machine) -> list[str]:
    return machine.log.read_text().splitlines() if machine.log.exists() else []


def test_as_root_a_missing_chromium_is_installed_with_apt_get(machine):
    done = machine(uid=0)
    assert done.returncode == 0, done.stderr
    assert apt_calls(machine) == ["update -qq", "install -y -qq chromium fonts-dejavu-core"]
    assert done.stdout.strip() == str(machine.bin / "chromium")


def test_without_root_one_line_says_exactly_what_to_run(machine):
    done = machine(uid=1000)
    assert done.returncode == 0 and done.stdout == ""
    assert apt_calls(machine) == []
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(f"To run them: {INSTALL_LINE}") and "skipped" in lines[0]


def test_a_chromium_on_path_is_used_as_it_is(machine):
    stub(machine.bin, "chromium", "true")
    done = machine(uid=0)
    assert done.stdout.strip() == str(machine.bin / "chromium") and done.stderr == ""
    assert apt_calls(machine) == []


def test_a_failed_install_skips_the_browser_tests_but_fails_ci(machine):
    done = machine(uid=0, apt_works=False)
    assert done.returncode == 0 and done.stdout == "" and "skipped" in done.stderr
    done = machine(uid=0, apt_works=False, CI="true")
    assert done.returncode == 1 and "CI needs it" in done.stderr


def test_chromium_named_by_the_environment_is_never_installed(machine, tmp_path):
    done = machine(uid=0, CHROMIUM=str(tmp_path / "hidden" / "chromium"))
    assert done.returncode == 0 and done.stdout == "" and "skipped" in done.stderr
    assert apt_calls(machine) == []
    real = stub(tmp_path, "my-chromium", "true")
    assert machine(uid=0, CHROMIUM=str(real)).stdout.strip() == str(real)


def test_without_chromium_the_browser_tests_are_skipped_never_passed():
    files = ["tests/e2e/test_browser.py", "tests/e2e/test_visit_recording.py"]  # browser tests only, one by marker
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--collect-only", *files],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    ).stdout  # fmt: skip
    count = sum(1 for line in collected.splitlines() if "::test_" in line)
    assert count >= 8, collected[-2000:]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", *files],
        cwd=ROOT, env={**os.environ, "CHROMIUM": ""}, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    out = done.stdout
    assert done.returncode == 0, out[-3000:]
    summary = [line for line in out.splitlines() if line.startswith("Chromium not found")]
    assert summary == [f"Chromium not found, so {count} browser tests were skipped. To run them: {INSTALL_LINE}"]
    assert " passed" not in out and " failed" not in out and " error" not in out
    skipped = [line for line in out.splitlines() if line.startswith("SKIPPED")]  # "SKIPPED [7] file: reason"
    assert sum(int(line.split("[")[1].split("]")[0]) for line in skipped) == count
    assert all("needs Chromium, which is not installed" in line for line in skipped)
    assert re.search(rf"^{count} skipped in [\d.]+s$", out, re.M), out[-500:]


def test_the_script_sets_up_lints_and_tests():
    script = (ROOT / "tests" / "run.sh").read_text()
    for step in ("-m venv", "-r requirements-dev.txt", "tests/chromium.sh", "ruff\" check .", "ruff\" format --check .",
                 "-m pytest"):  # fmt: skip
        assert step in script, step


def run_nginx_sh(bin_dir: Path, uid: int, apt_works: bool, **env: str) -> subprocess.CompletedProcess:
    """tests/nginx.sh on a PATH of stand-ins (`id`, an `apt-get` that 'installs' nginx into it)."""
    stub(bin_dir, "id", f'[ "$1" = -u ] && echo {uid}')
    install = f"printf '#!/bin/bash\\n' > {bin_dir}/nginx; chmod +x {bin_dir}/nginx" if apt_works else "exit 100"
    stub(bin_dir, "apt-get", f'[ "$1" = install ] && {{ {install}; }}; true')
    return subprocess.run(
        ["/bin/bash", str(ROOT / "tests" / "nginx.sh")],
        env={"PATH": str(bin_dir), "SBIN": str(bin_dir / "none"), **env},
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip


def test_nginx_is_installed_as_chromium_is_and_its_absence_fails_ci(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    done = run_nginx_sh(bin_dir, uid=1000, apt_works=True)
    assert done.returncode == 0 and done.stdout == "" and "apt-get install -y nginx" in done.stderr
    assert run_nginx_sh(bin_dir, uid=0, apt_works=False, CI="true").returncode == 1
    done = run_nginx_sh(bin_dir, uid=0, apt_works=True, CI="true")
    assert done.returncode == 0 and done.stdout.strip() == str(bin_dir / "nginx")
    assert "tests/nginx.sh" in (ROOT / "tests" / "run.sh").read_text()
