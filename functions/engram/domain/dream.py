"""Dream: the scheduled consolidation's rules as pure functions (behaviour items 6, 7, 8, 17).

Given one user's entries, the per-agent dream policy and the run's time, decide every
maintenance change. Each change is one rule applied to one entry (or, for a merge or a
summary, one group): the service turns each into its own atomic, versioned changeset
with actor ``system/dream`` and the rule as its reason.

Every rule is a function of the stored state and the run's time, never of how often
dream ran: decay counts whole periods from a stored anchor, flags compare with the
flag already set, removals look at the status. So re-running a user (a retried
message, a crash half way through a user) applies only what is still missing.

Boundaries (each tested in tests/unit/test_dream_rules.py):
- TTL: expired when ``expires_at <= now`` (the same test every read uses).
- Retention: removed when ``created_at + retentionDays <= now``.
- Stale: removed when the last touch (access, reinforcement or creation) is at least
  ``pruneStaleAfterDays`` ago: exactly N days counts ("not accessed in N days").
- Decay: one step (x ``decayFactor``) per whole ``decayAfterDays`` since the later of
  the last reinforcement and the last decay step: exactly 7 days is one step (Oasis:
  "not reinforced in 7+ days").
- Low confidence: removed when confidence is strictly below 0.3 and the entry is
  strictly older than 30 days (Oasis: ``confidence < 0.3 AND age > 30 days``):
  exactly 0.3, or exactly 30 days old, stays.
- Duplicates: cosine strictly above the embedder's ``dedup_threshold`` (Oasis: "> 0.85").
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum

from engram.domain.agent_config import DreamConfig
from engram.domain.models import Actor, ActorType, ChangeKind, MemoryEntry, Status, Visibility
from engram.domain.policies import normalise_value

DREAM_ACTOR = Actor(ActorType.SYSTEM, "dream")
REINFORCE_STEP = 0.1
SUMMARY_KEY_PREFIX = "summary."
# The smallest step of the stored timestamps: "strictly older than 30 days" first holds
# one tick after the 30 days are up.
TICK = timedelta(microseconds=1)
# Entries per changeset: a DynamoDB transaction holds 100 items, and each entry takes
# three (the entry, its history record, its identity's version).
CHANGESET_ENTRIES = 25


class Rule(StrEnum):
    EXPIRE = "expire"
    RETENTION = "retention"
    PRUNE_STALE = "prune_stale"
    DECAY = "decay"
    PRUNE_LOW_CONFIDENCE = "prune_low_confidence"
    FLAG_CONTRADICTION = "flag_contradiction"
    CLEAR_CONTRADICTION = "clear_contradiction"
    MERGE_DUPLICATES = "merge_duplicates"
    SUMMARIZE = "summarize"


@dataclass(frozen=True, slots=True)
class Policy:
    """An agent's ``dreamConfig`` in the units the rules use."""

    enabled: bool = False
    stale_after: timedelta | None = timedelta(days=90)
    detect_contradictions: bool = True
    merge_duplicates: bool = True
    summarize: bool = False
    summarize_categories: tuple[str, ...] = ("fact", "context")
    summarize_min_entries: int = 20
    decay: bool = True
    decay_after: timedelta = timedelta(days=7)
    decay_factor: float = 0.95
    prune_below: float = 0.3
    prune_after: timedelta = timedelta(days=30)
    max_cost_per_run: float = 0.5

    @classmethod
    def of(cls, c: DreamConfig) -> Policy:
        return cls(
            enabled=c.enabled,
            stale_after=timedelta(days=c.prune_stale_after_days) if c.prune_stale_after_days > 0 else None,
            detect_contradictions=c.detect_contradictions,
            merge_duplicates=c.merge_duplicates,
            summarize=c.summarize_interactions,
            summarize_categories=tuple(c.summarize_categories),
            summarize_min_entries=c.summarize_min_entries,
            decay=c.decay_confidence,
            decay_after=timedelta(days=c.decay_after_days),
            decay_factor=c.decay_factor,
            prune_below=c.prune_below_confidence,
            prune_after=timedelta(days=c.prune_low_confidence_after_days),
            max_cost_per_run=c.max_cost_per_run,
        )

    @property
    def detects(self) -> bool:
        return self.enabled and self.detect_contradictions

    @property
    def merges(self) -> bool:
        return self.enabled and self.merge_duplicates

    @property
    def summarizes(self) -> bool:
        return self.enabled and self.summarize


PolicyOf = Callable[[str], Policy]
"""The policy of the agent that wrote an entry (by source agent id)."""


@dataclass(frozen=True, slots=True)
class Change:
    """One rule applied to one entry, or to one group for merges and summaries.

    ``after[i]`` is the new state of ``before[i]``, one version on: the service guards
    on ``before[i].version`` (and re-reads the identity only if that guard fails).
    """

    rule: Rule
    kind: ChangeKind
    reason: str
    before: tuple[MemoryEntry, ...]
    after: tuple[MemoryEntry, ...]


@dataclass(slots=True)
class UserPlan:
    changes: list[Change] = field(default_factory=list)
    # Entries still active after every change, in their new state (for merges,
    # summaries and the next due time).
    survivors: list[MemoryEntry] = field(default_factory=list)
    contradictions: int = 0


# -- single-entry rules -------------------------------------------------------------------


def last_touch(e: MemoryEntry) -> datetime:
    """When the entry was last used or restated; stale pruning counts from here."""
    return max(t for t in (e.created_at, e.last_accessed_at, e.last_reinforced_at) if t is not None)


def decay_anchor(e: MemoryEntry) -> datetime:
    reinforced = e.last_reinforced_at or e.created_at
    return reinforced if e.last_decayed_at is None else max(reinforced, e.last_decayed_at)


def decay_steps(e: MemoryEntry, p: Policy, now: datetime) -> tuple[int, datetime]:
    """Whole decay periods due at ``now`` and the anchor after taking them."""
    anchor = decay_anchor(e)
    if not p.decay or now < anchor:
        return 0, anchor
    steps = (now - anchor) // p.decay_after
    return steps, anchor + steps * p.decay_after


def decayed(confidence: float, p: Policy, steps: int) -> float:
    return round(confidence * p.decay_factor**steps, 4) if steps else confidence


def is_low_confidence(confidence: float, e: MemoryEntry, p: Policy, now: datetime) -> bool:
    return p.decay and confidence < p.prune_below and now - e.observed_at > p.prune_after


def _removal(e: MemoryEntry, at: datetime, **changes: object) -> MemoryEntry:
    return e.evolve(status=Status.DELETED, updated_at=at, valid_to=e.valid_to or at, version=e.version + 1, **changes)


def _days(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 86400:g}"


def entry_change(
    e: MemoryEntry,
    p: Policy,
    now: datetime,
    at: datetime,
    retention: timedelta | None,
) -> Change | None:
    """The one change the single-entry rules make to a live-or-expired active entry."""
    if e.is_expired(now):
        return Change(Rule.EXPIRE, ChangeKind.EXPIRED, "dream: expired (TTL)", (e,), (_removal(e, at),))
    if retention is not None and e.created_at + retention <= now:
        reason = f"dream: older than the user's retention of {_days(retention)} days"
        return Change(Rule.RETENTION, ChangeKind.PRUNED, reason, (e,), (_removal(e, at),))
    if p.enabled and p.stale_after is not None and last_touch(e) + p.stale_after <= now:
        reason = f"dream: stale, not accessed in {_days(p.stale_after)} days"
        return Change(Rule.PRUNE_STALE, ChangeKind.PRUNED, reason, (e,), (_removal(e, at),))
    steps, anchor = decay_steps(e, p, now)
    confidence = decayed(e.confidence, p, steps)
    if is_low_confidence(confidence, e, p, now):
        reason = f"dream: confidence below {p.prune_below:g} and older than {_days(p.prune_after)} days"
        gone = _removal(e, at, confidence=confidence, last_decayed_at=anchor if steps else e.last_decayed_at)
        return Change(Rule.PRUNE_LOW_CONFIDENCE, ChangeKind.PRUNED, reason, (e,), (gone,))
    if steps:
        reason = f"dream: not reinforced for {_days(p.decay_after)} days, confidence x{p.decay_factor:g} a period"
        # updated_at stays: recall's most_recent order must not float a fading fact up.
        return Change(
            Rule.DECAY,
            ChangeKind.DECAYED,
            reason,
            (e,),
            (e.evolve(confidence=confidence, last_decayed_at=anchor, version=e.version + 1),),
        )
    return None


# -- contradictions -----------------------------------------------------------------------


def contradiction_changes(entries: Sequence[MemoryEntry], policy_of: PolicyOf) -> tuple[list[Change], int]:
    """Flag (and unflag) entries whose key holds different values across agents or
    visibilities; no winner is chosen, and a key's entries are flagged together.
    Returns the changes and how many keys newly became contradictions.

    One agent that detects contradictions is enough: the disagreement is the user's data,
    not that agent's, so every agent's entry of the key is flagged (or cleared), whether
    or not its own agent runs dream (issue #17, item 10)."""
    by_key: dict[str, list[MemoryEntry]] = {}
    for e in entries:
        by_key.setdefault(e.key, []).append(e)
    changes: list[Change] = []
    found = 0
    for key in sorted(by_key):
        group = by_key[key]
        if len(group) == 1 and not group[0].conflicted:
            continue  # the common case, and nothing to compare
        if not any(policy_of(e.source_agent_id).detects for e in group):
            continue
        conflicted = len({normalise_value(e.value) for e in group}) > 1
        targets = [e for e in sorted(group, key=lambda x: x.id) if e.conflicted != conflicted]
        if not targets:
            continue
        after = tuple(e.evolve(conflicted=conflicted, version=e.version + 1) for e in targets)
        if conflicted:
            found += 1
            agents = ", ".join(sorted({x.source_agent_id for x in group}))
            reason = f"dream: contradiction, the key holds different values (agents {agents})"
            changes.append(Change(Rule.FLAG_CONTRADICTION, ChangeKind.FLAGGED, reason, tuple(targets), after))
        else:
            reason = "dream: contradiction resolved, the key holds one value"
            changes.append(Change(Rule.CLEAR_CONTRADICTION, ChangeKind.UPDATED, reason, tuple(targets), after))
    return changes, found


# -- duplicates ---------------------------------------------------------------------------

PartitionKey = tuple[str, str, tuple[str, ...], str]


def partition_of(e: MemoryEntry) -> PartitionKey:
    """Entries that may be merged or summarised together: whoever can see one can see
    the other (same visibility, owner and groups) and they are the same kind of memory."""
    owner = "*" if e.visibility is Visibility.GLOBAL else e.source_agent_id
    return (e.visibility.value, owner, tuple(sorted(e.group_ids)), e.category)


def merge_partitions(
    entries: Sequence[MemoryEntry],
    policy_of: PolicyOf,
    fresh_since: datetime | None,
) -> list[list[MemoryEntry]]:
    """Groups whose members need comparing: two or more mergeable entries, at least one
    changed since the user's last pass (older pairs were compared then)."""
    parts: dict[PartitionKey, list[MemoryEntry]] = {}
    for e in entries:
        if policy_of(e.source_agent_id).merges:
            parts.setdefault(partition_of(e), []).append(e)
    out = []
    for key in sorted(parts):
        group = parts[key]
        if len(group) > 1 and (fresh_since is None or any(e.updated_at > fresh_since for e in group)):
            out.append(sorted(group, key=_survivor_order))
    return out


def _survivor_order(e: MemoryEntry) -> tuple[float, int, int, datetime, str]:
    # The most trusted, most important, most used entry survives; on a tie the oldest.
    return (-e.confidence, -e.importance, -e.access_count, e.created_at, e.id)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    na = math.sqrt(math.fsum(x * x for x in a))
    nb = math.sqrt(math.fsum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def duplicate_clusters(
    group: Sequence[MemoryEntry],
    similarity: Callable[[int, int], float],
    threshold: float,
    fresh_since: datetime | None = None,
) -> list[list[int]]:
    """Clusters (indices into ``group``, survivor first) of entries more similar than
    ``threshold`` to their survivor. ``group`` is in survivor order, so each cluster's
    first member is the one that stays. Two entries both older than ``fresh_since``
    were compared by an earlier pass and are not compared again."""
    fresh = [fresh_since is None or e.updated_at > fresh_since for e in group]
    taken = [False] * len(group)
    clusters: list[list[int]] = []
    for i in range(len(group)):
        if taken[i]:
            continue
        members = [i]
        for j in range(i + 1, len(group)):
            if not taken[j] and (fresh[i] or fresh[j]) and similarity(i, j) > threshold:
                members.append(j)
                taken[j] = True
        taken[i] = True
        if len(members) > 1:
            clusters.append(members)
    return clusters


def merge_change(cluster: Sequence[MemoryEntry], at: datetime) -> Change:
    """The survivor (first) absorbs the rest: reinforced like a restatement (+0.1), the
    others superseded by it, so their history and the link remain."""
    survivor, dups = cluster[0], list(cluster[1:])
    merged = survivor.evolve(
        confidence=round(min(1.0, survivor.confidence + REINFORCE_STEP), 4),
        importance=max(e.importance for e in cluster),
        access_count=sum(e.access_count for e in cluster),
        last_accessed_at=max((e.last_accessed_at for e in cluster if e.last_accessed_at), default=None),
        last_reinforced_at=at,
        updated_at=at,
        version=survivor.version + 1,
    )
    gone = [
        e.evolve(status=Status.SUPERSEDED, superseded_by=survivor.id, valid_to=at, updated_at=at, version=e.version + 1)
        for e in dups
    ]
    reason = f"dream: merged {len(dups)} semantic duplicate(s) into {survivor.id}"
    return Change(Rule.MERGE_DUPLICATES, ChangeKind.MERGED, reason, (survivor, *dups), (merged, *gone))


# -- summaries ----------------------------------------------------------------------------


def summary_groups(entries: Sequence[MemoryEntry], policy_of: PolicyOf) -> list[list[MemoryEntry]]:
    """Partitions big enough to compress (previous summaries are inputs too, so a new
    summary supersedes the old one instead of piling up)."""
    parts: dict[PartitionKey, list[MemoryEntry]] = {}
    for e in entries:
        p = policy_of(e.source_agent_id)
        if p.summarizes and e.category in p.summarize_categories:
            parts.setdefault(partition_of(e), []).append(e)
    out = []
    for key in sorted(parts):
        group = parts[key]
        originals = [e for e in group if not e.key.startswith(SUMMARY_KEY_PREFIX)]
        min_entries = policy_of(group[0].source_agent_id).summarize_min_entries
        if len(originals) >= min_entries:
            out.append(sorted(group, key=lambda e: (e.created_at, e.id)))
    return out


def summary_key(category: str, visibility: Visibility = Visibility.SELF, group_ids: Sequence[str] = ()) -> str:
    """The key of one partition's summary. An agent's self and group entries under one
    key share one identity (``identity_id``), so a group partition's summary needs a key
    of its own: under the same key, the summary of the agent's own facts would supersede
    the group's summary (or the other way round) and take its facts out of live memory."""
    if visibility is not Visibility.GROUP:
        return SUMMARY_KEY_PREFIX + category
    groups = hashlib.sha256("\x1f".join(sorted(group_ids)).encode()).hexdigest()[:12]
    return f"{SUMMARY_KEY_PREFIX}{category}.group-{groups}"


def fact_line(e: MemoryEntry) -> str:
    return f"{e.key.replace('_', ' ')}: {e.value}" + (f" ({e.statement})" if e.statement else "")


# -- the whole user -------------------------------------------------------------------------


def plan_user(
    entries: Iterable[MemoryEntry],
    policy_of: PolicyOf,
    now: datetime,
    at: datetime,
    retention: timedelta | None = None,
) -> UserPlan:
    """Single-entry rules, then contradictions among what survives them."""
    plan = UserPlan()
    current: list[MemoryEntry] = []
    for e in entries:
        if e.status is not Status.ACTIVE:
            continue
        change = entry_change(e, policy_of(e.source_agent_id), now, at, retention)
        if change is None:
            current.append(e)
            continue
        plan.changes.append(change)
        if change.after[0].status is Status.ACTIVE:
            current.append(change.after[0])
    # ``current`` holds decayed entries in their new state, so a flag on one builds on
    # its decay (the service applies the changes in order).
    flags, plan.contradictions = contradiction_changes(current, policy_of)
    plan.changes = grouped(plan.changes)
    if flags:
        plan.changes.extend(flags)
        flagged = {a.id: a for c in flags for a in c.after}
        current = [flagged.get(e.id, e) for e in current]
    plan.survivors = current
    return plan


def grouped(changes: Sequence[Change], size: int = CHANGESET_ENTRIES) -> list[Change]:
    """One changeset per rule and reason for up to ``size`` entries, instead of one per
    entry: each entry still gets its own version and history record, and the rule is
    applied to them all or to none."""
    buckets: dict[tuple[Rule, ChangeKind, str], list[Change]] = {}
    for c in changes:
        buckets.setdefault((c.rule, c.kind, c.reason), []).append(c)
    out: list[Change] = []
    for (rule, kind, reason), group in buckets.items():
        befores = [b for c in group for b in c.before]
        afters = [a for c in group for a in c.after]
        for i in range(0, len(befores), size):
            out.append(Change(rule, kind, reason, tuple(befores[i : i + size]), tuple(afters[i : i + size])))
    return out


def next_due(
    entries: Iterable[MemoryEntry],
    policy_of: PolicyOf,
    now: datetime,
    retention: timedelta | None = None,
) -> datetime | None:
    """The earliest time after ``now`` at which a time-based rule could change one of
    these (active) entries; None if none ever will. Writes mark the user due on their
    own, so contradictions, merges and summaries need no time here."""
    best: datetime | None = None

    def consider(t: datetime | None) -> None:
        nonlocal best
        if t is not None and t > now and (best is None or t < best):
            best = t

    for e in entries:
        if e.status is not Status.ACTIVE:
            continue
        p = policy_of(e.source_agent_id)
        consider(e.expires_at)
        if retention is not None:
            consider(e.created_at + retention)
        if p.enabled and p.stale_after is not None:
            consider(last_touch(e) + p.stale_after)
        if p.decay:
            consider(decay_anchor(e) + p.decay_after)
            if e.confidence < p.prune_below:
                consider(e.observed_at + p.prune_after + TICK)
    return best
