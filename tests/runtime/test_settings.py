"""The settings table (`components/runtime/settings.py`) is the one place a limit is declared: every module reads
its limits from it, no module declares one of its own, and `docs/limits.md` prints the same table."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from components.runtime import settings
from tests.helpers import ROOT

TABLE_START = "<!-- settings table: python -m components.runtime.settings --markdown -->"
TABLE_END = "<!-- end of the settings table -->"

# The rule: a module-level or class-level assignment in `app.py` or `components/` to an UPPER_CASE name (or a
# tuple of them) whose value is a number expression declares a limit, and belongs in the table; the module then
# reads `settings.NAME.value` instead. A number expression is a number literal (`1024`, not `True`), arithmetic
# on at least one (`16 * KB`, `-1`), a tuple or list of them (`(256, 60.0)`), or a call given only them
# (`timedelta(hours=24)`, `cache_control.shared(600)`). A number inside anything else (an index `parents[2]`, a
# dict, a call that is also given a name) is not a declaration. So is a default written where it is taken: a
# function's default (positional or keyword-only, `def lookup(..., wait=3.0)`, `backoff=Backoff(15, 600)`) and a
# class field's default of any name (`first: float = 15.0` in a dataclass), keyed `module qualname.name`; a
# default of 0 is not one (it starts a count or a recursion, or asks for no wait). These numbers bound nothing,
# each with why:
NOT_LIMITS = {
    "components/runtime/settings.py": "the table itself",
    "components/runtime/memory.py M_ARENA_MAX": "glibc's mallopt parameter number, not a value",
    "components/web/figures/card.py WIDTH": "the card's size in pixels: Open Graph's 1200 x 630",
    "components/web/figures/card.py HEIGHT": "the same",
    "components/web/figures/card.py MARGIN": "layout",
    "components/web/figures/card.py BACKGROUND": "a colour",
    "components/web/figures/card.py TEXT": "a colour",
    "components/web/figures/card.py SUBDUED": "a colour",
    "components/web/figures/card.py OTHER_COLOUR": "a colour",
    "components/web/figures/card.py SAMPLE_COLOUR": "a colour",
    "components/web/figures/stacks.py CORE_TICKS": "an axis's ticks",
    "components/web/metrics.py LATENCY_BUCKETS": "a histogram's buckets (Prometheus' defaults and a few more)",
    "components/queries/sizes.py BILLION": "a unit",
    "components/queries/architectures.py HEADLINE_TOP": "part of the headline's definition the page states",
    "components/queries/expectation.py SIZE_RATIO": "a rule of the expectation, stated with its verdict",
    "components/queries/expectation.py MIN_TESTED": "a rule of the expectation, stated with its verdict",
    "components/queries/expectation.py RUNS_SHARE": "a rule of the expectation, stated with its verdict",
    "components/queries/expectation.py FAILS_SHARE": "a rule of the expectation, stated with its verdict",
    "components/queries/causes.py LONG_QUOTED": "how a quoted name is told from quoted data, not a bound",
    "components/queries/views.py _VALUE_BYTES": "an estimate of an answer's size, not a bound",
    "components/queries/views.py _ANSWER_BYTES": "an estimate of an answer's size, not a bound",
    "components/sources/memo.py _DEPTH": "how deep an answer is weighed: an estimate, not a bound",
    "components/sources/memo.py _SAMPLE": "how many items of a long answer are weighed: an estimate, not a bound",
    "components/sources/schema.py _DATETIME_MS": "the range Python's datetime can hold, a fact",
    "components/web/figures/stacks.py LOG_TICKS": "an axis's ticks",
    "components/queries/compare.py Thresholds.wall_change": "a rule of the comparison, stated with it (`describe()`)",
    "components/queries/compare.py Thresholds.wall_min_s": "a rule of the comparison, stated with it (`describe()`)",
    "components/queries/compare.py Thresholds.memory_change": "a rule of the comparison, stated with it",
    "components/queries/compare.py Thresholds.memory_min_gb": "a rule of the comparison, stated with it",
    "components/queries/architectures.py closest_by_size.limit": "a rule of the evidence (up to three tested models "
    "nearest in size, its docstring says), not a bound on what a caller asks",
    "components/web/gradio/mount.py build.port": "Gradio's own default port: an address",
    "components/sources/refresh.py RefreshingStore.__init__.refresh_seconds": "the engine's default, in effect for no "
    "source: the dataset and rankings stores pass theirs from the table; the records store reads only when asked, "
    "so its period only caps the back-off, which RETRY_CAP caps first",
    "components/sources/refresh.py RefreshingStore.__init__.read_timeout": "the engine's default, in effect for no "
    "source: each store passes its own from the table (the records store's from RECORD_LOOKUP_TIMEOUT)",
}


def code_files() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "components").rglob("*.py"))]


def is_number(node: ast.AST) -> bool:
    """Whether `node` is a number expression (the rule above)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return is_number(node.operand)
    if isinstance(node, ast.BinOp):
        sides = (node.left, node.right)
        return any(is_number(n) for n in sides) and all(is_number(n) or isinstance(n, ast.Name) for n in sides)
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(is_number(n) for n in node.elts)
    if isinstance(node, ast.Call):
        given = [*node.args, *(k.value for k in node.keywords)]
        return bool(given) and all(is_number(n) for n in given)
    return False


def declared_numbers(path: Path) -> list[tuple[str, int]]:
    """(name, line) of each module- or class-level UPPER_CASE assignment in `path` whose value holds a number."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [tree.body, *(n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef))]
    found = []
    for body in bodies:
        for node in body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            for target in targets:
                pairs = [(target, value)]
                if isinstance(target, ast.Tuple):  # A, B = 10, 10: each name with its own value
                    same = isinstance(value, ast.Tuple) and len(value.elts) == len(target.elts)
                    pairs = list(zip(target.elts, value.elts if same else [value] * len(target.elts)))
                found += [
                    (name.id, node.lineno)
                    for name, given in pairs
                    if isinstance(name, ast.Name) and name.id.isupper() and is_number(given)
                ]
    return sorted(found, key=lambda f: f[1])


def _is_default_limit(node: ast.AST | None) -> bool:
    return node is not None and is_number(node) and not (isinstance(node, ast.Constant) and node.value == 0)


def defaulted_numbers(path: Path) -> list[tuple[str, int]]:
    """(qualname.name, line) of each function default and class field default in `path` that holds a number."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = getattr(child, "name", "")
            inner = (
                f"{scope}{name}." if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else scope
            )
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = child.args
                positional = [*args.posonlyargs, *args.args]
                pairs = [*zip(positional[len(positional) - len(args.defaults) :], args.defaults),
                         *zip(args.kwonlyargs, args.kw_defaults)]  # fmt: skip
                found.extend((f"{inner}{arg.arg}", arg.lineno) for arg, given in pairs if _is_default_limit(given))
            target = child.target if isinstance(node, ast.ClassDef) and isinstance(child, ast.AnnAssign) else None
            if isinstance(target, ast.Name) and not target.id.isupper() and _is_default_limit(child.value):
                found.append((f"{scope}{target.id}", child.lineno))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return sorted(found, key=lambda f: f[1])


def limits_outside_the_table(files: list[Path]) -> list[str]:
    found = []
    for path in files:
        where = path.relative_to(ROOT).as_posix()
        if where in NOT_LIMITS:
            continue
        declared = [*declared_numbers(path), *defaulted_numbers(path)]
        found += [f"{where}:{line} {name}" for name, line in declared if f"{where} {name}" not in NOT_LIMITS]
    return found


def test_no_module_declares_a_limit_of_its_own():
    assert limits_outside_the_table(code_files()) == []


def test_the_scan_finds_a_limit_declared_in_a_module(tmp_path):
    """The check above can fail: it sees a constant, an expression, a tuple, a call and a class attribute."""
    module = tmp_path / "components" / "web" / "routes" / "made_up.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "from datetime import timedelta\nfrom components.runtime import settings\n"
        "MAX_QUERY = 2048\nMAX_BODY = 4 * 1024 * 1024\nLOADED = (256, 60.0)\nSTALE = timedelta(hours=24)\n"
        "class Kept:\n    SIZE = 16\n"
        "TASK, TOP = 'text-generation', 100\n"
        "READ = settings.REQUEST_BODY.value\nPATH = '/x'\nFLAG = True\nROOT = Path(__file__).parents[2]\n"
        "ORDER = {'PASS': 0}\nCUTS = RefusalLog(shown=0, what=NAME)\nPAGE = shared(READ, browser=0)\n",
        encoding="utf-8",
    )
    found = [(name, line) for name, line in declared_numbers(module)]
    assert found == [("MAX_QUERY", 3), ("MAX_BODY", 4), ("LOADED", 5), ("STALE", 6), ("SIZE", 8), ("TOP", 9)]


def test_the_scan_finds_a_limit_given_as_a_default(tmp_path):
    """Defaults are declarations too: a function's, positional or keyword-only, and a class field's; a default of
    0, a name's or a setting's is not."""
    module = tmp_path / "components" / "sources" / "made_up.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "from components.runtime import settings\n"
        "def read(path, timeout=8.0, *, backoff=Backoff(15, 600), depth=0, every=settings.DATA_CHECK.value):\n"
        "    return lambda wait=2.5: wait\n"
        "class Backoff:\n    first: float = 15.0\n    cap: float = 10 * 60\n    failures: int = 0\n"
        "    def delay(self, failures: int, period: float = 3600.0, name: str = 'x') -> float:\n        return 0.0\n",
        encoding="utf-8",
    )
    assert defaulted_numbers(module) == [
        ("read.timeout", 2), ("read.backoff", 2), ("read.wait", 3), ("Backoff.first", 5), ("Backoff.cap", 6),
        ("Backoff.delay.period", 8),
    ]  # fmt: skip


def test_every_exception_is_still_there():
    """An entry of NOT_LIMITS that no longer matches a declaration is dropped, so the list stays true."""
    declared = {
        f"{path.relative_to(ROOT).as_posix()} {name}"
        for path in code_files()
        for name, _ in [*declared_numbers(path), *defaulted_numbers(path)]
    }
    stale = [key for key in NOT_LIMITS if " " in key and key not in declared]
    assert stale == []


@pytest.mark.parametrize("name", settings.TABLE)
def test_each_setting_is_read_where_the_table_says(name):
    setting = settings.TABLE[name]
    module, _, local = setting.where.partition(" ")
    source = (ROOT / module).read_text(encoding="utf-8")
    assert f"settings.{name}.value" in source, f"{module} does not read settings.{name}"
    assert local.split(".")[-1] in source, f"{module} has no {local}"


def test_names_are_distinct_and_each_says_its_unit():
    values = list(settings.TABLE.values())
    assert len(set(settings.TABLE)) == len(values) >= 90
    assert all(isinstance(s.value, (int, float)) and s.value >= 0 and s.bounds and s.why for s in values)


def test_a_setting_shows_its_unit():
    assert settings.API_V1_QUERY.shown() == "8 KB"
    assert settings.PAGE_SCAN.shown() == "4 MB"
    assert settings.REQUEST_DEADLINE.shown() == "20 s"
    assert settings.CONNECTIONS.shown() == "8,192 connections"
    assert settings.ASSET_MIN_SIZE.shown() == "400 bytes"


def test_the_doc_prints_the_table():
    doc = (ROOT / "docs" / "limits.md").read_text(encoding="utf-8")
    assert TABLE_START in doc and TABLE_END in doc
    printed = doc.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip("\n") + "\n"
    assert printed == settings.markdown(), "run: python -m components.runtime.settings --markdown"


def test_the_command_prints_the_table():
    printed = subprocess.run(
        [sys.executable, "-m", "components.runtime.settings", "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert printed == settings.markdown()


def test_every_env_setting_is_documented_for_deployers():
    deploying = (ROOT / "docs" / "deploying.md").read_text(encoding="utf-8")
    envs = [s.env for s in settings.TABLE.values() if s.env]
    assert sorted(envs) == ["DATA_CHECK_SECONDS", "MAX_CONNECTIONS", "MAX_PEER_CONNECTIONS", "WEBHOOK_DEBOUNCE_SECONDS"]
    assert all(f"`{env}`" in deploying for env in envs)
