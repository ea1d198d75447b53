"""Archival memory: what rotated out of core memory blocks, searchable by keyword and
meaning through the shared ``SearchIndex`` (documents of kind ``ARCHIVAL``).

The block store is the truth: records are committed with the block version that moved
them out, then indexed. A record whose indexing failed stays marked unindexed and is
indexed again at the next archival write or search of that user, so nothing committed is
lost to search for longer than one failure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from aws_lambda_powertools import Logger

from engram.domain.archival import ArchivalRecord
from engram.domain.errors import EngramError, Forbidden, NotFound, ValidationFailed
from engram.domain.models import Page, Principal, Role, Visibility
from engram.domain.policies import VisibilityScope, require_role
from engram.domain.ranking import HybridWeights, ScoreParts, Signals, weights_for
from engram.domain.read_policy import ReadPolicy
from engram.ports import BlockRepository, Clock, DocKind, Embedder, IndexDocument, SearchHit, SearchIndex
from engram.service.read_gate import ReadGate
from engram.service.retrieval import Ask, IndexWriter, Retriever, candidates_for, rank_found

logger = Logger(service="engram", child=True)

SearchMode = Literal["hybrid", "keyword", "semantic"]


@dataclass(frozen=True, slots=True)
class ArchivalHit:
    record: ArchivalRecord
    score: float
    keyword: float  # raw BM25
    semantic: float  # raw cosine
    parts: ScoreParts | None = None
    matched_by: tuple[str, ...] = ()
    why: str = ""


def archival_document(r: ArchivalRecord, vector: Sequence[float] | None, model_id: str | None) -> IndexDocument:
    # Archival memory belongs to the agent whose block it left: "self" to that agent.
    return IndexDocument(
        id=r.id,
        tenant_id=r.tenant_id,
        user_id=r.user_id,
        kind=DocKind.ARCHIVAL,
        text=r.text,
        vector=vector,
        model_id=model_id,
        visibility=Visibility.SELF.value,
        source_agent_id=r.agent_id,
        category=r.block,
        key=r.kind.value,
        updated_at=r.created_at,
        expires_at=r.expires_at,
    )


@dataclass
class ArchivalService:
    repo: BlockRepository
    index: SearchIndex
    embedder: Embedder
    clock: Clock
    # The one ranking recall uses; None: tuned for the embedder (domain/ranking.py).
    weights: HybridWeights | None = None
    # Memory off hides archival memory from agents; retention ends it (the read policy).
    gate: ReadGate | None = None

    def index_records(self, tenant_id: str, user_id: str, records: Sequence[ArchivalRecord] = ()) -> int:
        """Index ``records`` and whatever of the user's archival an earlier failure left
        unindexed; return how many went in. Never raises: the records are committed."""
        pending = {r.id: r for r in records}
        try:
            for r in self.repo.unindexed_archival(tenant_id, user_id):
                pending.setdefault(r.id, r)
            if not pending:
                return 0
            todo = list(pending.values())
            IndexWriter(self.index, self.embedder).write(
                [archival_document(r, None, None) for r in todo], [r.text for r in todo]
            )
            self.repo.mark_archival_indexed(tenant_id, user_id, [r.id for r in todo])
            return len(todo)
        except Exception as exc:
            # After the commit indexing is best effort: the records stay marked unindexed and the next archival write
            # or search of this user indexes them.
            code = exc.code if isinstance(exc, EngramError) else type(exc).__name__
            logger.warning("archival indexing deferred", extra={"error_code": code, "records": len(pending)})
            return 0

    def _scope(self, principal: Principal, agent_id: str | None) -> VisibilityScope:
        if agent_id is not None and agent_id != principal.agent_id and not principal.is_admin:
            raise Forbidden("Only an admin key may read another agent's archival memory.", agentId=agent_id)
        if agent_id is None and principal.is_admin:
            return VisibilityScope(principal.agent_id, everything=True)
        return VisibilityScope(agent_id or principal.agent_id)

    def search(
        self,
        principal: Principal,
        user_id: str,
        text: str,
        *,
        limit: int = 10,
        agent_id: str | None = None,
        mode: SearchMode = "hybrid",
        min_score: float | None = None,
    ) -> list[ArchivalHit]:
        """Archival records relevant to ``text`` by recall's one ranking, at or above
        ``min_score`` (None: the embedder's tuned minimum); ``keyword`` and ``semantic``
        modes rank by that component alone."""
        require_role(principal, Role.VIEWER)
        if not text.strip():
            raise ValidationFailed("The search text must not be empty.", field="q")
        t = principal.tenant_id
        scope = self._scope(principal, agent_id)
        policy = self._policy(principal, user_id)
        if policy is not None and not policy.memory_readable:
            return []
        self.index_records(t, user_id)
        now = self.clock.now()
        hits = Retriever(self.index, self.embedder).hits(
            Ask(
                t,
                user_id,
                now,
                text,
                scope,
                (DocKind.ARCHIVAL,),
                candidates_for(limit),
                keyword=mode != "semantic",
                semantic=mode != "keyword",
            )
        )
        if not hits:
            return []
        records = self._confirmed(t, user_id, hits, policy, scope, now)
        if mode == "keyword":
            records = {rid: r for rid, r in records.items() if hits[rid].keyword > 0}
        weights = self._weights(mode)
        found = rank_found(
            hits,
            records,
            lambda r, h: Signals(h.keyword, 0.0 if mode == "keyword" else h.semantic, 50, 1.0, r.created_at),
            weights,
            now,
            weights.min_score if min_score is None else min_score,
        )
        return [
            ArchivalHit(f.item, f.score, f.hit.keyword, f.hit.semantic, f.parts, f.matched_by, f.why)
            for f in found[:limit]
        ]

    def list_records(
        self,
        principal: Principal,
        user_id: str,
        *,
        agent_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[ArchivalRecord]:
        require_role(principal, Role.VIEWER)
        scope = self._scope(principal, agent_id)
        policy = self._policy(principal, user_id)
        if policy is not None and not policy.memory_readable:
            return Page([])
        now = self.clock.now()
        page = self.repo.list_archival(
            principal.tenant_id, user_id, None if scope.everything else scope.agent_id, limit, cursor
        )
        return Page([r for r in page.items if self._allows(policy, r, now)], page.next_cursor)

    def get(self, principal: Principal, user_id: str, archival_id: str) -> ArchivalRecord:
        require_role(principal, Role.VIEWER)
        policy = self._policy(principal, user_id)
        if policy is not None:
            policy.require_readable()
        return self._get(principal, user_id, archival_id, policy)

    def _confirmed(
        self,
        tenant_id: str,
        user_id: str,
        hits: Mapping[str, SearchHit],
        policy: ReadPolicy | None,
        scope: VisibilityScope,
        now: datetime,
    ) -> dict[str, ArchivalRecord]:
        """The hits' records this reader may see. The repository is the truth: the index
        only proposes."""
        return {
            r.id: r
            for r in self.repo.get_archival(tenant_id, user_id, list(hits))
            if self._allows(policy, r, now) and (scope.everything or r.agent_id == scope.agent_id)
        }

    def _weights(self, mode: SearchMode) -> HybridWeights:
        weights = self.weights or weights_for(self.embedder.model_id)
        if mode == "hybrid":
            return weights
        # One component alone, scaled by this query's best match (no floor): a keyword
        # search returns what shares a word, a semantic one what is nearest.
        return replace(weights, semantic=1.0 if mode == "semantic" else 0.0, keyword_floor=1e-9)

    def _policy(self, principal: Principal, user_id: str) -> ReadPolicy | None:
        return None if self.gate is None else self.gate.policy(principal, user_id)

    @staticmethod
    def _allows(policy: ReadPolicy | None, r: ArchivalRecord, now: datetime) -> bool:
        if policy is None:
            return not r.is_expired(now)
        return policy.allows_record(r.created_at, r.is_expired(now))

    def _get(self, principal: Principal, user_id: str, archival_id: str, policy: ReadPolicy | None) -> ArchivalRecord:
        found = self.repo.get_archival(principal.tenant_id, user_id, [archival_id])
        if not found or not self._allows(policy, found[0], self.clock.now()):
            raise NotFound("No archival memory with that id is visible to this key.", archivalId=archival_id)
        record = found[0]
        if record.agent_id != principal.agent_id and not principal.is_admin:
            raise NotFound("No archival memory with that id is visible to this key.", archivalId=archival_id)
        return record

    def forget(self, principal: Principal, user_id: str, archival_ids: Sequence[str]) -> list[str]:
        """Delete archival records for good (the store first, then the index)."""
        require_role(principal, Role.WRITER)
        # Forgetting works with memory off and on what retention already ended.
        mine = [self._get(principal, user_id, i, None).id for i in dict.fromkeys(archival_ids)]
        self.repo.delete_archival(principal.tenant_id, user_id, mine)
        self.index.delete(principal.tenant_id, user_id, mine)
        return mine

    def export(self, tenant_id: str, user_id: str) -> list[ArchivalRecord]:
        out: list[ArchivalRecord] = []
        cursor: str | None = None
        while True:
            page = self.repo.list_archival(tenant_id, user_id, None, 1000, cursor)
            out.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return out
