"""Mordecai's long-term namespaces as views over Engram's memory.

``/facts/{user}`` and ``/preferences/{user}`` are the user's live entries (preferences
by category, facts everything else), ``/summaries/{user}/{thread}`` the rolling thread
summaries. Nothing is copied: the views read the entries and summaries themselves, so
they can never disagree with them. ``search_memory`` takes a ``memory_type`` of all,
facts, preferences or summaries, and a relevance floor (Mordecai's 0.2 by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engram.domain.conversation import ThreadSummary, summary_doc_id
from engram.domain.errors import ValidationFailed
from engram.domain.models import MemoryEntry, Principal, Role
from engram.domain.policies import scope_for
from engram.domain.ranking import fuse
from engram.ports import Clock, ConversationRepository, DocKind, Embedder, SearchIndex, SearchQuery
from engram.service.conversation import ConversationService
from engram.service.memory import MemoryService, _require

PREFERENCE = "preference"
DEFAULT_MIN_SCORE = 0.2


class MemoryType(StrEnum):
    ALL = "all"
    FACTS = "facts"
    PREFERENCES = "preferences"
    SUMMARIES = "summaries"


@dataclass(frozen=True, slots=True)
class LongTermItem:
    namespace: str
    memory_type: MemoryType
    entry: MemoryEntry | None = None
    summary: ThreadSummary | None = None
    score: float | None = None


def namespace_of(user_id: str, entry: MemoryEntry) -> tuple[str, MemoryType]:
    kind = MemoryType.PREFERENCES if entry.category == PREFERENCE else MemoryType.FACTS
    return f"/{kind.value}/{user_id}", kind


def summary_namespace(s: ThreadSummary) -> str:
    return f"/summaries/{s.user_id}/{s.thread_id}"


@dataclass
class LongTermMemory:
    memory: MemoryService
    conversations: ConversationService
    repo: ConversationRepository
    index: SearchIndex
    embedder: Embedder
    clock: Clock

    def browse(
        self,
        principal: Principal,
        user_id: str,
        memory_type: MemoryType = MemoryType.ALL,
        thread_id: str | None = None,
        limit: int = 100,
    ) -> list[LongTermItem]:
        _require(principal, Role.VIEWER)
        items: list[LongTermItem] = []
        if memory_type is not MemoryType.SUMMARIES:
            cursor: str | None = None
            while len(items) < limit:
                page = self.memory.list_memories(principal, user_id, scope_for(principal), limit=500, cursor=cursor)
                for e in page.items:
                    ns, kind = namespace_of(user_id, e)
                    if memory_type in (MemoryType.ALL, kind):
                        items.append(LongTermItem(ns, kind, entry=e))
                cursor = page.next_cursor
                if cursor is None:
                    break
        if memory_type in (MemoryType.ALL, MemoryType.SUMMARIES) and self._summaries_readable(principal, user_id):
            for s in self.conversations.summaries(principal, user_id, thread_id):
                items.append(LongTermItem(summary_namespace(s), MemoryType.SUMMARIES, summary=s))
        return items[:limit]

    def search(
        self,
        principal: Principal,
        user_id: str,
        text: str,
        memory_type: MemoryType = MemoryType.ALL,
        limit: int = 10,
        min_score: float = DEFAULT_MIN_SCORE,
    ) -> list[LongTermItem]:
        _require(principal, Role.VIEWER)
        if not text.strip():
            raise ValidationFailed("The search text must not be empty.", field="q")
        found: list[LongTermItem] = []
        if memory_type is not MemoryType.SUMMARIES:
            # Over-fetch: facts and preferences share one index and are split here.
            for r in self.memory.search(principal, user_id, text, limit=limit * 3):
                ns, kind = namespace_of(user_id, r.entry)
                if memory_type in (MemoryType.ALL, kind) and r.score >= min_score:
                    found.append(LongTermItem(ns, kind, entry=r.entry, score=r.score))
        if memory_type in (MemoryType.ALL, MemoryType.SUMMARIES) and self._summaries_readable(principal, user_id):
            found.extend(self._summaries(principal, user_id, text, limit, min_score))
        found.sort(key=lambda i: (-(i.score or 0.0), i.namespace))
        return found[:limit]

    def _summaries_readable(self, principal: Principal, user_id: str) -> bool:
        # Session summaries are long-term memory: memory off hides them from agents.
        return self.memory.gate.policy(principal, user_id).memory_readable

    def _summaries(
        self, principal: Principal, user_id: str, text: str, limit: int, min_score: float
    ) -> list[LongTermItem]:
        hits = self.index.search(
            SearchQuery(
                tenant_id=principal.tenant_id,
                user_id=user_id,
                now=self.clock.now(),
                text=text,
                vector=self.embedder.embed([text])[0],
                scope=scope_for(principal),
                kinds=(DocKind.SUMMARY,),
                k=max(limit * 2, 10),
            )
        )
        if not hits:
            return []
        scores = fuse([h.keyword for h in hits], [h.semantic for h in hits], self.memory.fusion)
        out: list[LongTermItem] = []
        for hit, score in zip(hits, scores, strict=True):
            if score < min_score:
                continue
            thread_id = hit.id.split("|", 1)[1] if hit.id.startswith("sum|") else None
            summary = None if thread_id is None else self.repo.get_summary(principal.tenant_id, user_id, thread_id)
            # The repository is the truth; the index only proposes.
            if summary is None or summary_doc_id(summary.thread_id) != hit.id:
                continue
            if not (principal.is_admin or summary.agent_id == principal.agent_id):
                continue
            out.append(LongTermItem(summary_namespace(summary), MemoryType.SUMMARIES, summary=summary, score=score))
        return out
