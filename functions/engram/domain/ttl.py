"""Time to live per category (behaviour item 8)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

# None means the category never expires. Anything not listed falls back to "other".
DEFAULT_TTL: Mapping[str, timedelta | None] = {
    "fact": None,
    "preference": None,
    "identity": None,
    "legacy": None,
    "event": timedelta(days=7),
    "feeling": timedelta(hours=6),
    "other": timedelta(days=1),
}


def ttl_for(category: str, table: Mapping[str, timedelta | None] = DEFAULT_TTL) -> timedelta | None:
    if category in table:
        return table[category]
    return table.get("other", DEFAULT_TTL["other"])


def expiry_for(
    category: str,
    written_at: datetime,
    table: Mapping[str, timedelta | None] = DEFAULT_TTL,
) -> datetime | None:
    ttl = ttl_for(category, table)
    return None if ttl is None else written_at + ttl
