"""Hostile and broken data for the hardening tests: payloads that would run if ever treated as markup,
and a dataset folder that mixes good files with every kind of bad one.

Every payload that could run sets `window.__pwned` (or opens a dialog), so a browser test only has to
check that neither ever happens.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from tests.helpers import row, write

NEW_CC = "2.28.7631.0+82129205"
OLD_CC = "2.21.18209.0+043b1bf7"


def payloads(tag: str) -> list[str]:
    """Markup, script and link payloads that mark `window.__pwned` with `tag` if they ever run."""
    mark = f"window.__pwned='{tag}'"
    return [
        f"<script>{mark}</script>",
        f'<img src=x onerror="{mark}">',
        f'<svg onload="{mark}"></svg>',
        f'"><img src=x onerror="{mark};alert(1)">',
        f"[click me](javascript:{mark})",
        f'<a href="javascript:{mark}">link</a>',
        f'<iframe srcdoc="<script>parent.{mark}</script>"></iframe>',
        f"</textarea></pre></code><script>{mark}</script>",
        "javascript:alert(document.domain)",
        "<style>body{display:none}</style>",
        "{{constructor.constructor('alert(1)')()}}",
    ]


def hostile_text(tag: str) -> str:
    """All payloads for `tag` in one string, on several lines."""
    return "\n".join(payloads(tag))


HOSTILE_MODEL = "evil/<img src=x onerror=\"window.__pwned='model_id';alert('model_id')\">"
HOSTILE_SCRIPT_MODEL = "evil/<script>window.__pwned='model_id2'</script>"
HOSTILE_LINK_MODEL = "evil/[x](javascript:alert('md'))"
LONG_MODEL = "long/" + "A" * 5000 + "<script>window.__pwned='long'</script>"
LONG_TEXT = 200_000  # characters of padding in the long error, notes and run_py
HOSTILE_CC = "<img src=x onerror=\"window.__pwned='cc'\">"


def hostile_rows() -> list[dict]:
    """Rows whose every text field is hostile, on the newest sample stack and on a hostile stack."""
    fields = {
        "error": hostile_text("error")
        + "\n"
        + "E" * LONG_TEXT
        + "\nNCC_X: <script>window.__pwned='error-last'</script>",
        "notes": hostile_text("notes") + "N" * LONG_TEXT,
        "exclusion": hostile_text("exclusion"),
        "run_py": hostile_text("run_py") + "\n# " + "R" * LONG_TEXT + "\n",
        "cpu_match": "<b onmouseover=\"window.__pwned='cpu_match'\">x</b>",
        "english": "<img src=x onerror=\"window.__pwned='english'\">",
        "runner": "<script>window.__pwned='runner'</script>",
        "torch": "<img src=x onerror=\"window.__pwned='torch'\">",
    }
    rows = [
        row(HOSTILE_MODEL, cc=NEW_CC, lib_version="5.0.0", result="FAIL", **fields),
        row(HOSTILE_SCRIPT_MODEL, cc=NEW_CC, lib_version="5.0.0", result="<img src=x onerror=\"window.__pwned='result'\">",
            **fields),
        row(HOSTILE_LINK_MODEL, cc=NEW_CC, lib_version="5.0.0", result="EXCLUDED", **fields),
        row(LONG_MODEL, cc=NEW_CC, lib_version="5.0.0", result="PASS", **fields),
        row(HOSTILE_MODEL, cc=HOSTILE_CC, lib_version="<script>window.__pwned='lv'</script>", result="PASS", **fields),
    ]  # fmt: skip
    return rows


def good_rows(n: int = 30) -> list[dict]:
    """Plain rows on two stacks, one file each: what must all be served whatever else is in the folder."""
    new = [row(f"good/model-{i:02d}", cc=NEW_CC, lib_version="5.0.0", wall_s=100 + i) for i in range(n)]
    old = [row(f"good/model-{i:02d}", cc=OLD_CC, lib_version="4.55.4", wall_s=200 + i) for i in range(n // 2)]
    return new + old


def broken_folder(folder: Path) -> dict[str, str]:
    """Write good files beside broken ones; returns {file name: what the header must say about it}.

    Good rows: `good_rows()` plus the rows of the drifted, retyped and odd files (listed by `served_ids`).
    """
    good = good_rows()
    write(folder / "good-new.parquet", [r for r in good if r["neuronx_cc"] == NEW_CC])
    sub = folder / "nested" / "deeper"
    old = write(sub / "good-old.parquet", [r for r in good if r["neuronx_cc"] == OLD_CC], drop=("exclusion",))
    (folder / "zero.parquet").write_bytes(b"")
    data = old.read_bytes()
    (folder / "truncated.parquet").write_bytes(data[: len(data) // 2])
    (folder / "corrupt.parquet").write_bytes(b"PAR1" + b"\x00garbage" * 100 + b"PAR1")
    (folder / "<img src=x onerror=alert(1)>.parquet").write_bytes(b"not parquet")
    (folder / "notes.txt").write_text("not a parquet file, ignored")
    # extra and missing columns
    write(folder / "drift.parquet", [dict(row("drift/extra-and-missing", cc=NEW_CC, lib_version="5.0.0"),
                                         brand_new_column={"nested": [1, 2]})],
          drop=("exclusion", "nki", "english", "run_py", "hbm_capacity_gb"))  # fmt: skip
    # wrong types: wall_s as text and as float, tp as float, hbm as text
    typed = pa.schema([("model_id", pa.string()), ("tp", pa.float64()), ("wall_s", pa.string()),
                       ("hbm_peak_gb", pa.string()), ("neuronx_cc", pa.string()), ("library", pa.string()),
                       ("library_version", pa.string()), ("result", pa.string())])  # fmt: skip
    base = {"neuronx_cc": NEW_CC, "library": "transformers", "library_version": "5.0.0", "result": "PASS"}
    write(folder / "types-text.parquet", [
        dict(base, model_id="types/wall-as-text", tp=2.0, wall_s="321", hbm_peak_gb="7.5"),
        dict(base, model_id="types/wall-not-a-number", tp=1.5, wall_s="soon", hbm_peak_gb="lots"),
    ], schema=typed)  # fmt: skip
    floats = pa.schema([("model_id", pa.string()), ("tp", pa.float64()), ("wall_s", pa.float64()),
                        ("neuronx_cc", pa.string()), ("library", pa.string()), ("library_version", pa.string())])  # fmt: skip
    write(folder / "types-float.parquet", [
        dict({k: v for k, v in base.items() if k != "result"}, model_id="types/wall-as-float", tp=4.0, wall_s=654.4),
        dict({k: v for k, v in base.items() if k != "result"}, model_id="types/wall-nan", tp=math.nan, wall_s=math.inf),
    ], schema=floats)  # fmt: skip
    # NaN/None everywhere but the model id
    nulls = {k: None for k in row()}
    write(folder / "nulls.parquet", [dict(nulls, model_id="nulls/nothing-known"), dict(nulls, model_id=None)])
    # duplicate rows: the newest of each (model, stack) wins
    older = datetime(2025, 1, 1, tzinfo=UTC)
    write(folder / "dupes.parquet", [
        row("dupes/model", cc=NEW_CC, lib_version="5.0.0", result="FAIL", tested_at=older),
        row("dupes/model", cc=NEW_CC, lib_version="5.0.0", result="PASS"),
        row("dupes/model", cc=NEW_CC, lib_version="5.0.0", result="PASS"),
    ])  # fmt: skip
    # unknown results, versions that do not parse, a 1 MB error, odd numbers
    write(folder / "odd.parquet", [
        row("odd/unknown-result", cc=NEW_CC, lib_version="5.0.0", result="MAYBE?"),
        row("odd/lowercase-pass", cc=NEW_CC, lib_version="5.0.0", result="pass"),
        row("odd/bad-version", cc="not-a-version", lib_version="latest!!"),
        row("odd/no-version", cc=None, lib_version=None),
        row("odd/megabyte-error", cc=NEW_CC, lib_version="5.0.0", result="FAIL",
            error="Traceback (most recent call last):\n" + "  frame\n" * 150_000 + "RuntimeError: the end"),
        row("odd/infinite-memory", cc=NEW_CC, lib_version="5.0.0", hbm_peak_gb=math.inf, hbm_capacity_gb=math.nan),
    ])  # fmt: skip
    # a timestamp Arrow can hold but Python's datetime cannot (year > 9999)
    far = pa.table({"model_id": ["odd/year-35-million"], "neuronx_cc": [NEW_CC], "library": ["transformers"],
                    "library_version": ["5.0.0"], "tested_at": pa.array([2**50], pa.timestamp("s", tz="UTC"))})  # fmt: skip
    pq.write_table(far, folder / "far-future.parquet")
    return {
        "zero.parquet": "unreadable Parquet file",
        "truncated.parquet": "unreadable Parquet file",
        "corrupt.parquet": "unreadable Parquet file",
        "<img src=x onerror=alert(1)>.parquet": "unreadable Parquet file",
        "types-text.parquet": "'wall_s'",
        "nulls.parquet": "without a model_id",
        "far-future.parquet": "'tested_at'",
    }


def served_ids() -> set[str]:
    """Every model id `broken_folder` must serve."""
    return {r["model_id"] for r in good_rows()} | {
        "drift/extra-and-missing", "types/wall-as-text", "types/wall-not-a-number", "types/wall-as-float",
        "types/wall-nan", "nulls/nothing-known", "dupes/model", "odd/unknown-result", "odd/lowercase-pass",
        "odd/bad-version", "odd/no-version", "odd/megabyte-error", "odd/infinite-memory",
        "odd/year-35-million",
    }  # fmt: skip


# ---- config.json texts that once cost the config check quadratic time or more ---------------------


def hostile_config(shape: str, size: int) -> str:
    """A config.json text of about `size` bytes in one of the shapes that once cost quadratic time or more."""
    if shape == "escaped quotes":  # an unterminated string of `\"`: the old regex rescanned from every quote
        return '{"a": "' + '\\"' * (size // 2)
    if shape == "backslashes":  # an unterminated string ending in a run of backslashes
        return '{"a": "' + "\\" * size
    if shape == "deep brackets":
        return "[" * (size // 2) + "]" * (size // 2)
    if shape == "long number":
        return '{"hidden_size": ' + "9" * size + "}"
    if shape == "many keys":
        return "{" + ",".join(f'"k{i:06}":0' for i in range(size // 12)) + "}"  # 12 bytes a key
    raise ValueError(shape)


SHAPES = ("escaped quotes", "backslashes", "deep brackets", "long number", "many keys")
