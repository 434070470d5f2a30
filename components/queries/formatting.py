"""How figures read, the one writer of each: durations, memory (one run or two), cores, parameter counts, counts."""

from __future__ import annotations

import math

import pandas as pd


def is_missing(value: object) -> bool:
    """None, NaN, NA and infinities: nothing a person can read as a figure."""
    if isinstance(value, float) and not math.isfinite(value):
        return True
    try:
        return value is None or bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def figure(value: object) -> float | None:
    """A figure from the data as a float; None when it is missing (`is_missing`)."""
    if is_missing(value):
        return None
    return float(value)  # type: ignore[arg-type]  # a present figure is a number (numpy's, pandas' or Python's); float() reads each


def duration(seconds: object) -> str:
    """`725` → `12 min 5 s`; `3725` → `1 h 2 min`; missing → `—`."""
    value = figure(seconds)
    if value is None:
        return "—"
    total = int(round(value))
    if total < 60:
        return f"{total} s"
    minutes, secs = divmod(total, 60)
    if minutes < 60:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def memory(peak_gb: object, capacity_gb: object) -> str:
    """`12.3 / 24 GB (51%)`; either figure missing reads as `—`."""
    peak, capacity = figure(peak_gb), figure(capacity_gb)
    if peak is None:
        return "—"
    if not capacity:
        return f"{peak:.1f} GB"
    return f"{peak:.1f} / {capacity:g} GB ({peak / capacity:.0%})"


def memory_change(peak_a: object, capacity_a: object, peak_b: object, capacity_b: object) -> str:
    """Memory on two runs: `8.0 → 8.1 / 24 GB` when both used the same capacity, else each side in full
    (`change`)."""
    peak_a_, peak_b_, capacity = figure(peak_a), figure(peak_b), figure(capacity_a)
    if peak_a_ is not None and peak_b_ is not None and capacity is not None and capacity_a == capacity_b:
        a, b = f"{peak_a_:.1f}", f"{peak_b_:.1f}"
        if a != b:
            return f"{a} → {b} / {capacity:g} GB"
    return change(memory(peak_a, capacity_a), memory(peak_b, capacity_b))


def change(a: str, b: str) -> str:
    """Two sides' figures: `4 → 8`, or one value when both agree or one side has none (`—`)."""
    if a == b or b == "—":
        return a
    if a == "—":
        return b
    return f"{a} → {b}"


def cores(tp: object) -> str:
    """Trainium cores: `4`; missing → `—`."""
    value = figure(tp)
    return "—" if value is None else str(int(value))


def cores_words(tp: object) -> str:
    """Cores as words: `1 core`, `4 cores`; missing → `cores unknown`."""
    value = figure(tp)
    return "cores unknown" if value is None else f"{cores(tp)} core{'s' if int(value) != 1 else ''}"


def cores_noted(tp: object, *, trainium: bool = False) -> str:
    """A core count with its plural left open, as lists and suggestions word it: `4 core(s)`,
    `4 Trainium core(s)`; missing → `— core(s)`."""
    return f"{cores(tp)} {'Trainium ' if trainium else ''}core(s)"


def sharding(tp: object) -> str:
    """How a run was spread, to end a clause: `, sharded over 4 Trainium cores`, `, on one Trainium core`;
    none or unknown → empty."""
    if is_missing(tp) or not tp:
        return ""
    return ", on one Trainium core" if cores(tp) == "1" else f", sharded over {cores(tp)} Trainium cores"


def cores_phrase(tp: object) -> str:
    """Cores in a sentence: ` on 1 core`, ` on 4 cores`; missing → empty."""
    return "" if is_missing(tp) else f" on {cores_words(tp)}"


def parameters(value: object) -> str:
    """A parameter count as people read it: `1.54 B parameters`, `35 M parameters`; `size unknown`."""
    count = parameter_count(value, unknown="")
    return f"{count} parameters" if count else "size unknown"


def parameter_count(value: object, unknown: str = "unknown") -> str:
    """A parameter count, short: `1.54 B`, `35 M`; `unknown` for anything that is not a positive number."""
    if is_missing(value) or isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return unknown
    return f"{value / 1e9:.2f} B" if value >= 1e8 else f"{value / 1e6:.0f} M"


def count(value: object) -> str:
    """A whole count as people read it: `1234567` → `1,234,567`; a score keeps one decimal; missing → `—`."""
    number = figure(value)
    if number is None:
        return "—"
    return f"{int(number):,}" if number.is_integer() else f"{number:,.1f}"


def noun(number: int, singular: str, plural: str | None = None) -> str:
    """The word a count takes: `noun(1, "fix", "fixes")` → `fix`, `noun(2, "model")` → `models` (no plural
    given: the singular with an "s")."""
    return singular if number == 1 else plural or f"{singular}s"


def compact(value: object) -> str:
    """A count in a narrow column: `16015313` → `16.0 M`, `374599` → `375 k`, `4430` → `4,430`."""
    number = figure(value)
    if number is None:
        return "—"
    if abs(number) >= 1e6:
        return f"{number / 1e6:.1f} M"
    if abs(number) >= 1e4:
        return f"{number / 1e3:.0f} k"
    return count(number)


def timestamp(value: object) -> str:
    """An ISO 8601 time as people read it: `2026-10-26 08:00 UTC`; anything else as given."""
    if is_missing(value):
        return "—"
    try:
        return pd.Timestamp(value).tz_convert("UTC").strftime("%Y-%m-%d %H:%M UTC")
    except (ValueError, TypeError):
        return str(value)


def day(value: object) -> str:
    """The UTC day of a time, for a narrow column: `2026-10-26`; "—" when unknown (`timestamp` for the hour)."""
    return timestamp(value).split(" ")[0]


def core_count(tp: object) -> int | None:
    """A core count as JSON: an int (the column is float where some rows have none); None when unknown."""
    value = plain(tp)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


def plain(value: object):
    """A value as plain JSON: NaN/NA → None, numpy scalars → Python, timestamps → ISO 8601."""
    if type(value) is str:  # most of a row: plain already, without pandas' missing-value test (~3 µs)
        return value
    if is_missing(value):
        return None
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if hasattr(value, "item"):
        return value.item()
    return value
