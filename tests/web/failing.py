"""A snapshot whose FAILs share causes, with hostile error text and model ids: the causes' pages,
fragments and chart read it."""

from __future__ import annotations

from components.sources.dataset import load
from tests.helpers import row, write

OLD, NEW = "2.26.9117.0+c4d2e7a1", "2.28.7631.0+82129205"
HOSTILE_ERROR = "RuntimeError: <img src=x onerror=alert(1)> in <script>alert(2)</script>"
HOSTILE_MODEL = "evil/<b>bold</b>"


def failing_snapshot(folder):
    write(folder / "old.parquet", [
        row("a/one", cc=OLD), row(HOSTILE_MODEL, cc=OLD), row("a/three", cc=OLD, result="FAIL", error=HOSTILE_ERROR),
    ])  # fmt: skip
    write(folder / "new.parquet", [
        row("a/one", cc=NEW, result="FAIL", error=HOSTILE_ERROR),
        row(HOSTILE_MODEL, cc=NEW, result="FAIL", error=HOSTILE_ERROR.replace("1", "2")),
        row("a/three", cc=NEW),
        row("a/alone", cc=NEW, result="FAIL", error="ERROR [neuronx-cc]: [NCC_EOOM001] Out of memory: 30 GB"),
        row("a/passes", cc=NEW),
    ])  # fmt: skip
    return load(folder)


def no_markup_from_data(html: str) -> None:
    assert "<img" not in html and "<script" not in html and "<b>bold" not in html
