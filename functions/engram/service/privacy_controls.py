"""The user's privacy controls (Mona, section 6): "what do you remember about me?" and
"forget that" by entry, by key or by category, plus archival memory by id."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engram.domain.block_schema import BlockSchema
from engram.domain.blocks import MemoryBlock
from engram.domain.models import MemoryEntry, Principal, Role, UserSettings, Visibility
from engram.domain.policies import require_role, scope_for
from engram.domain.proposals import ProposalStatus
from engram.service.archival import ArchivalService
from engram.service.blocks import BlockService
from engram.service.memory import MemoryService
from engram.service.proposals import ProposalService

# What one answer holds at most; the memories listing pages through the rest.
REMEMBERED_LIMIT = 2000


@dataclass(frozen=True, slots=True)
class RememberedView:
    settings: UserSettings
    by_category: dict[str, list[MemoryEntry]]
    blocks: list[tuple[MemoryBlock, BlockSchema]]
    archival_count: int
    pending_proposals: int
    truncated: bool


@dataclass(frozen=True, slots=True)
class Forgotten:
    entries: list[MemoryEntry] = field(default_factory=list)
    archival: list[str] = field(default_factory=list)


@dataclass
class PrivacyControls:
    memory: MemoryService
    blocks: BlockService
    archival: ArchivalService
    proposals: ProposalService

    def remembered(self, principal: Principal, user_id: str) -> RememberedView:
        """Everything live about the user in this key's view (an admin key: everything)."""
        require_role(principal, Role.VIEWER)
        entries: list[MemoryEntry] = []
        cursor: str | None = None
        truncated = False
        while True:
            page = self.memory.list_memories(principal, user_id, scope_for(principal), limit=500, cursor=cursor)
            entries.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
            if len(entries) >= REMEMBERED_LIMIT:
                truncated = True
                break
        grouped: dict[str, list[MemoryEntry]] = {}
        for e in sorted(entries[:REMEMBERED_LIMIT], key=lambda e: (e.category, e.key, e.id)):
            grouped.setdefault(e.category, []).append(e)
        archival = 0
        cursor = None
        while True:
            arc = self.archival.list_records(principal, user_id, limit=1000, cursor=cursor)
            archival += len(arc.items)
            cursor = arc.next_cursor
            if cursor is None:
                break
        pending = self.proposals.list_proposals(principal, user_id, statuses=(ProposalStatus.PENDING,), limit=1000)
        return RememberedView(
            settings=self.memory.profiles.get_settings(principal.tenant_id, user_id)
            or UserSettings(principal.tenant_id, user_id),
            by_category=grouped,
            blocks=self.blocks.list_blocks(principal, user_id),
            archival_count=archival,
            pending_proposals=len(pending.items),
            truncated=truncated,
        )

    def forget(
        self,
        principal: Principal,
        user_id: str,
        *,
        entry_ids: Sequence[str] = (),
        keys: Sequence[str] = (),
        categories: Sequence[str] = (),
        archival_ids: Sequence[str] = (),
    ) -> Forgotten:
        """Forget what the caller may forget: by id anything it sees; by key or category
        its own and global memories (an admin key: everything of the user)."""
        require_role(principal, Role.WRITER)
        forgotten: dict[str, MemoryEntry] = {}
        for entry_id in dict.fromkeys(entry_ids):
            gone = self.memory.delete(principal, user_id, entry_id, "forgotten on request")
            forgotten[gone.id] = gone
        for key in dict.fromkeys(keys):
            for gone in self.memory.delete_by_key(principal, user_id, key):
                forgotten[gone.id] = gone
        for category in dict.fromkeys(categories):
            for gone in self.delete_by_category(principal, user_id, category):
                forgotten[gone.id] = gone
        archived = self.archival.forget(principal, user_id, archival_ids) if archival_ids else []
        return Forgotten(list(forgotten.values()), archived)

    def delete_by_category(self, principal: Principal, user_id: str, category: str) -> list[MemoryEntry]:
        targets: list[MemoryEntry] = []
        cursor: str | None = None
        while True:
            page = self.memory.list_memories(
                principal, user_id, scope_for(principal), category=category, limit=500, cursor=cursor, forgetting=True
            )
            targets.extend(
                e
                for e in page.items
                if principal.is_admin or e.source_agent_id == principal.agent_id or e.visibility is Visibility.GLOBAL
            )
            cursor = page.next_cursor
            if cursor is None:
                break
        return [self.memory.delete(principal, user_id, e.id, f"forgot category {category}") for e in targets]
