"""The live count by visibility, kept in the user's state item (``DREAMDUE``).

Every live entry is counted in ``n`` and in exactly one bucket, an attribute of the
state item named by who may see the entry:

- ``c#G``: global entries (every agent);
- ``c#S#<agent>``: the agent's own self entries;
- ``c#R#<agent>#<group>...``: group entries by the writing agent and their groups.

An agent's view is then the sum of the buckets its scope allows (``VisibilityScope``:
global, its own, and groups it is in), read with the item in one ``GetItem``, not a
listing of every entry. ``w`` counts the live entries whose validity is bounded (a
``validTo``, or a ``validFrom`` still ahead when written): listings show only what holds
now, which a counter cannot follow, so while ``w`` is above zero an agent's count lists.
``w`` only overstates (an entry whose start has since passed stays in it until the
next recount), never understates. ``exact`` is ``2`` once a recount settled the
buckets and ``w`` too (``1``: ``n`` only, as key design 3 first wrote it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.domain.models import Visibility
from engram.domain.policies import VisibilityScope

BUCKET_PREFIX = "c" + k.SEP
BOUNDED = "w"
BUCKETS_SETTLED = 2


def bucket_of(visibility: str, agent_id: str, group_ids: Iterable[str]) -> str:
    if visibility == Visibility.GLOBAL.value:
        return k.join("c", "G")
    if visibility == Visibility.SELF.value:
        return k.join("c", "S", k.escape(agent_id))
    return k.join("c", "R", k.escape(agent_id), *sorted({k.escape(g) for g in group_ids}))


def visible(bucket: str, scope: VisibilityScope) -> bool:
    """May an agent with ``scope`` see the entries of ``bucket``? (``VisibilityScope.allows``)"""
    parts = bucket.split(k.SEP)
    if scope.everything or parts[1] == "G":
        return True
    if k.unescape(parts[2]) == scope.agent_id:
        return True
    return parts[1] == "R" and any(k.unescape(g) in scope.group_ids for g in parts[3:])


def bounded(valid_from: str | None, valid_to: str | None, now_ts: str) -> bool:
    return valid_to is not None or (valid_from is not None and valid_from > now_ts)


def entry_bucket(data: Mapping[str, Any]) -> str:
    """The bucket of an entry in plain-dict form (``from_item``)."""
    return bucket_of(str(data.get("visibility")), str(data.get("sourceAgentId")), data.get("groupIds") or ())


def entry_bounded(data: Mapping[str, Any], now_ts: str) -> bool:
    vf, vt = data.get("validFrom"), data.get("validTo")
    return bounded(None if vf is None else str(vf), None if vt is None else str(vt), now_ts)


@dataclass
class Tally:
    """Live entries by bucket, as a recount finds them or the state item holds them."""

    live: int = 0
    next_expiry: str | None = None
    buckets: dict[str, int] = field(default_factory=dict)
    bounded: int = 0

    def add(self, data: Mapping[str, Any], now_ts: str) -> None:
        bucket = entry_bucket(data)
        self.live += 1
        self.buckets[bucket] = self.buckets.get(bucket, 0) + 1
        self.bounded += int(entry_bounded(data, now_ts))

    @classmethod
    def of_state(cls, data: Mapping[str, Any]) -> Tally:
        buckets = {name: int(v) for name, v in data.items() if name.startswith(BUCKET_PREFIX)}
        return cls(int(data.get("n", 0)), None, buckets, int(data.get(BOUNDED, 0)))

    def visible_to(self, scope: VisibilityScope) -> int | None:
        """What an agent with ``scope`` sees; None when only a listing can tell."""
        if scope.everything:
            return max(0, self.live)
        if self.bounded > 0:
            return None
        return max(0, sum(n for name, n in self.buckets.items() if visible(name, scope)))
