"""The layering the folder shows: runtime → domain → sources → queries → web. Each layer imports only the ones before it,
and only the web layer knows about Gradio, plotly or HTML. Inside the web layer, two halves: only `web/gradio/` (and
`app.py`) imports Gradio or reads its files, and only the modules in `PRIVATE_REACH` reach Gradio's private parts;
the HTTP half's folders import in one direction (`WEB_ORDER`)."""

from __future__ import annotations

import ast
import importlib
import types
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
    """`refresh.py` is the generic engine: the sources build on it, never the other way round. Of its own layer it
    imports only the errors and the Hub's log; below it, the runtime (the settings table, which every layer reads)."""
    tree = ast.parse((ROOT / "components" / "sources" / "refresh.py").read_text(encoding="utf-8"))
    ours = {
        f"{node.module}.{alias.name}" if node.module in ("components.sources", "components.runtime") else node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("components")
        for alias in node.names
    }
    allowed = {"components.sources.errors", "components.sources.hub_log", "components.runtime.settings"}
    assert ours <= allowed, sorted(ours - allowed)


def test_answer_shapes_are_declared_in_the_layer_that_builds_them():
    """The endpoints' answer types live in queries (`answers.py`), not in the web layer that serves them."""
    assert (ROOT / "components" / "queries" / "answers.py").is_file()
    assert not (ROOT / "components" / "web" / "answers.py").exists()


PATCHED = ("gradio", "gradio_client", "uvicorn", "starlette", "fastapi")
GRADIO_HALF = ROOT / "components" / "web" / "gradio"
PATCHES = GRADIO_HALF / "patches"


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


GRADIO = ("gradio", "gradio_client")
# Gradio's documented API: the package itself (`gr.Blocks`, `gr.api`, `gr.Error`, `gr.mount_gradio_app`, ...),
# `gr.themes`, and gradio_client's `Client`. Any other module of theirs is private (`gradio.routes`, `.queueing`,
# `.state_holder`, `.utils`, `.route_utils`, `.mcp`, `.blocks`, the templates, `gradio_client.utils`, ...).
PUBLIC_MODULES = {"gradio", "gradio.themes", "gradio_client"}
# What names Gradio's page template (a private part) in a module that reads Gradio's files: its file and the
# filter it writes the config with. The frontend's built scripts and stylesheets, which Gradio serves to
# everyone, are not private.
TEMPLATE_MARKERS = ("index.html", "toorjson")
# Functions that, given a package's name, read its files, metadata or modules.
READS_A_PACKAGE = {"files", "version", "metadata", "distribution", "find_spec", "import_module", "__import__"}
# The only modules that reach Gradio's private parts (docs/architecture.md lists each, and what is lost without it):
# the four patches, the look at the queue and the page-config read.
PRIVATE_REACH = (
    "components/web/gradio/patches/build_once.py",
    "components/web/gradio/patches/mcp_json.py",
    "components/web/gradio/patches/sessions.py",
    "components/web/gradio/patches/unread.py",
    "components/web/gradio/queue_look.py",
    "components/web/gradio/page_config.py",
)


def _is_gradio(module: str) -> bool:
    return module.split(".")[0] in GRADIO


def gradio_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """Where `tree` imports Gradio, or names its package to a function that reads a package's files."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, f"import {a.name}") for a in node.names if _is_gradio(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and _is_gradio(node.module):
            found.append((node.lineno, f"from {node.module} import ..."))
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            named = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in READS_A_PACKAGE and any(_is_gradio(n) for n in named):
                found.append((node.lineno, f"{name}({named[0]!r})"))
    return found


def _private_module(module: str) -> bool:
    return _is_gradio(module) and module not in PUBLIC_MODULES


def _private_name(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_reaches(tree: ast.AST) -> list[tuple[int, str]]:
    """Where `tree` reaches a private part of Gradio: imports one of its private modules; reads or writes an
    attribute whose name starts with `_` on anything but its own object (`self`, `cls`), directly or through
    getattr/setattr/hasattr/delattr; or sets an attribute on a Gradio object (a name imported from Gradio, made
    by calling one, opened with `with`, or a parameter annotated with a Gradio type)."""
    found: list[tuple[int, str]] = []
    theirs: set[str] = set()  # names bound to Gradio's modules, classes and functions
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if _private_module(a.name):
                    found.append((node.lineno, f"import {a.name}"))
                if _is_gradio(a.name):
                    theirs.add(a.asname or a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level and _is_gradio(node.module):
            for a in node.names:
                submodule = f"{node.module}.{a.name}"
                is_module = isinstance(getattr(importlib.import_module(node.module), a.name, None), types.ModuleType)
                if _private_module(node.module) or (is_module and _private_module(submodule)):
                    found.append((node.lineno, f"from {node.module} import {a.name}"))
                theirs.add(a.asname or a.name)

    def root(node: ast.expr) -> str | None:
        while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
            node = node.func if isinstance(node, ast.Call) else node.value
        return node.id if isinstance(node, ast.Name) else None

    objects = set(theirs)  # and the Gradio objects the code makes or is given
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and root(node.value) in theirs:
            objects.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif (
            isinstance(node, ast.withitem)
            and isinstance(node.optional_vars, ast.Name)
            and root(node.context_expr) in theirs
        ):
            objects.add(node.optional_vars.id)
        elif isinstance(node, ast.arg) and any(
            isinstance(n, ast.Name) and n.id in theirs for n in ast.walk(node.annotation or ast.Pass())
        ):
            objects.add(node.arg)
    own = {"self", "cls"}
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    if gradio_uses(tree) and any(marker in text for text in strings for marker in TEMPLATE_MARKERS):
        found.append((1, "reads Gradio's page template"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private_name(node.attr) and root(node.value) not in own:
            verb = "writes" if isinstance(node.ctx, (ast.Store, ast.Del)) else "reads"
            found.append((node.lineno, f"{verb} {ast.unparse(node)}"))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) and root(node) in objects:
            found.append((node.lineno, f"sets {ast.unparse(node)}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            name, target = node.func.id, node.args[0]
            attr = node.args[1] if len(node.args) > 1 else None
            by_name = isinstance(attr, ast.Constant) and isinstance(attr.value, str)
            if name in ("getattr", "setattr", "hasattr", "delattr") and by_name and _private_name(attr.value):
                if root(target) not in own:
                    found.append((node.lineno, f"{name}({ast.unparse(target)}, {attr.value!r})"))
            elif name in ("setattr", "delattr") and root(target) in objects:
                found.append((node.lineno, f"{name}({ast.unparse(target)}, ...)"))
    return found


def web_code(root: Path = ROOT) -> list[Path]:
    return [root / "app.py", *sorted((root / "components").rglob("*.py"))]


def gradio_outside_its_half(root: Path = ROOT) -> list[str]:
    half = root / "components" / "web" / "gradio"
    return [
        f"{path.relative_to(root)}:{line}: {what}"
        for path in web_code(root)
        if path.name != "app.py" and half not in path.parents
        for line, what in gradio_uses(ast.parse(path.read_text(encoding="utf-8")))
    ]


def private_reach_outside_the_list(root: Path = ROOT) -> list[str]:
    """Every reach outside `PRIVATE_REACH` in the web layer and app.py (the data side never imports Gradio, so it
    holds none of its objects; its own private names are its own business)."""
    return [
        f"{path.relative_to(root)}:{line}: {what}"
        for path in web_code(root)
        if path.name == "app.py" or (root / "components" / "web") in path.parents
        if path.relative_to(root).as_posix() not in PRIVATE_REACH
        for line, what in private_reaches(ast.parse(path.read_text(encoding="utf-8")))
    ]


def test_only_the_gradio_half_and_app_py_import_gradio_or_read_its_files():
    assert gradio_outside_its_half() == []


def test_only_the_listed_modules_reach_gradios_private_parts():
    assert private_reach_outside_the_list() == []


def test_each_listed_module_does_reach_them_and_the_list_is_short_and_documented():
    """The list holds no module that no longer needs to be on it, at most six, each named in the architecture page."""
    assert len(PRIVATE_REACH) <= 6
    for name in PRIVATE_REACH:
        assert private_reaches(ast.parse((ROOT / name).read_text(encoding="utf-8"))), name
    listed = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in listed for name in PRIVATE_REACH), [n for n in PRIVATE_REACH if f"`{n}`" not in listed]


PLANTED = {
    "import gradio as gr": "import gradio",
    "import importlib.resources\nimportlib.resources.files('gradio')": "files('gradio')",
    "import importlib.metadata\nimportlib.metadata.version('gradio')": "version('gradio')",
    "from gradio_client import Client": "from gradio_client import ...",
}
PLANTED_PRIVATE = {
    "def look(blocks):\n    return getattr(blocks, '_queue', None)": "getattr(blocks, '_queue')",
    "def look(blocks):\n    return blocks._queue": "reads blocks._queue",
    "import gradio as gr\ndef build(demo: gr.Blocks):\n    demo.state_session_capacity = 1": "sets demo.state_session_capacity",
    "import gradio as gr\nwith gr.Blocks() as demo:\n    pass\ndemo.app_id = 1": "sets demo.app_id",
    "from gradio.utils import get_function_description": "from gradio.utils import get_function_description",
    "from gradio import state_holder": "from gradio import state_holder",
    "from gradio_client import utils": "from gradio_client import utils",
    "def later(x):\n    setattr(x, '_private', 1)": "setattr(x, '_private')",
    "import importlib.resources\nimportlib.resources.files('gradio').joinpath('templates', 'frontend', 'index.html')": (
        "reads Gradio's page template"
    ),
}


@pytest.mark.parametrize(("code", "seen"), PLANTED.items())
def test_a_planted_gradio_use_in_the_http_half_is_found(tmp_path, code, seen):
    (tmp_path / "app.py").write_text("")
    planted = tmp_path / "components" / "web" / "routes" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(code.replace("\\n", "\n"))
    inside = tmp_path / "components" / "web" / "gradio" / "fine.py"
    inside.parent.mkdir(parents=True)
    inside.write_text(code.replace("\\n", "\n"))  # the same code in the Gradio half is allowed
    found = gradio_outside_its_half(tmp_path)
    assert len(found) == 1 and found[0].startswith("components/web/routes/planted.py:") and seen in found[0], found


@pytest.mark.parametrize(("code", "seen"), PLANTED_PRIVATE.items())
def test_a_planted_private_reach_outside_the_list_is_found(tmp_path, code, seen):
    (tmp_path / "app.py").write_text("")
    planted = tmp_path / "components" / "web" / "gradio" / "pages" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(code.replace("\\n", "\n"))
    found = private_reach_outside_the_list(tmp_path)
    name = seen.replace("'", "").replace("(", " ").replace(",", "").split()
    assert found and all(part in found[0].replace("'", "").replace("(", " ").replace(",", "") for part in name), found


def test_own_private_names_and_documented_settings_are_not_reaches():
    code = "class A:\n    def f(self):\n        self._x = 1\n        return getattr(self, '_x')\n"
    code += "import gradio as gr\ndef page():\n    gr.api(len, api_name='n')\n    return gr.Blocks(title='t').queue()\n"
    assert private_reaches(ast.parse(code)) == []


# The web layer's parts, lowest first: a module imports its own part or one below (routes/ and middleware/, side by
# side, never each other); the small modules at the top of web/ (asgi, clients, caches, deep_links, ...) are the floor.
WEB_ORDER = (("",), ("html",), ("figures",), ("routes", "middleware"), ("server",), ("gradio",))


def web_part(module: str) -> str | None:
    """`components.web.routes.api_v1` -> "routes"; `components.web.server` -> "server"; a small module at the top
    of web/ -> ""; None outside the web layer."""
    parts = module.split(".")
    if parts[:2] != ["components", "web"] or len(parts) < 3:
        return None
    if parts[2] in ("html", "figures", "routes", "middleware", "server", "gradio"):
        return parts[2]
    return ""


def rank(part: str) -> int:
    return next(i for i, names in enumerate(WEB_ORDER) if part in names)


def module_name(path: Path, root: Path = ROOT) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def imports_of(path: Path) -> set[str]:
    """What `path` imports, each `from X import y` also as `X.y` (a submodule, where it is one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def web_imports_against_the_order(root: Path = ROOT) -> list[str]:
    found = []
    for path in sorted((root / "components" / "web").rglob("*.py")):
        mine = web_part(module_name(path, root))
        for name in sorted(imports_of(path)):
            theirs = web_part(name)
            if mine is None or theirs is None or theirs == mine:
                continue
            if rank(theirs) >= rank(mine):
                found.append(f"{path.relative_to(root)} ({mine or 'web/'}) imports {name} ({theirs or 'web/'})")
    return found


def test_the_web_layers_parts_import_in_one_direction():
    assert web_imports_against_the_order() == []


def test_a_planted_import_against_the_order_is_found(tmp_path):
    for name, code in {
        "components/web/html/bad.py": "from components.web.routes import badge_feed\n",
        "components/web/middleware/bad.py": "from components.web.routes import webhook\n",
        "components/web/server.py": "from components.web.gradio import mount\n",
        "components/web/routes/fine.py": "from components.web.html import markup\nfrom components.web.routes import api_table\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code)
    found = web_imports_against_the_order(tmp_path)
    assert sorted({line.split(" ")[0] for line in found}) == [
        "components/web/html/bad.py",
        "components/web/middleware/bad.py",
        "components/web/server.py",
    ], found


def import_loops(root: Path = ROOT) -> list[str]:
    """Each loop of imports among the modules of components/ under `root`, as `a -> b -> a`."""
    paths = {module_name(p, root): p for p in sorted((root / "components").rglob("*.py"))}
    graph = {m: {n for n in imports_of(p) if n in paths and n != m} for m, p in paths.items()}
    state: dict[str, int] = {}
    loops = []

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for other in sorted(graph[module]):
            if state.get(other) == 1 and other in trail:
                loops.append(" -> ".join([*trail[trail.index(other) :], other]))
            elif other not in state:
                visit(other, [*trail, other])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return loops


def test_no_module_imports_itself_through_others():
    """No import cycle anywhere in components/ (a loop of two or more modules)."""
    assert import_loops() == []


def test_a_planted_loop_is_found(tmp_path):
    routes = tmp_path / "components" / "web" / "routes"
    routes.mkdir(parents=True)
    (routes / "api_v1.py").write_text("from components.web.routes import openapi\n")
    (routes / "openapi.py").write_text("from components.web.routes.api_v1 import HttpApi\n")
    assert import_loops(tmp_path) == [
        "components.web.routes.api_v1 -> components.web.routes.openapi -> components.web.routes.api_v1"
    ]
