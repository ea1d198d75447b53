"""Export and erasure of everything Engram holds about a user (behaviour item 18)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.domain.errors import ConfirmationRequired
from engram.domain.models import (
    Changeset,
    ErasureReceipt,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Principal,
    Role,
    Status,
)
from engram.domain.policies import require_role
from engram.domain.serialization import (
    entry_from_dict,
    entry_to_dict,
    history_from_dict,
    history_to_dict,
    profile_from_dict,
    profile_to_dict,
    settings_from_dict,
    settings_to_dict,
    ts,
)
from engram.ports import (
    Clock,
    EntryQuery,
    MemoryRepository,
    ProfileRepository,
    ResidueScrubber,
    SearchIndex,
    UserDataEraser,
    UserErasure,
)

CONFIRMATION = "CONFIRM"

Exporter = Callable[[str, str], dict[str, Any]]


@dataclass
class PrivacyService:
    entries: MemoryRepository
    profiles: ProfileRepository
    # The tombstone and the deletion of the user's core rows (entries, history, profile).
    erasure: UserErasure
    index: SearchIndex
    clock: Clock
    # Later features (conversations, proposals, blocks...) register their own stores so
    # that export and erasure always cover everything.
    erasers: dict[str, UserDataEraser] = field(default_factory=dict)
    exporters: dict[str, Exporter] = field(default_factory=dict)

    def export(self, principal: Principal, user_id: str) -> dict[str, Any]:
        require_role(principal, Role.ADMIN)
        t = principal.tenant_id
        entries: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = self.entries.list_entries(
                t,
                user_id,
                EntryQuery(
                    now=self.clock.now(),
                    statuses=tuple(Status),
                    include_expired=True,
                    limit=1000,
                    cursor=cursor,
                ),
            )
            entries.extend(entry_to_dict(e) for e in page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
        profile = self.profiles.get_profile(t, user_id)
        settings = self.profiles.get_settings(t, user_id)
        out: dict[str, Any] = {
            "tenantId": t,
            "userId": user_id,
            "exportedAt": ts(self.clock.now()),
            "entries": entries,
            "history": [history_to_dict(h) for h in self.entries.history_of_user(t, user_id)],
            "profile": None if profile is None else profile_to_dict(profile),
            "settings": None if settings is None else settings_to_dict(settings),
        }
        for name, exporter in self.exporters.items():
            out[name] = exporter(t, user_id)
        return out

    def erase(self, principal: Principal, user_id: str, confirmation: str | None) -> ErasureReceipt:
        require_role(principal, Role.ADMIN)
        if confirmation != CONFIRMATION:
            raise ConfirmationRequired(
                "Erasing a user deletes everything about them for good; pass confirm=CONFIRM to proceed."
            )
        t = principal.tenant_id
        erased_at = self.clock.now()
        # The tombstone goes first: any write still in flight or queued for this user
        # (extraction of a message already appended, a concurrent PUT) began before it
        # and is refused atomically by the store, so nothing reappears after the erase.
        self.erasure.mark_erased(t, user_id, erased_at)
        counts: dict[str, int] = {}
        for name, eraser in self.erasers.items():
            counts.update({f"{name}.{k}" if k in counts else k: v for k, v in eraser.erase_user(t, user_id).items()})
        counts.update(self.erasure.erase_user(t, user_id))
        counts.update(self.index.erase_user(t, user_id))
        # Deleted rows can live on in an embedded database's log and free pages; each
        # store that can keep such residue clears it once all its erasers have run.
        stores = (self.erasure, self.index, *self.erasers.values())
        scrubbers = {id(s): s for s in stores if isinstance(s, ResidueScrubber)}
        for scrubber in scrubbers.values():
            scrubber.scrub_residue()
        return ErasureReceipt(t, user_id, erased_at, counts)


def import_user(
    memories: MemoryRepository,
    profiles: ProfileRepository,
    data: dict[str, Any],
    tenant_id: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, int]:
    """Load an export back (same or another tenant), identities and history intact.

    Identities that already exist are left alone and counted as skipped: an import never
    overwrites what is there.
    """
    t = tenant_id or str(data["tenantId"])
    user_id = str(data["userId"])
    by_identity = _by_identity(data, t)
    counts = {"identities": 0, "entries": 0, "history": 0, "skipped": 0}
    for n, (identity, (ents, hist)) in enumerate(by_identity.items(), 1):
        if progress is not None:
            progress(n, len(by_identity))
        if memories.get_identity(t, user_id, identity) is not None:
            counts["skipped"] += 1
            continue
        memories.apply(*_restored(t, user_id, identity, ents, hist))
        counts["identities"] += 1
        counts["entries"] += len(ents)
        counts["history"] += len(hist)
    if data.get("profile"):
        profiles.put_profile(profile_from_dict({**data["profile"], "tenantId": t}))
    if data.get("settings"):
        profiles.put_settings(settings_from_dict({**data["settings"], "tenantId": t}))
    return counts


def _by_identity(data: dict[str, Any], tenant_id: str) -> dict[str, tuple[list[MemoryEntry], list[HistoryRecord]]]:
    """The export's entries and history, grouped by identity, moved to ``tenant_id``."""
    t = tenant_id
    by_identity: dict[str, tuple[list[MemoryEntry], list[HistoryRecord]]] = {}
    for d in data.get("entries", []):
        e = entry_from_dict({**d, "tenantId": t})
        by_identity.setdefault(e.identity_id, ([], []))[0].append(e)
    for d in data.get("history", []):
        h = history_from_dict({**d, "tenantId": t, "entry": {**d["entry"], "tenantId": t}})
        by_identity.setdefault(h.identity_id, ([], []))[1].append(h)
    return by_identity


def _restored(
    tenant_id: str, user_id: str, identity: str, ents: list[MemoryEntry], hist: list[HistoryRecord]
) -> tuple[Changeset, datetime]:
    """The changeset that creates one identity as exported, and when it was last changed."""
    version = max([h.version for h in hist] + [e.version for e in ents] + [1])
    current = next((e.id for e in ents if e.status is Status.ACTIVE), None)
    guard = IdentityGuard(identity, None, version, current)
    now = max([e.updated_at for e in ents] + [h.at for h in hist])
    return Changeset(tenant_id, user_id, (guard,), tuple(ents), tuple(hist)), now
