"""Every file or folder the documentation names by path exists: a file that moves takes its mentions with it, or
this fails naming the line. The documentation is `docs/*.md`, `README.md`, `benchmarks/*.md` and the comments of
the requirements files; a path is named three ways:

- from the repository's root (`components/…`, `tests/…`, `docs/…`, `benchmarks/…`, `data/…`, `deploy/…`, `.ci/…`,
  `app.py`), backticked or not, in prose or in a table;
- by its bare name after its folder in the same line, as the tables list a folder's modules
  (`components/web/html/`: `markup.py`, `table.py`; `components/queries/views.py`, `details.py`);
- as a Markdown link, relative to the document (`[limits](limits.md#…)`, `(../benchmarks/results.md)`).

And a file named in backticks by the end of its path (`middleware/limits.py`, `refusals.py`) is the end of the path
of some file in the repository (`NOT_OURS`: the names that are not); and a name backticked right after a module
(`refusals.py` `McpBodyValidationMiddleware`, `server.py` `config()`, the tables' "where" column) is in that module.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.helpers import ROOT

ROOTS = r"(?:components|tests|docs|benchmarks|data|deploy|\.ci)/"
# A path from the root as the docs write it: not part of a longer path or URL (`web/pages/x.py` alone, or
# `github.com/.../docs/x`, is not one), without a trailing full stop.
NAMED_PATH = re.compile(rf"(?<![\w/.:-])({ROOTS}[\w./-]*[\w/]|app\.py\b)")
# Placeholders stand for many paths (`components/web/gradio/pages/<page>.py`, `tests/**/test_*.py`).
PLACEHOLDER = re.compile(r"[<>*{}]")
TICKED = re.compile(r"`([^`\s]+)`")
# A file's bare name (`markup.py`), read against the folder of the last backticked path before it in the line when
# that path is a folder or a file of the same kind (`tests/run.sh` … `requirements-dev.txt` is not one).
BARE_NAME = re.compile(r"[\w-]+\.(?:py|md|json|txt|sh|js|yaml|yml|toml|css)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A file named by the end of its path (`web/kept.py`, `refusals.py`), backticked.
PATH_END = re.compile(r"(?:[\w.-]+/)*[\w-]+\.(?:py|md|json|txt|sh|js|yaml|yml|toml|css|conf|png)")
NOT_OURS = {
    "run.py": "a tested model's script, as the dataset holds it",
    "config.json": "a Hub model's configuration file",
    "../shared/DESIGN.md": "the team's design document, beside the repository",
}


def documents(root: Path = ROOT) -> list[Path]:
    return [
        *sorted((root / "docs").glob("*.md")),
        root / "README.md",
        *sorted((root / "benchmarks").glob("*.md")),
        *sorted(root.glob("requirements*.txt")),
    ]


def named_paths(doc: Path, line: str, root: Path = ROOT) -> list[str]:
    """The paths from `root` that `line` of `doc` (a path from `root`) names: from the root, by a bare name after
    its folder (unless it is a file at the root, as `app.py`), or by a link; placeholders left out."""
    if doc.suffix == ".txt":
        line = line.partition("#")[2]  # a requirement's comment, not the requirement
    found = [
        path
        for path in NAMED_PATH.findall(line)
        if not PLACEHOLDER.search(line[line.index(path) : line.index(path) + len(path) + 2])
    ]
    folder, kind = None, ""
    for token in TICKED.findall(line):
        if "/" in token:
            folder = token[: token.rindex("/") + 1] if re.match(ROOTS, token) else None
            kind = "" if token.endswith("/") else Path(token).suffix
        elif (
            folder and BARE_NAME.fullmatch(token) and kind in ("", Path(token).suffix) and not (root / token).is_file()
        ):
            found.append(folder + token)
    for link in LINK.findall(line):
        if not re.match(r"[a-z]+:|#", link):
            found.append(Path(os.path.normpath(doc.parent / link.partition("#")[0])).as_posix())
    return found


def missing_paths(root: Path = ROOT) -> list[str]:
    """`doc:line: path` for each named path that does not exist under `root`."""
    found = []
    for doc in documents(root):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for path in named_paths(doc.relative_to(root), line, root):
                if not (root / path).exists():
                    found.append(f"{doc.relative_to(root)}:{number}: {path}")
    return found


def test_every_path_the_docs_name_exists():
    assert missing_paths() == []


def path_ends(root: Path = ROOT) -> set[str]:
    """Every end of every path in the repository: `components/web/asgi.py` gives `asgi.py` and `web/asgi.py` too."""
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    return {"/".join(parts[i:]) for path in listed.split() for parts in [path.split("/")] for i in range(len(parts))}


def unknown_path_ends(root: Path = ROOT) -> list[str]:
    """`doc:line: name` for each backticked file name or path end that no file of the repository ends with."""
    ends = path_ends(root)
    found = []
    for doc in documents(root):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for token in TICKED.findall(line):
                name = token.rstrip(":,")
                if PATH_END.fullmatch(name) and name not in ends and name not in NOT_OURS:
                    found.append(f"{doc.relative_to(root)}:{number}: {name}")
    return found


def test_every_file_the_docs_name_by_its_path_end_exists():
    assert unknown_path_ends() == []


# A module and the name in it the docs point at: `refusals.py` `McpBodyValidationMiddleware`, `server.py` `config()`.
MODULE_AND_NAME = re.compile(r"`((?:[\w.-]+/)*[\w-]+\.py)` `([A-Za-z_][\w.]*)(?:\(\))?`")


def names_not_in_their_module(root: Path = ROOT) -> list[str]:
    """`doc:line: module name` for each name the docs place in a module (every part of a dotted name) that none
    of the files ending with that path holds."""
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    found = []
    for doc in documents(root):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for module, name in MODULE_AND_NAME.findall(line):
                texts = [
                    (root / f).read_text(encoding="utf-8") for f in listed.split() if f"/{f}".endswith(f"/{module}")
                ]
                if texts and not any(all(re.search(rf"\b{part}\b", t) for part in name.split(".")) for t in texts):
                    found.append(f"{doc.relative_to(root)}:{number}: {module} {name}")
    return found


def test_every_name_the_docs_place_in_a_module_is_there():
    assert names_not_in_their_module() == []


def test_a_renamed_name_is_found(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / "components" / "web").mkdir(parents=True)
    (tmp_path / "components" / "web" / "refusals.py").write_text(
        "class McpBodyValidationMiddleware:\n    def why(self): ...\n"
    )
    (tmp_path / "README.md").write_text(
        "| MCP bodies | `refusals.py` `McpGate` | `refusals.py` `McpBodyValidationMiddleware.why` |\n"
    )
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    assert names_not_in_their_module(tmp_path) == ["README.md:1: refusals.py McpGate"]


def test_a_moved_file_named_by_its_path_end_is_found(tmp_path):
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "docs").mkdir()
    (tmp_path / "components" / "web" / "middleware").mkdir(parents=True)
    (tmp_path / "components" / "web" / "middleware" / "limits.py").write_text("")
    (tmp_path / "README.md").write_text("Body limits: `middleware/limits.py`, `limits.py`; a model's `run.py`.\n")
    (tmp_path / "docs" / "cache.md").write_text("Answers kept: `web/kept.py` `Kept.peek`.\n")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    assert unknown_path_ends(tmp_path) == ["docs/cache.md:1: web/kept.py"]


def test_the_docs_name_many_paths_and_a_moved_file_is_found(tmp_path):
    named = [
        path
        for doc in documents()
        for line in doc.read_text(encoding="utf-8").splitlines()
        for path in named_paths(doc.relative_to(ROOT), line)
    ]
    assert len(named) > 300  # the check reads the docs' real mentions, not none
    (tmp_path / "docs").mkdir()
    (tmp_path / "components" / "web").mkdir(parents=True)
    (tmp_path / "components" / "web" / "server.py").write_text("")
    (tmp_path / "README.md").write_text("The server: `components/web/server.py`; see docs/limits.md.\n")
    (tmp_path / "requirements.txt").write_text("uvicorn  # components/web/server.py, components/web/asgi.py\n")
    (tmp_path / "docs" / "limits.md").write_text(
        "Body limits: `components/web/middleware/limits.py`.\nA page: `components/web/gradio/pages/<page>.py`.\n"
        "| The server | `components/web/`: `server.py`, `clients.py` |\nSee [it](deploying.md#beyond).\n"
    )
    assert missing_paths(tmp_path) == [
        "docs/limits.md:1: components/web/middleware/limits.py",
        "docs/limits.md:3: components/web/clients.py",
        "docs/limits.md:4: docs/deploying.md",
        "requirements.txt:1: components/web/asgi.py",
    ]
