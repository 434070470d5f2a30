"""Every file or folder the documentation names by path (`components/…`, `tests/…`, `docs/…`) exists: a file that moves
takes its mentions with it, or this fails naming the line."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import ROOT

# A path as the docs write it: from one of these folders, not part of a longer path or URL (`web/pages/x.py`
# alone, or `github.com/.../docs/x`, is not one), without a trailing full stop.
NAMED_PATH = re.compile(r"(?<![\w/.:-])((?:components|tests|docs)/[\w./-]*[\w/])")
# Placeholders stand for many paths (`components/web/gradio/pages/<page>.py`, `tests/**/test_*.py`).
PLACEHOLDER = re.compile(r"[<>*{}]")


def documents(root: Path = ROOT) -> list[Path]:
    return [*sorted((root / "docs").glob("*.md")), root / "README.md"]


def missing_paths(root: Path = ROOT) -> list[str]:
    """`doc:line: path` for each named path that does not exist under `root`."""
    found = []
    for doc in documents(root):
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for path in NAMED_PATH.findall(line):
                if (
                    not PLACEHOLDER.search(line[line.index(path) : line.index(path) + len(path) + 2])
                    and not (root / path).exists()
                ):
                    found.append(f"{doc.relative_to(root)}:{number}: {path}")
    return found


def test_every_path_the_docs_name_exists():
    assert missing_paths() == []


def test_the_docs_name_many_paths_and_a_moved_file_is_found(tmp_path):
    named = [
        p
        for doc in documents()
        for line in doc.read_text(encoding="utf-8").splitlines()
        for p in NAMED_PATH.findall(line)
    ]
    assert len(named) > 100  # the check reads the docs' real mentions, not none
    (tmp_path / "docs").mkdir()
    (tmp_path / "components" / "web").mkdir(parents=True)
    (tmp_path / "components" / "web" / "server.py").write_text("")
    (tmp_path / "README.md").write_text("The server: `components/web/server.py`; see docs/limits.md.\n")
    (tmp_path / "docs" / "limits.md").write_text(
        "Body limits: `components/web/middleware/limits.py`.\nA page: `components/web/gradio/pages/<page>.py`.\n"
    )
    assert missing_paths(tmp_path) == ["docs/limits.md:1: components/web/middleware/limits.py"]
