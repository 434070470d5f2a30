"""Version order: where the app decides which stack is newer.

`2.9` < `2.10` < `2.28`; a local suffix such as `+82129205` does not disturb the order;
a version that does not parse is kept and sorts after every parsable one.
"""

from __future__ import annotations

from functools import lru_cache

from packaging.version import InvalidVersion, Version

from components.runtime import settings


@lru_cache(maxsize=settings.VERSION_KEYS.value)
def version_key(text: str | None) -> tuple:
    """Return a sort key: ascending order puts the oldest parsable version first and
    unparsable ones (ordered by their text) after all parsable ones."""
    if text is None:
        return (2, "")
    try:
        return (0, Version(str(text).strip()))
    except InvalidVersion:
        return (1, str(text))


def newest_first(versions) -> list[str]:
    """Distinct versions, newest first; unparsable ones last (in text order)."""
    distinct = {v for v in versions if v is not None}
    parsable = sorted((v for v in distinct if version_key(v)[0] == 0), key=version_key, reverse=True)
    others = sorted((v for v in distinct if version_key(v)[0] != 0), key=version_key)
    return parsable + others


def short_version(text: str) -> str:
    """`2.28.7631.0+82129205` → `2.28.7631.0`: the public part people type and read."""
    return str(text).split("+", 1)[0]
