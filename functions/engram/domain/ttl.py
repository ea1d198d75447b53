"""Time to live per category (behaviour item 8).

Only categories with a configured TTL expire; every other category is kept until it is
deleted, superseded, pruned by dream or outlives the user's retention. The table is part
of each agent's configuration (``userMemoryConfig.ttlHours``); these are its defaults.
A TTL runs from the time the fact was observed (``sourceTime``, the message timestamp),
not from when Engram happened to store it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

DEFAULT_TTL_HOURS: Mapping[str, float] = {"event": 7 * 24.0, "feeling": 6.0}

DEFAULT_TTL: Mapping[str, timedelta | None] = {c: timedelta(hours=h) for c, h in DEFAULT_TTL_HOURS.items()}


def ttl_for(category: str, table: Mapping[str, timedelta | None] = DEFAULT_TTL) -> timedelta | None:
    """The category's TTL, or None (never expires) when the table has no rule for it."""
    return table.get(category)


def expiry_for(
    category: str,
    observed_at: datetime,
    table: Mapping[str, timedelta | None] = DEFAULT_TTL,
) -> datetime | None:
    ttl = ttl_for(category, table)
    return None if ttl is None else observed_at + ttl
