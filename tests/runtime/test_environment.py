"""The environment is read in one module (`components/runtime/environment.py`): every variable declared there with
its default, its meaning and one parser for its type; no other module touches `os.environ`; `docs/limits.md`
prints the same table."""

from __future__ import annotations

import ast
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from components.runtime import environment, settings
from tests.helpers import ROOT

TABLE_START = "<!-- environment table: python -m components.runtime.environment --markdown -->"
TABLE_END = "<!-- end of the environment table -->"
THE_ONE_MODULE = "components/runtime/environment.py"
READS = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def environment_reads(path: Path) -> list[str]:
    """`line: what` for each touch of the environment in `path`: `os.environ`, `os.getenv` (and the rest of
    `READS`), however `os` was imported, and `from os import environ`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    os_names = {"os"} | {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name == "os"
    }
    found = []
    for node in ast.walk(tree):
        value = getattr(node, "value", None)
        if (
            isinstance(node, ast.Attribute)
            and node.attr in READS
            and isinstance(value, ast.Name)
            and value.id in os_names
        ):
            found.append(f"{node.lineno}: {value.id}.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"{node.lineno}: from os import {a.name}" for a in node.names if a.name in READS]
    return sorted(found, key=lambda f: int(f.partition(":")[0]))


def code_files() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "components").rglob("*.py"))]


def test_no_module_but_the_one_reads_the_environment():
    found = {
        path.relative_to(ROOT).as_posix(): reads
        for path in code_files()
        if path.relative_to(ROOT).as_posix() != THE_ONE_MODULE and (reads := environment_reads(path))
    }
    assert found == {}, "read the variable through components/runtime/environment.py"
    assert environment_reads(ROOT / THE_ONE_MODULE)  # the check sees the one module's own reads


def test_the_check_finds_a_planted_read(tmp_path):
    module = tmp_path / "planted.py"
    module.write_text(
        "import os\nimport os as system\nfrom os import environ, getenv, path\n"
        "A = os.environ.get('A')\nB = system.getenv('B')\nC = os.path.join('x')\n",
        encoding="utf-8",
    )
    assert environment_reads(module) == [
        "3: from os import environ", "3: from os import getenv", "4: os.environ", "5: system.getenv",
    ]  # fmt: skip


def test_each_variable_is_used_where_the_table_says():
    names = {value: name for name, value in vars(environment).items() if isinstance(value, environment.Variable)}
    for variable in environment.TABLE.values():
        for module in variable.where.split(", "):
            source = (ROOT / module).read_text(encoding="utf-8")
            read = "hf_constants" if variable.owner == "huggingface_hub" else f"environment.{names[variable]}"
            assert read in source, f"{module} does not use {variable.name}"


def test_a_setting_the_environment_overrides_has_its_variable_with_the_settings_value():
    overridden = {s.env: s for s in settings.TABLE.values() if s.env}
    assert overridden and all(environment.TABLE[name].default == s.value for name, s in overridden.items())


def test_each_parser_reads_its_type_and_a_bad_value_is_named_and_the_default_kept(caplog):
    env = {"MAX_CONNECTIONS": "100", "WEBHOOK_DEBOUNCE_SECONDS": "0", "METRICS": "Off", "GRADIO_ALLOWED_PATHS": "a, ,b"}
    assert environment.MAX_CONNECTIONS.get(env) == 100
    assert environment.WEBHOOK_DEBOUNCE_SECONDS.get(env) == 0.0
    assert environment.METRICS.get(env) is False and environment.METRICS.get({"METRICS": "yes"}) is True
    assert environment.GRADIO_ALLOWED_PATHS.get(env) == ("a", "b")
    assert environment.REPLICA.get({"REPLICA": "  r-1 "}) == "r-1" and environment.REPLICA.get({"REPLICA": " "}) == ""
    with caplog.at_level(logging.WARNING, logger="components.runtime.environment"):
        assert environment.MAX_CONNECTIONS.get({"MAX_CONNECTIONS": "-3"}) == settings.CONNECTIONS.value
        assert environment.WEBHOOK_DEBOUNCE_SECONDS.get({"WEBHOOK_DEBOUNCE_SECONDS": "7200"}) == 2.0
        assert environment.WEBHOOK_DEBOUNCE_SECONDS.get({"WEBHOOK_DEBOUNCE_SECONDS": "nan"}) == 2.0
        assert environment.METRICS.get({"METRICS": "maybe"}) is True
    assert caplog.messages == [
        "MAX_CONNECTIONS='-3' is not a positive whole number: 8,192 is kept",
        "WEBHOOK_DEBOUNCE_SECONDS='7200' is not a number of seconds from 0 to 3600: 2 s is kept",
        "WEBHOOK_DEBOUNCE_SECONDS='nan' is not a number of seconds from 0 to 3600: 2 s is kept",
        "METRICS='maybe' is not one of 1, true, yes, on, 0, false, no, off: on is kept",
    ]


def test_a_value_is_read_when_asked_for_not_at_import(monkeypatch):
    monkeypatch.setenv("REPLICA", "later")
    assert environment.REPLICA.get() == "later"


def test_a_default_is_handed_to_a_library_only_when_unset(monkeypatch):
    variable = environment.ANALYTICS_CACHE_FREQUENCY
    monkeypatch.delenv(variable.name, raising=False)
    variable.set_default()
    assert os.environ[variable.name] == str(settings.ANALYTICS_EVERY.value)
    monkeypatch.setenv(variable.name, "5")
    variable.set_default()
    assert variable.get() == 5


@pytest.mark.parametrize("name", environment.TABLE)
def test_each_variable_says_what_it_sets(name):
    variable = environment.TABLE[name]
    assert variable.name == name and variable.meaning and variable.shown() and variable.where


def test_the_doc_prints_the_table():
    doc = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    assert TABLE_START in doc and TABLE_END in doc
    printed = doc.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip("\n") + "\n"
    assert printed == environment.markdown(), "run: python -m components.runtime.environment --markdown"


def test_the_command_prints_the_table():
    printed = subprocess.run(
        [sys.executable, "-m", "components.runtime.environment", "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed == environment.markdown()
