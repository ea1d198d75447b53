"""One user's dream pass: applies the changes a plan decided, one changeset each, under
the identities' versions it read, threading the versions it wrote so that a later change
to the same entry builds on them. An entry a concurrent writer changed first is left
alone (``UserPass.lost``), never written over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from engram.domain.dream import (
    CHANGESET_ENTRIES,
    DREAM_ACTOR,
    Change,
    Rule,
)
from engram.domain.dream_run import Stats
from engram.domain.errors import VersionConflict
from engram.domain.models import (
    ChangeKind,
    Changeset,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Status,
)
from engram.domain.writes import WriteRequest, plan_write
from engram.ports import (
    MemoryRepository,
)

# An LLM's summary is a derived fact (design item 14: an LLM's confidence is 0.85).
SUMMARY_CONFIDENCE = 0.85
# Rules that change one entry each, never the same entry twice in a pass: their changes
# can share a changeset. Flags follow (and may build on a decay), so they stay apart.
_SINGLE_ENTRY = frozenset({Rule.EXPIRE, Rule.RETENTION, Rule.PRUNE_STALE, Rule.DECAY, Rule.PRUNE_LOW_CONFIDENCE})


class UserPass:
    """One user's pass: applies changes one changeset each, threading the versions it
    wrote so a later change to the same entry builds on them."""

    def __init__(self, entries: MemoryRepository, tenant_id: str, user_id: str, stats: Stats, at: datetime) -> None:
        self.entries = entries
        self.tenant_id = tenant_id
        self.user_id = user_id
        self.stats = stats
        self.at = at
        self.written: dict[str, MemoryEntry] = {}
        self.lost: set[str] = set()  # entries a concurrent writer changed first

    def _guard(self, before: MemoryEntry) -> tuple[MemoryEntry, int, str | None]:
        before = self.written.get(before.id, before)
        state = self.entries.get_identity(self.tenant_id, self.user_id, before.identity_id)
        if state is None or state.current_entry_id != before.id:
            raise VersionConflict("The entry is no longer its identity's current one.")
        if state.version != before.version:
            # A stale-marked write bumps the identity alone; anything else changed the
            # entry, which this pass must not overwrite with what it read.
            fresh = self.entries.get_entry(self.tenant_id, self.user_id, before.id)
            if fresh is None or fresh.version != before.version or fresh.status is not Status.ACTIVE:
                raise VersionConflict("The entry changed since dream read it.")
        return before, state.version, state.current_entry_id

    def _commit(self, guards: list[IdentityGuard], entries: list[MemoryEntry], history: list[HistoryRecord]) -> None:
        changeset = Changeset(self.tenant_id, self.user_id, tuple(guards), tuple(entries), tuple(history))
        self.entries.apply(changeset, self.at)

    def apply_all(self, changes: list[Change]) -> None:
        """Changes to distinct entries in one changeset (each entry's history version keeps
        its own rule and reason); on any conflict, each change on its own."""
        if len(changes) == 1:
            self.apply(changes[0])
            return
        guards: list[IdentityGuard] = []
        entries: list[MemoryEntry] = []
        history: list[HistoryRecord] = []
        for change in changes:
            for b, a in zip(change.before, change.after, strict=True):
                b = self.written.get(b.id, b)
                keep = b.id if a.status is Status.ACTIVE else None
                guards.append(IdentityGuard(b.identity_id, b.version, a.version, keep))
                entries.append(a)
                history.append(self._record(change, a))
        try:
            self._commit(guards, entries, history)
        except VersionConflict:
            for change in changes:
                self.apply(change)
            return
        for change in changes:
            self._done(change, list(zip(change.before, change.after, strict=True)))

    def apply(self, change: Change) -> bool:
        """Apply one change as one changeset, guarded on the versions dream read. If a
        guard fails, the identities are read again: an entry a concurrent writer changed
        is left out (its write marked the user due again, so the next run sees the new
        state) and the rest is applied; a merge is all or nothing."""
        pairs = [(self.written.get(b.id, b), a) for b, a in zip(change.before, change.after, strict=True)]
        guards = [
            IdentityGuard(b.identity_id, b.version, a.version, b.id if a.status is Status.ACTIVE else None)
            for b, a in pairs
        ]
        try:
            self._commit(guards, [a for _, a in pairs], [self._record(change, a) for _, a in pairs])
        except VersionConflict:
            return self._apply_checked(change, pairs)
        self._done(change, pairs)
        return True

    def _apply_checked(self, change: Change, pairs: list[tuple[MemoryEntry, MemoryEntry]]) -> bool:
        kept: list[tuple[MemoryEntry, MemoryEntry]] = []
        guards: list[IdentityGuard] = []
        for before, after in pairs:
            try:
                before, version, current = self._guard(before)
            except VersionConflict:
                self.stats.version_conflicts += 1
                self.lost.add(before.id)
                if change.rule is Rule.MERGE_DUPLICATES:
                    return False
                continue
            stamped = after.evolve(version=version + 1)
            keep = current if after.status is Status.ACTIVE else None
            guards.append(IdentityGuard(before.identity_id, version, version + 1, keep))
            kept.append((before, stamped))
        if not kept:
            return False
        try:
            self._commit(guards, [a for _, a in kept], [self._record(change, a) for _, a in kept])
        except VersionConflict:
            # A writer slipped in between the checks and the commit.
            self.stats.version_conflicts += len(kept)
            self.lost.update(b.id for b, _ in kept)
            return False
        self._done(change, kept)
        return len(kept) == len(pairs)

    def _record(self, change: Change, entry: MemoryEntry) -> HistoryRecord:
        return HistoryRecord(
            self.tenant_id,
            self.user_id,
            entry.identity_id,
            entry.version,
            entry,
            change.kind,
            DREAM_ACTOR,
            change.reason,
            self.at,
        )

    def _done(self, change: Change, pairs: list[tuple[MemoryEntry, MemoryEntry]]) -> None:
        for _, a in pairs:
            self.written[a.id] = a
        self.stats.count(
            Change(change.rule, change.kind, change.reason, tuple(b for b, _ in pairs), tuple(a for _, a in pairs))
        )

    def write_summary(
        self, group: list[MemoryEntry], key: str, text: str, ttl: Mapping[str, timedelta | None]
    ) -> MemoryEntry | None:
        first = group[0]
        req = WriteRequest(
            tenant_id=self.tenant_id,
            user_id=self.user_id,
            key=key,
            value=text,
            category=first.category,
            visibility=first.visibility,
            agent_id=first.source_agent_id,
            actor=DREAM_ACTOR,
            group_ids=first.group_ids,
            importance=max(e.importance for e in group),
            confidence=SUMMARY_CONFIDENCE,
            reason=f"dream: summarised {len(group)} entries",
            ttl=ttl,
        )
        state = self.entries.get_identity(self.tenant_id, self.user_id, req.identity)
        current = None
        if state is not None and state.current_entry_id is not None:
            current = self.entries.get_entry(self.tenant_id, self.user_id, state.current_entry_id)
        plan = plan_write(req, current, None if state is None else state.version, self.at)
        summary = plan.entry
        guards, entries, history = [plan.guard], list(plan.entries), list(plan.history)
        try:
            for e in group:
                if e.identity_id == req.identity:
                    continue  # the previous summary: plan_write superseded it already
                before, version, _ = self._guard(e)
                nv = version + 1
                gone = before.evolve(
                    status=Status.SUPERSEDED, superseded_by=summary.id, valid_to=self.at, updated_at=self.at, version=nv
                )
                guards.append(IdentityGuard(e.identity_id, version, nv, None))
                entries.append(gone)
                history.append(
                    HistoryRecord(
                        self.tenant_id,
                        self.user_id,
                        e.identity_id,
                        nv,
                        gone,
                        ChangeKind.SUMMARIZED,
                        DREAM_ACTOR,
                        f"dream: summarised into {summary.id}",
                        self.at,
                    )
                )
            self._commit(guards, entries, history)
        except VersionConflict:
            self.stats.version_conflicts += 1
            return None
        self.stats.summaries_written += 1
        self.stats.entries_summarized += len(group)
        return summary


def in_changesets(changes: Sequence[Change], size: int = CHANGESET_ENTRIES) -> list[list[Change]]:
    """Consecutive single-entry-rule changes packed into changesets of up to ``size``
    entries (fewer commits per user); every other change on its own."""
    out: list[list[Change]] = []
    current: list[Change] = []
    n = 0
    for c in changes:
        if c.rule not in _SINGLE_ENTRY:
            if current:
                out.append(current)
                current, n = [], 0
            out.append([c])
            continue
        if current and n + len(c.before) > size:
            out.append(current)
            current, n = [], 0
        current.append(c)
        n += len(c.before)
    if current:
        out.append(current)
    return out
