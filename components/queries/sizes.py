"""Size ranges: `size=MIN-MAX` in billions of parameters, either end open (`1-10`: 1 B <= n < 10 B; `100-`).

A range is kept as its canonical text ("" for any size), so a Query stays a small hashable value and a
link shows what was applied."""

from __future__ import annotations

import math
import re

import numpy as np

BILLION = 1_000_000_000
NUMBERS = (int, float, np.integer, np.floating)
# The picker's ranges, in order: (label, range)
CHOICES: tuple[tuple[str, str], ...] = (
    ("Any size", ""),
    ("Under 1 B", "-1"),
    ("1–10 B", "1-10"),
    ("10–100 B", "10-100"),
    ("100 B and over", "100-"),
)
# Matched against stripped text: one `\s*` on each side of the dash, never two in a row, so no input makes
# it backtrack (`\s*(...)?\s*` read `- ` and 8,000 spaces in 0.6 s, a megabyte in hours).
RANGE = re.compile(r"^(\d{1,6}(?:\.\d{1,3})?)?\s*-\s*(\d{1,6}(?:\.\d{1,3})?)?$")


def parse(text: object) -> tuple[float | None, float | None] | None:
    """(low, high) in billions from "MIN-MAX" (either end may be empty); None for "" or anything that is
    not a range (an inverted or fully open one included)."""
    match = RANGE.match(text.strip()) if isinstance(text, str) else None
    if not match or match.group(1) is None and match.group(2) is None:
        return None
    low, high = (float(g) if g is not None else None for g in match.groups())
    if low is not None and high is not None and high <= low:
        return None
    return low, high


def normalise(text: object) -> str:
    """The canonical text of a range ("1-10", "100-", "-1"), "" when `text` is not one."""
    bounds = parse(text)
    if bounds is None:
        return ""
    return "-".join(f"{b:g}" if b is not None else "" for b in bounds)


def label(text: str) -> str:
    """How the page names a range: the picker's label, else "1.5–7 B" / "under 7 B" / "7 B and over"."""
    canonical = normalise(text)
    for name, value in CHOICES:
        if value == canonical:
            return name
    bounds = parse(canonical)
    if bounds is None:  # normalise() gives a range parse() reads, or "" (a choice, named above)
        raise ValueError(f"not a size range: {text!r}")
    low, high = bounds
    if low is None:
        return f"Under {high:g} B"
    if high is None:
        return f"{low:g} B and over"
    return f"{low:g}–{high:g} B"


def in_range(counts: np.ndarray, text: str) -> tuple[np.ndarray, np.ndarray]:
    """(keep, unknown) masks over parameter `counts` (NaN where unknown) for the range `text`: with no
    range every model is kept; with one, only models of known size in it."""
    counts = np.asarray(counts, dtype=float)
    unknown = np.isnan(counts)
    bounds = parse(text)
    if bounds is None:
        return np.ones(len(counts), dtype=bool), unknown
    low, high = bounds
    keep = ~unknown
    with np.errstate(invalid="ignore"):
        if low is not None:
            keep &= counts >= low * BILLION
        if high is not None:
            keep &= counts < high * BILLION
    return keep, unknown


def parameter_counts(values) -> np.ndarray:
    """Parameter counts as floats, NaN where unknown (None, not a positive number)."""
    return np.array(
        [float(v) if isinstance(v, NUMBERS) and not isinstance(v, bool) and math.isfinite(v) and v > 0
         else np.nan for v in values],
        dtype=float,
    )  # fmt: skip
