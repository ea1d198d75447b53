"""Mordecai's long-term namespaces as views over Engram's memory.

``/facts/{user}`` and ``/preferences/{user}`` are the user's live entries (preferences
by category, facts everything else), ``/summaries/{user}/{thread}`` the rolling thread
summaries. Nothing is copied: the views read the entries and summaries themselves, so
they can never disagree with them. ``search_memory`` takes a ``memory_type`` of all,
facts, preferences or summaries, and ranks with recall's one ranking above its minimum
score (the embedder's tuned one unless the caller names another).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engram.domain.conversation import ThreadKey, ThreadSummary, parse_summary_doc_id, summary_doc_id
from engram.domain.errors import ValidationFailed
from engram.domain.models import MemoryEntry, Principal, Role
from engram.domain.policies import require_role, scope_for
from engram.domain.ranking import ScoreParts, Signals
from engram.ports import Clock, ConversationRepository, DocKind, Embedder, SearchIndex
from engram.service.conversation import ConversationService
from engram.service.memory import MemoryService
from engram.service.retrieval import Ask, Retriever, candidates_for, rank_found

PREFERENCE = "preference"
# A thread summary has no importance or confidence of its own: the middle of the scale.
SUMMARY_IMPORTANCE = 50


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
    parts: ScoreParts | None = None
    matched_by: tuple[str, ...] = ()
    why: str | None = None


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
        require_role(principal, Role.VIEWER)
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
        min_score: float | None = None,
    ) -> list[LongTermItem]:
        require_role(principal, Role.VIEWER)
        if not text.strip():
            raise ValidationFailed("The search text must not be empty.", field="q")
        found: list[LongTermItem] = []
        if memory_type is not MemoryType.SUMMARIES:
            # Over-fetch: facts and preferences share one index and are split here.
            for r in self.memory.search(principal, user_id, text, limit=limit * 3, min_score=min_score):
                ns, kind = namespace_of(user_id, r.entry)
                if memory_type in (MemoryType.ALL, kind):
                    found.append(LongTermItem(ns, kind, r.entry, None, r.score, r.parts, r.matched_by, r.why))
        if memory_type in (MemoryType.ALL, MemoryType.SUMMARIES) and self._summaries_readable(principal, user_id):
            found.extend(self._summaries(principal, user_id, text, limit, min_score))
        found.sort(key=lambda i: (-(i.score or 0.0), i.namespace))
        return found[:limit]

    def _summaries_readable(self, principal: Principal, user_id: str) -> bool:
        # Session summaries are long-term memory: memory off hides them from agents.
        return self.memory.gate.policy(principal, user_id).memory_readable

    def _summaries(
        self, principal: Principal, user_id: str, text: str, limit: int, min_score: float | None
    ) -> list[LongTermItem]:
        now = self.clock.now()
        scope = scope_for(principal)
        hits = Retriever(self.index, self.embedder).hits(
            Ask(principal.tenant_id, user_id, now, text, scope, (DocKind.SUMMARY,), candidates_for(limit))
        )
        summaries: dict[str, ThreadSummary] = {}
        for hit in hits.values():
            named = parse_summary_doc_id(hit.id)
            summary = None if named is None else self.repo.get_summary(ThreadKey(principal.tenant_id, user_id, *named))
            # The repository is the truth; the index only proposes.
            if summary is None or summary_doc_id(summary.agent_id, summary.thread_id) != hit.id:
                continue
            if principal.is_admin or summary.agent_id == principal.agent_id:
                summaries[hit.id] = summary
        weights = self.memory.ranking
        found = rank_found(
            hits,
            summaries,
            lambda s, h: Signals(h.keyword, h.semantic, SUMMARY_IMPORTANCE, 1.0, s.updated_at),
            weights,
            now,
            weights.min_score if min_score is None else min_score,
        )
        return [
            LongTermItem(
                summary_namespace(f.item), MemoryType.SUMMARIES, None, f.item, f.score, f.parts, f.matched_by, f.why
            )
            for f in found
        ]
