"""Every file or folder the documentation names by path exists: a file that moves takes its mentions with it, or
this fails naming the line. The documentation is `docs/*.md`, `README.md`, `benchmarks/*.md` and the comments of
the requirements files; a path is named three ways:

- from the repository's root (`components/…`, `tests/…`, `docs/…`, `benchmarks/…`, `data/…`, `deploy/…`, `.ci/…`,
  `app.py`), backticked or not, in prose or in a table;
- by its bare name after its folder in the same line, as the tables list a folder's modules
  (`components/web/html/`: `markup.py`, `table.py`; `components/queries/views.py`, `details.py`);
- as a Markdown link, relative to the document (`[limits](limits.md#…)`, `(../benchmarks/results.md)`).
"""

from __future__ import annotations

import os
import re
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
