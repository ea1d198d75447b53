"""User control: proposals awaiting a user's decision, memory blocks and archival memory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from engram.domain.archival import ArchivalRecord
from engram.domain.blocks import BlockVersion, MemoryBlock
from engram.domain.models import Page
from engram.domain.proposals import Proposal, ProposalStatus


@dataclass(frozen=True, slots=True)
class ProposalQuery:
    """A listing of one user's proposals, newest first. ``statuses`` are effective ones:
    a stored pending proposal past its expiry counts as expired."""

    now: datetime
    statuses: tuple[ProposalStatus, ...] | None = None
    agent_id: str | None = None
    target_id: str | None = None
    limit: int = 50
    cursor: str | None = None


class ProposalRepository(Protocol):
    """Pending and decided proposals (behaviour item 11)."""

    def create_proposal(self, proposal: Proposal, now: datetime) -> list[str]:
        """Store a new proposal and, atomically with it, mark superseded by it every
        unexpired pending proposal of the same user for the same target; return their ids."""
        ...

    def get_proposal(self, tenant_id: str, user_id: str, proposal_id: str) -> Proposal | None: ...

    def list_proposals(self, tenant_id: str, user_id: str, query: ProposalQuery) -> Page[Proposal]: ...

    def update_proposal(self, proposal: Proposal, expected_revision: int) -> bool:
        """Replace the stored proposal if its revision is still ``expected_revision``
        (``proposal.revision`` must be the next one); False when another change won."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...


class BlockRepository(Protocol):
    """Memory blocks, their versions, and the archival memory they rotate into."""

    def get_block(self, tenant_id: str, user_id: str, agent_id: str, name: str) -> MemoryBlock | None: ...

    def list_blocks(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[MemoryBlock]:
        """The user's blocks (deleted ones too), of one agent or of all; by agent then name."""
        ...

    def commit_block(
        self, version: BlockVersion, expected_version: int | None, archival: Sequence[ArchivalRecord] = ()
    ) -> None:
        """Atomically make ``version.block`` current, append it to the history and store
        ``archival``, or nothing. ``expected_version`` None: the block must not exist yet.
        Raises ``VersionConflict`` when the stored version differs."""
        ...

    def block_history(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str,
        name: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[BlockVersion]:
        """Versions of one block, oldest first."""
        ...

    def block_version(
        self, tenant_id: str, user_id: str, agent_id: str, name: str, version: int
    ) -> BlockVersion | None: ...

    def get_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> list[ArchivalRecord]: ...

    def list_archival(
        self,
        tenant_id: str,
        user_id: str,
        agent_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[ArchivalRecord]:
        """Newest first."""
        ...

    def unindexed_archival(self, tenant_id: str, user_id: str, limit: int = 100) -> list[ArchivalRecord]:
        """Archival records committed but not yet confirmed in the search index."""
        ...

    def mark_archival_indexed(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> None: ...

    def delete_archival(self, tenant_id: str, user_id: str, archival_ids: Sequence[str]) -> int: ...

    def block_history_of_user(self, tenant_id: str, user_id: str) -> list[BlockVersion]:
        """Every version of every block of the user (export)."""
        ...

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]: ...
