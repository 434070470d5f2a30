"""The tables the docs print from the code (settings and environment in docs/limits.md, the table's columns in
docs/data.md): one way to write a table, and one `--markdown` entry point for the modules that print one."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table, a line each row, ending in a newline."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def print_when_asked(module: str, markdown: Callable[[], str]) -> None:
    """`python -m MODULE --markdown` prints the module's table; anything else is a usage line."""
    if sys.argv[1:] != ["--markdown"]:
        sys.exit(f"usage: python -m {module} --markdown")
    sys.stdout.write(markdown())
