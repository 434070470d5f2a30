"""The layering the folder shows: sources → queries → web. Each layer imports only the ones before it,
and only the web layer knows about Gradio, plotly or HTML."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

LAYERS = ("domain", "sources", "queries", "web")
WEB_ONLY = ("gradio", "gradio_client", "plotly", "markupsafe", "html")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def modules_of(layer: str) -> list[Path]:
    return sorted((ROOT / "components" / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS[:3])
def test_the_data_side_never_imports_the_web_side(layer):
    later = [f"components.{name}" for name in LAYERS[LAYERS.index(layer) + 1 :]]
    found = {
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules_of(layer)
        for name in imported_modules(path)
        if name.split(".")[0] in WEB_ONLY or any(name == m or name.startswith(m + ".") for m in later)
    }
    assert not found, sorted(found)


def test_every_layer_has_modules_and_nothing_sits_loose():
    assert all(modules_of(layer) for layer in LAYERS)
    loose = [p.name for p in (ROOT / "components").glob("*.py") if p.name != "__init__.py"]
    assert loose == []


def test_the_refresh_engine_knows_no_particular_source():
    """`refresh.py` is the generic engine: the sources build on it, never the other way round."""
    tree = ast.parse((ROOT / "components" / "sources" / "refresh.py").read_text(encoding="utf-8"))
    ours = {
        f"{node.module}.{alias.name}" if node.module == "components.sources" else node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("components")
        for alias in node.names
    }
    assert ours <= {"components.sources.errors", "components.sources.hub_log"}, sorted(ours)


def test_answer_shapes_are_declared_in_the_layer_that_builds_them():
    """The endpoints' answer types live in queries (`answers.py`), not in the web layer that serves them."""
    assert (ROOT / "components" / "queries" / "answers.py").is_file()
    assert not (ROOT / "components" / "web" / "answers.py").exists()
