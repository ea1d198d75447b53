"""What a reader may see of a user's memory: the one policy every read path applies.

Two readers exist. An **agent** reads to put memory into a prompt (recall, the memory
tools, MCP, any key without the admin role): the user's settings bind it fully. The
**owner** is the user's own console (an admin key on the REST routes): it sees what is
stored so that the user can inspect, correct and erase it, even with memory off.

For both, what has expired (its TTL) or outlived the user's retention is gone, even
before a dream run removes it: retention is ``created_at + retentionDays <= now``, the
same rule dream prunes by (docs/dream.md), so a read never shows what the next run
deletes. For an agent, memory off hides every memory (entries, blocks, archival
records, proposals, session summaries, cross-thread message search), and categories the
user did not allow are hidden. Export is the one exception: it is the user's copy of
everything held, expired or not. docs/security.md lists every route's rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from engram.domain.errors import MemoryDisabled
from engram.domain.models import MemoryEntry, Principal, UserSettings


class Reader(StrEnum):
    AGENT = "agent"
    OWNER = "owner"


def reader_of(principal: Principal, as_agent: bool = False) -> Reader:
    """Recall, tools and MCP pass ``as_agent``: what they return goes into a prompt."""
    return Reader.OWNER if principal.is_admin and not as_agent else Reader.AGENT


@dataclass(frozen=True, slots=True)
class ReadPolicy:
    now: datetime
    reader: Reader
    memory_enabled: bool = True
    allowed_categories: frozenset[str] | None = None
    retention: timedelta | None = None

    @classmethod
    def of(cls, settings: UserSettings, now: datetime, reader: Reader) -> ReadPolicy:
        return cls(
            now=now,
            reader=reader,
            memory_enabled=settings.memory_enabled,
            allowed_categories=None if settings.allowed_categories is None else frozenset(settings.allowed_categories),
            retention=None if settings.retention_days is None else timedelta(days=settings.retention_days),
        )

    @property
    def memory_readable(self) -> bool:
        """False when the user turned memory off and the reader is an agent."""
        return self.memory_enabled or self.reader is Reader.OWNER

    def require_readable(self) -> None:
        if not self.memory_readable:
            raise MemoryDisabled("This user has turned memory off; agents cannot read what was remembered.")

    def within_retention(self, created_at: datetime) -> bool:
        return self.retention is None or created_at + self.retention > self.now

    def allows(self, entry: MemoryEntry) -> bool:
        """May this reader see the entry (visibility scope is checked by the caller)?"""
        if not self.memory_readable or entry.is_expired(self.now) or not self.within_retention(entry.created_at):
            return False
        return (
            self.reader is Reader.OWNER or self.allowed_categories is None or entry.category in self.allowed_categories
        )

    def allows_record(self, created_at: datetime, expired: bool) -> bool:
        """Archival records and summaries: memory off, TTL and retention."""
        return self.memory_readable and not expired and self.within_retention(created_at)
