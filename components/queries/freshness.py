"""How old the served data is, in words for the header: "read 3 h ago", and when it is too old."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from components.runtime import settings
from components.sources.snapshot import Provenance

# The live dataset is reread every hour; a day without a successful read means the Hub (or the
# network) has been failing for a day, and newer results may be missing from the page.
STALE_AFTER = timedelta(hours=settings.DATA_STALE.value)


def age_text(age: timedelta) -> str:
    """`timedelta(minutes=3)` → `3 min`; under a minute → `less than a minute`; days past 48 h."""
    seconds = max(int(age.total_seconds()), 0)
    if seconds < 60:
        return "less than a minute"
    if seconds < 3600:
        return f"{seconds // 60} min"
    if seconds < 48 * 3600:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} days"


def data_age(provenance: Provenance, now: datetime | None = None) -> timedelta:
    """How long ago the served data was read."""
    return (now or datetime.now(UTC)) - provenance.loaded_at


def stale_warning(provenance: Provenance, now: datetime | None = None) -> str | None:
    """A sentence when the live Hub dataset shown has not been refreshed for over `STALE_AFTER`, else None."""
    age = data_age(provenance, now)
    if provenance.kind != "hub" or age <= STALE_AFTER:
        return None
    return (
        f"The live dataset has not refreshed for {age_text(age)}: "
        "the Hub has not answered since, so newer results may be missing."
    )
