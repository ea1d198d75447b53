"""Recall: what an agent should know about the user for this turn (behaviour item 12).

Tier 1 is always there: who the user is (name, nickname, pronouns, what they call this
agent) and their top core preferences by importance. Tier 2 is the top-k memories for
the message by the hybrid score (``engram.domain.ranking``), above a minimum score.
Both are rendered into one context block within a token budget
(``engram.domain.rendering``), and every item says why it is there.

Only what the calling agent may see is considered (global entries, its own self
entries, its groups' entries), whatever roles its key has: the block goes into that
agent's prompt. The index proposes candidates; the store decides: anything superseded,
deleted, expired or past the user's retention never comes back, even while the index
lags behind.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from aws_lambda_powertools import Logger

from engram.domain.errors import StoreUnavailable, ValidationFailed
from engram.domain.models import MemoryEntry, Principal, Role, Status, UserProfile, UserSettings
from engram.domain.policies import VisibilityScope
from engram.domain.ranking import HybridWeights, ScoreParts, Signals, rank, weights_for
from engram.domain.read_policy import Reader, ReadPolicy
from engram.domain.rendering import Identity, Memory, Rendered, render
from engram.ports import (
    Clock,
    CoreMemoryReader,
    DocKind,
    Embedder,
    EntryQuery,
    SearchHit,
    SearchIndex,
    SearchQuery,
    Store,
)
from engram.service.access import Access, AccessRecorder
from engram.service.agents import AgentConfigService
from engram.service.memory import _require

logger = Logger(service="engram", child=True)

CORE_CATEGORY = "preference"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# How many candidates the index proposes per component, per memory asked for.
CANDIDATES_PER_ITEM = 4
MIN_CANDIDATES = 20


@dataclass(frozen=True, slots=True)
class RecallRequest:
    message: str
    token_budget: int = 1000
    top_k: int = 5
    min_score: float | None = None  # None: the tuned default of the embedder's weights
    categories: tuple[str, ...] | None = None  # narrows tier 2 only
    core_preferences: int = 5


@dataclass(frozen=True, slots=True)
class RecallItem:
    entry: MemoryEntry
    tier: int
    rank: int
    why: str
    parts: ScoreParts | None = None
    matched_by: tuple[str, ...] = ()
    keyword_raw: float = 0.0
    semantic_raw: float = 0.0


@dataclass(frozen=True, slots=True)
class RecallResult:
    user_id: str
    agent_id: str
    identity: Identity
    preferences: list[RecallItem]
    memories: list[RecallItem]
    rendered: Rendered
    model_id: str
    min_score: float
    memory_enabled: bool
    considered: int
    below_min_score: int
    over_budget: tuple[str, ...]
    timings_ms: dict[str, float] = field(default_factory=dict)
    # The search index could not answer: tier 2 came from a keyword match over the store.
    degraded: bool = False


class CoreByListing:
    """Tier 1 for any repository: page through the category and keep the top entries.

    Backends with an index on importance (the embedded store) provide their own
    ``CoreMemoryReader`` instead; this one costs a read of every entry of the category.
    """

    def __init__(self, store: Store) -> None:
        self._store = store

    def top_by_importance(
        self,
        tenant_id: str,
        user_id: str,
        scope: VisibilityScope,
        category: str,
        now: datetime,
        limit: int,
    ) -> list[MemoryEntry]:
        from engram.ports import EntryQuery

        found: list[MemoryEntry] = []
        cursor: str | None = None
        while True:
            page = self._store.list_entries(
                tenant_id, user_id, EntryQuery(now=now, scope=scope, category=category, limit=500, cursor=cursor)
            )
            found.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
        found.sort(key=lambda e: (-e.importance, -e.updated_at.timestamp(), e.id))
        return found[:limit]


class RecallService:
    def __init__(
        self,
        store: Store,
        index: SearchIndex,
        embedder: Embedder,
        clock: Clock,
        agents: AgentConfigService,
        core: CoreMemoryReader,
        access: AccessRecorder,
        weights: HybridWeights | None = None,
    ) -> None:
        self.store = store
        self.index = index
        self.embedder = embedder
        self.clock = clock
        self.agents = agents
        self.core = core
        self.access = access
        # Tuned per embedder on bench/eval_data.py, min_score included (docs/recall.md).
        self.weights = weights or weights_for(embedder.model_id)

    def recall(self, principal: Principal, user_id: str, request: RecallRequest) -> RecallResult:
        _require(principal, Role.VIEWER)
        _validate(request)
        started = time.perf_counter()
        vector = self.embedder.embed([request.message])[0]
        embedded = time.perf_counter()
        result = self.recall_with_vector(principal, user_id, request, vector)
        result.timings_ms["embed"] = round((embedded - started) * 1000, 3)
        return result

    def recall_with_vector(
        self, principal: Principal, user_id: str, request: RecallRequest, vector: Sequence[float]
    ) -> RecallResult:
        """Recall with the message already embedded by ``self.embedder`` (benchmarks)."""
        _require(principal, Role.VIEWER)
        _validate(request)
        started = time.perf_counter()
        t, now = principal.tenant_id, self.clock.now()
        scope = VisibilityScope(principal.agent_id, principal.group_ids)
        stored_profile, stored_settings = self.store.get_profile_and_settings(t, user_id)
        profile = stored_profile or UserProfile(t, user_id)
        settings = stored_settings or UserSettings(t, user_id)
        umc = self.agents.get(t, principal.agent_id).user_memory_config
        top_k = min(request.top_k, umc.max_recall_entries)
        min_score = self.weights.min_score if request.min_score is None else request.min_score
        identity = Identity(
            name=profile.name,
            nickname=profile.nickname,
            pronouns=profile.pronouns,
            agent_name=profile.agent_names.get(principal.agent_id),
        )
        keep = _Keep(scope, ReadPolicy.of(settings, now, Reader.AGENT))
        preferences: list[RecallItem] = []
        memories: list[RecallItem] = []
        considered = below = 0
        degraded = False
        if settings.memory_enabled:
            preferences = self._tier1(t, user_id, scope, now, request.core_preferences, keep)
            memories, considered, below, degraded = self._tier2(
                t, user_id, scope, now, request, vector, top_k, min_score, keep, {p.entry.id for p in preferences}
            )
        rendered = render(
            identity,
            [_memory(p.entry) for p in preferences],
            [_memory(m.entry) for m in memories],
            request.token_budget,
        )
        shown = set(rendered.included)
        preferences = [p for p in preferences if p.entry.id in shown]
        memories = [m for m in memories if m.entry.id in shown]
        if shown:
            read = {item.entry.id: item.entry.last_accessed_at for item in (*preferences, *memories)}
            included = tuple(rendered.included)
            self.access.record(Access(t, user_id, included, now, tuple((i, read[i]) for i in included if i in read)))
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        logger.info(
            "recall",
            extra={
                "tenant_id": t,
                "agent_id": principal.agent_id,
                "tier1": len(preferences),
                "tier2": len(memories),
                "considered": considered,
                "below_min_score": below,
                "over_budget": len(rendered.over_budget),
                "tokens": rendered.tokens,
                "duration_ms": elapsed,
                "degraded": degraded,
            },
        )
        return RecallResult(
            user_id=user_id,
            agent_id=principal.agent_id,
            identity=identity,
            preferences=preferences,
            memories=memories,
            rendered=rendered,
            model_id=self.embedder.model_id,
            min_score=min_score,
            memory_enabled=settings.memory_enabled,
            considered=considered,
            below_min_score=below,
            over_budget=rendered.over_budget,
            timings_ms={"recall": elapsed},
            degraded=degraded,
        )

    def _tier1(
        self, t: str, user_id: str, scope: VisibilityScope, now: datetime, limit: int, keep: _Keep
    ) -> list[RecallItem]:
        if limit <= 0:
            return []
        # A few more than asked: entries the user's own settings hide are skipped below.
        found = self.core.top_by_importance(t, user_id, scope, CORE_CATEGORY, now, limit + 5)
        kept = [e for e in found if keep(e)][:limit]
        return [
            RecallItem(e, 1, i + 1, f"core preference: importance {e.importance}, confidence {e.confidence:.2f}")
            for i, e in enumerate(kept)
        ]

    def _tier2(
        self,
        t: str,
        user_id: str,
        scope: VisibilityScope,
        now: datetime,
        request: RecallRequest,
        vector: Sequence[float],
        top_k: int,
        min_score: float,
        keep: _Keep,
        exclude: set[str],
    ) -> tuple[list[RecallItem], int, int, bool]:
        k = max(top_k * CANDIDATES_PER_ITEM, MIN_CANDIDATES)
        degraded = False
        try:
            hits = self.index.search(
                SearchQuery(
                    tenant_id=t,
                    user_id=user_id,
                    now=now,
                    text=request.message,
                    vector=vector,
                    scope=scope,
                    kinds=(DocKind.MEMORY,),
                    categories=request.categories,
                    k=k,
                    model_id=self.embedder.model_id,
                )
            )
        except StoreUnavailable as exc:
            # The search index is down: the store still answers, so recall degrades to a
            # keyword match over the user's live entries and says so, rather than failing.
            logger.warning("recall degraded: search index unavailable", extra={"tenant_id": t, "error": exc.code})
            degraded = True
            hits = keyword_hits(self._live_entries(t, user_id, now), request.message, k)
            # Keyword-only scores sit on another scale than the tuned hybrid's minimum.
            min_score = 0.0
        by_id: dict[str, SearchHit] = {h.id: h for h in hits if h.id not in exclude}
        if not by_id:
            return [], 0, 0, degraded

        def wanted(e: MemoryEntry) -> bool:
            return keep(e) and (request.categories is None or e.category in request.categories)

        # The store is the truth: an index lagging behind a supersede or delete must not
        # bring the old value back.
        if all(_ranks_on_index(h) for h in by_id.values()):
            entries, ranked = self._read_shown(t, user_id, by_id, wanted, now, top_k, min_score)
        else:
            entries = {e.id: e for e in self.store.get_entries(t, user_id, sorted(by_id)) if wanted(e)}
            ranked = rank([(eid, _signals(e, by_id[eid])) for eid, e in entries.items()], self.weights, now)
        passing = [(eid, parts) for eid, parts in ranked if parts.total >= min_score and eid in entries]
        items = []
        for i, (eid, parts) in enumerate(passing[:top_k]):
            hit = by_id[eid]
            matched = tuple(m for m, s in (("bm25", hit.keyword), ("vector", parts.semantic)) if s > 0)
            items.append(
                RecallItem(
                    entries[eid],
                    2,
                    i + 1,
                    _why(parts, matched),
                    parts,
                    matched,
                    hit.keyword,
                    hit.semantic,
                )
            )
        below = sum(1 for _, parts in ranked if parts.total < min_score)
        return items, len(ranked), below, degraded

    def _live_entries(self, t: str, user_id: str, now: datetime) -> list[MemoryEntry]:
        """The user's active entries, up to ``FALLBACK_MAX_ENTRIES``, from the store."""
        out: list[MemoryEntry] = []
        cursor: str | None = None
        while len(out) < FALLBACK_MAX_ENTRIES:
            page = self.store.list_entries(
                t, user_id, EntryQuery(now=now, statuses=(Status.ACTIVE,), limit=500, cursor=cursor)
            )
            out.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
        return out[:FALLBACK_MAX_ENTRIES]

    def _read_shown(
        self,
        t: str,
        user_id: str,
        by_id: dict[str, SearchHit],
        wanted: Callable[[MemoryEntry], bool],
        now: datetime,
        top_k: int,
        min_score: float,
    ) -> tuple[dict[str, MemoryEntry], list[tuple[str, ScoreParts]]]:
        """Rank every candidate on the index's copy of its signals and read from the store
        only the ones about to be shown; a read entry ranks on its stored signals, one the
        store no longer shows drops out, and any newcomer to the top is read in turn.
        Usually one read of ``top_k`` entries instead of one of every candidate."""
        known: dict[str, MemoryEntry] = {}
        dropped: set[str] = set()
        while True:
            ranked = rank(
                [
                    (eid, _signals(known[eid], h) if eid in known else _index_signals(h))
                    for eid, h in by_id.items()
                    if eid not in dropped
                ],
                self.weights,
                now,
            )
            shown = [eid for eid, parts in ranked if parts.total >= min_score][:top_k]
            missing = [eid for eid in shown if eid not in known]
            if not missing:
                return known, ranked
            for e in self.store.get_entries(t, user_id, missing):
                if wanted(e):
                    known[e.id] = e
            # Every round reads or drops each id it asks for, so this ends.
            dropped.update(eid for eid in missing if eid not in known)


class _Keep:
    """What recall may show: live, in the agent's scope, and what the read policy allows."""

    def __init__(self, scope: VisibilityScope, policy: ReadPolicy) -> None:
        self.scope = scope
        self.policy = policy

    def __call__(self, e: MemoryEntry) -> bool:
        # Current facts only: one that ended, or has not begun, is not the user's now (bi-temporal).
        return (
            e.is_live(self.policy.now)
            and e.valid_at(self.policy.now)
            and self.scope.allows(e)
            and self.policy.allows(e)
        )


# How many of a user's entries the degraded path reads from the store (a user's cap is
# usually far below; the store pages them 500 at a time).
FALLBACK_MAX_ENTRIES = 2000
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def _words(text: str) -> list[str]:
    return [w[:-1] if len(w) > 3 and w.endswith("s") else w for w in _WORD.findall(text.lower())]


def keyword_hits(entries: Sequence[MemoryEntry], text: str, k: int) -> list[SearchHit]:
    """BM25 over ``entries``' searchable text, in process: the keyword part of the hybrid,
    for when the search index cannot answer. Entries that share no word are left out."""
    terms = set(_words(text))
    bags = {e.id: Counter(_words(e.text())) for e in entries}
    if not terms or not bags:
        return []
    average = sum(sum(b.values()) for b in bags.values()) / len(bags) or 1.0
    df = {t: sum(1 for b in bags.values() if t in b) for t in terms}
    scored: list[SearchHit] = []
    for entry_id, bag in bags.items():
        length = sum(bag.values())
        score = 0.0
        for term in terms:
            if bag[term]:
                idf = math.log(1 + (len(bags) - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * bag[term] * 2.2 / (bag[term] + 1.2 * (0.25 + 0.75 * length / average))
        if score > 0:
            scored.append(SearchHit(entry_id, DocKind.MEMORY, keyword=score, semantic=0.0))
    scored.sort(key=lambda h: -h.keyword)
    return scored[:k]


def _signals(e: MemoryEntry, hit: SearchHit) -> Signals:
    # Recency runs from the observation (issue #17): a fact told three days ago and stored
    # now is three days old; an edit of its wording does not make it fresh.
    fresh = max(d for d in (e.observed_at, e.last_reinforced_at, e.last_accessed_at) if d is not None)
    return Signals(hit.keyword, hit.semantic, e.importance, e.confidence, fresh)


def _ranks_on_index(hit: SearchHit) -> bool:
    return hit.importance is not None and hit.confidence is not None and hit.updated_at is not None


def _index_signals(hit: SearchHit) -> Signals:
    # Only called on hits _ranks_on_index accepted.
    return Signals(hit.keyword, hit.semantic, hit.importance or 0, hit.confidence or 0.0, hit.updated_at or _EPOCH)


def _why(parts: ScoreParts, matched: tuple[str, ...]) -> str:
    how = " and ".join({"bm25": "shares words with the message", "vector": "is close in meaning"}[m] for m in matched)
    return (
        f"relevant to the message ({how}): relevance {parts.relevance:.3f} "
        f"(semantic {parts.semantic:.3f}, keyword {parts.keyword:.3f}), "
        f"prior {parts.prior:.3f} (importance {parts.importance:.2f}, recency {parts.recency:.2f}, "
        f"confidence {parts.confidence:.2f}), score {parts.total:.3f}"
    )


def _memory(e: MemoryEntry) -> Memory:
    return Memory(e.id, e.key, e.value, e.category, e.updated_at, e.statement)


def _validate(request: RecallRequest) -> None:
    if not request.message.strip():
        raise ValidationFailed("The message to recall for must not be empty.", field="message")
    if request.token_budget < 1:
        raise ValidationFailed("tokenBudget must be at least 1.", field="tokenBudget")
    if request.top_k < 1:
        raise ValidationFailed("topK must be at least 1.", field="topK")
