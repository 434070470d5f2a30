"""The layering the folder shows: runtime → domain → sources → queries → web. Each layer imports only the ones before it,
and only the web layer knows about Gradio, plotly or HTML."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

LAYERS = ("runtime", "domain", "sources", "queries", "web")
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


@pytest.mark.parametrize("layer", LAYERS[:-1])
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


PATCHED = ("gradio", "gradio_client", "uvicorn", "starlette", "fastapi")
PATCHES = ROOT / "components" / "web" / "gradio" / "patches"


def assignments_to_their_code(path: Path) -> list[str]:
    """Each line of `path` that assigns to (or deletes, or `setattr`s) an attribute of a module, class or function
    imported from Gradio or the server under it, or writes `sys.modules`: what changes their behaviour for
    everyone."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    theirs: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            theirs.update((a.asname or a.name.split(".")[0]) for a in node.names if a.name.split(".")[0] in PATCHED)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PATCHED:
            theirs.update(a.asname or a.name for a in node.names)

    def root(node: ast.expr) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    def changes(target: ast.expr) -> bool:
        if isinstance(target, ast.Attribute):
            return root(target) in theirs
        if isinstance(target, ast.Subscript):  # sys.modules[...] = ...
            return ast.unparse(target.value) == "sys.modules"
        return isinstance(target, (ast.Tuple, ast.List)) and any(changes(t) for t in target.elts)

    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, ast.Delete) else [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            targets = [ast.Attribute(value=node.args[0], attr="?", ctx=ast.Store())] if node.args else []
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}" for t in targets if changes(t)]
    return found


def test_only_the_patches_folder_changes_gradio():
    """A change to Gradio's (or uvicorn's, Starlette's) own code lives in web/patches, guarded (guard.py)."""
    code = [ROOT / "app.py", *sorted((ROOT / "components").rglob("*.py")), *sorted((ROOT / "benchmarks").rglob("*.py"))]
    found = [line for path in code if PATCHES not in path.parents for line in assignments_to_their_code(path)]
    assert not found, found


def test_the_check_finds_the_patches_themselves():
    """The check above can fail: it sees the assignments the patches make."""
    found = [line for path in sorted(PATCHES.glob("*.py")) for line in assignments_to_their_code(path)]
    assert any("state_holder.SessionState = LeanSessionState" in line for line in found), found
    assert any("blocks.App = Deferred" in line for line in found), found
    assert any("mcp.GradioMCPServer.postprocess_output_data = postprocess_output_data" in line for line in found), found


def test_at_most_four_modules_patch_gradio():
    """A patch is kept only where no public interface reaches (docs/architecture.md lists each and what is
    lost when it stands down); everything else is the app's own code."""
    patches = sorted(p.stem for p in PATCHES.glob("*.py") if p.stem not in ("__init__", "guard"))
    assert len(patches) <= 4, patches
    listed = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"| `{name}` |" in listed for name in patches), patches
