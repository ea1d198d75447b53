"""Memory use cases: write, read, search, delete, history and restore.

Every write goes through ``MemoryService.write``: guardrails and the sensitive filter,
then a plan (pure, ``engram.domain.writes``) applied atomically under an optimistic
lock on the identity's version, retried when another writer got there first.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol

from aws_lambda_powertools import Logger

from engram.domain.agent_config import AgentConfig, OnCapReached, RecallOrder
from engram.domain.errors import (
    CapacityReached,
    Forbidden,
    GuardrailViolation,
    MemoryDisabled,
    NotFound,
    ValidationFailed,
    VersionConflict,
)
from engram.domain.models import (
    Actor,
    ActorType,
    ChangeKind,
    Changeset,
    HistoryRecord,
    IdentityGuard,
    MemoryEntry,
    Page,
    Principal,
    Role,
    Status,
    UserSettings,
    Visibility,
)
from engram.domain.policies import (
    VisibilityScope,
    check_write,
    eviction_order,
    normalise_key,
    require_role,
    scope_for,
    source_mark_id,
)
from engram.domain.proposals import Proposal, needs_approval
from engram.domain.ranking import HybridWeights, ScoreParts, Signals, weights_for
from engram.domain.sensitive import reject_sensitive as refuse_sensitive
from engram.domain.temporal import TimeWindow, time_match
from engram.domain.timebounds import check_time, check_validity
from engram.domain.ttl import DEFAULT_TTL
from engram.domain.writes import Outcome, WritePlan, WriteRequest, plan_removal, plan_write
from engram.ports import (
    Clock,
    DocKind,
    Embedder,
    EntryQuery,
    MemoryRepository,
    ProfileRepository,
    SearchHit,
    SearchIndex,
    TurnCounter,
)
from engram.service.agents import AgentConfigService
from engram.service.dedup import DedupMatch, DedupThresholds, SemanticDedup
from engram.service.read_gate import ReadGate
from engram.service.retrieval import (
    Ask,
    Found,
    Retriever,
    candidates_for,
    confirm_top,
    explained,
    not_forgotten,
    past_hits,
    past_values,
)

logger = Logger(service="engram", child=True)

MAX_ATTEMPTS = 200
TURN_WINDOW = timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class UpsertCommand:
    key: str
    value: str
    category: str = "fact"
    visibility: Visibility = Visibility.SELF
    statement: str | None = None
    group_ids: tuple[str, ...] | None = None
    importance: int | None = None
    confidence: float | None = None
    source_conversation_id: str | None = None
    source_message_id: str | None = None
    source_time: datetime | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None


@dataclass(frozen=True, slots=True)
class SemanticMatch:
    """Why a write under a new key went to an existing entry (issue #17, item 6)."""

    kind: str  # "duplicate" (reinforced) or "contradiction" (superseded)
    similarity: float
    requested_key: str


def matched_data(m: SemanticMatch | None) -> dict[str, object]:
    """A tool or MCP answer's account of a semantic match (nothing when there was none)."""
    if m is None:
        return {}
    return {"matched": {"kind": m.kind, "similarity": m.similarity, "requestedKey": m.requested_key}}


@dataclass(frozen=True, slots=True)
class WriteResult:
    outcome: Outcome
    # For Outcome.PROPOSED: what approval would write, not stored (see ``proposal``).
    entry: MemoryEntry
    previous: MemoryEntry | None = None
    evicted: tuple[str, ...] = ()
    proposal: Proposal | None = None
    matched: SemanticMatch | None = None


class Proposer(Protocol):
    """Turns a checked write into a proposal for the user (``ProposalService``)."""

    def propose_write(self, principal: Principal, request: WriteRequest, config: AgentConfig) -> WriteResult: ...


@dataclass(frozen=True, slots=True)
class SearchResult:
    entry: MemoryEntry
    score: float
    keyword: float  # raw BM25
    semantic: float  # raw cosine
    parts: ScoreParts | None = None
    matched_by: tuple[str, ...] = ()
    why: str = ""


def entry_signals(e: MemoryEntry, hit: SearchHit, window: TimeWindow | None = None) -> Signals:
    """An entry's ranking inputs: the hit's BM25 and cosine, its priors, and whether it
    was observed in the time span a question names."""
    # Recency runs from the observation (issue #17): a fact told three days ago and stored
    # now is three days old; an edit of its wording does not make it fresh.
    fresh = max(d for d in (e.observed_at, e.last_reinforced_at, e.last_accessed_at) if d is not None)
    return Signals(hit.keyword, hit.semantic, e.importance, e.confidence, fresh, time_match(e.observed_at, window))


def index_signals(hit: SearchHit) -> Signals:
    """A hit's ranking inputs from the index's copy of the entry (only for hits that
    carry them: ``search`` reads the others from the store first)."""
    fresh = hit.updated_at or datetime(1970, 1, 1, tzinfo=UTC)
    return Signals(hit.keyword, hit.semantic, hit.importance or 0, hit.confidence or 0.0, fresh)


def _signed(hit: SearchHit) -> bool:
    """Whether the index's copy carries the entry's ranking signals (documents indexed by
    older versions do not: those entries are read before ranking)."""
    return hit.importance is not None and hit.confidence is not None and hit.updated_at is not None


def _result(found: Found[MemoryEntry]) -> SearchResult:
    hit = found.hit
    return SearchResult(found.item, found.score, hit.keyword, hit.semantic, found.parts, found.matched_by, found.why)


@dataclass
class MemoryService:
    entries: MemoryRepository
    profiles: ProfileRepository
    turns: TurnCounter
    index: SearchIndex
    embedder: Embedder
    clock: Clock
    agents: AgentConfigService
    ttl: Mapping[str, timedelta | None] = field(default_factory=lambda: dict(DEFAULT_TTL))
    # The one ranking recall uses, tuned per embedder (domain/ranking.py); None: the
    # embedder's tuned weights.
    weights: HybridWeights | None = None

    @property
    def ranking(self) -> HybridWeights:
        return self.weights or weights_for(self.embedder.model_id)

    # Set by the container: agents configured with requireApproval propose through it.
    proposer: Proposer | None = None
    # Set by the container: semantic reinforce/supersede of writes under a new key.
    dedup: SemanticDedup | None = None
    # What every read may show (memory off, retention, categories); other services share it.
    gate: ReadGate = field(init=False)

    def __post_init__(self) -> None:
        self.gate = ReadGate(self.profiles, self.clock)

    # -- writes -------------------------------------------------------------------------
    def upsert(
        self,
        principal: Principal,
        user_id: str,
        commands: Sequence[UpsertCommand],
        turn_id: str | None = None,
        extra_categories: tuple[str, ...] = (),
    ) -> list[WriteResult]:
        """Explicit writes by an agent: every command is checked before any is applied."""
        require_role(principal, Role.WRITER)
        config = self.agents.get(principal.tenant_id, principal.agent_id)
        if extra_categories:
            g = config.user_memory_config.guardrails
            g = g.model_copy(update={"allowed_categories": (*g.allowed_categories, *extra_categories)})
            umc = config.user_memory_config.model_copy(update={"guardrails": g})
            config = config.model_copy(update={"user_memory_config": umc})
        # Checked again by every write; here too so a refused request uses no turn budget.
        settings = self.check_settings(principal.tenant_id, user_id)
        requests = [self._request(principal, user_id, c, config, settings) for c in commands]
        limit = config.user_memory_config.guardrails.max_writes_per_turn
        if turn_id is None:
            # Without a turn id the request is its own turn.
            if len(requests) > limit:
                raise GuardrailViolation(
                    "too_many_writes",
                    f"This request makes {len(requests)} memory writes; this agent allows at most {limit} per turn.",
                    maxWritesPerTurn=limit,
                )
        else:
            self.turns.add_turn_writes(
                principal.tenant_id,
                principal.agent_id,
                turn_id,
                len(requests),
                limit,
                self.clock.now() + TURN_WINDOW,
            )
        if any(needs_approval(config.require_approval, r.category) for r in requests) and self.proposer is None:
            raise Forbidden("This agent's writes need the user's approval, and approvals are not available here.")
        results: list[WriteResult] = []
        for request in requests:
            # One at a time: a write may restate what the one before it just wrote.
            resolved, match = self.resolve(request, config, principal.group_ids)
            if self.proposer is not None and needs_approval(config.require_approval, request.category):
                result = self.proposer.propose_write(principal, resolved, config)
            else:
                result = self.write(resolved, config)
            if match is not None:
                result = replace(result, matched=SemanticMatch(match.kind, round(match.similarity, 4), request.key))
            results.append(result)
        return results

    def resolve(
        self,
        req: WriteRequest,
        config: AgentConfig,
        group_ids: tuple[str, ...] = (),
    ) -> tuple[WriteRequest, DedupMatch | None]:
        """The write aimed at the live entry it restates or contradicts in other words.

        Only a key with no live entry of its own is compared: a key that has one is about
        that entry (the same-key reinforce or supersede). A write keeps the visibility it
        asked for, so only entries of the same kind (global, or the agent's own) are
        candidates: an extracted fact (self) never becomes global or another agent's.
        """
        rules = config.user_memory_config.semantic_dedup
        if self.dedup is None or not rules.enabled:
            return req, None
        state = self.entries.get_identity(req.tenant_id, req.user_id, req.identity)
        if state is not None and state.current_entry_id is not None:
            current = self.entries.get_entry(req.tenant_id, req.user_id, state.current_entry_id)
            if current is not None and current.is_live(self.clock.now()):
                return req, None
        base = self.dedup.thresholds
        limits = DedupThresholds(
            rules.duplicate_threshold or base.duplicate, rules.supersede_threshold or base.contradiction
        )
        match = self.dedup.match(
            req.tenant_id,
            req.user_id,
            req.key,
            req.value,
            req.category,
            VisibilityScope(req.agent_id, group_ids),
            shared=req.visibility is Visibility.GLOBAL,
            thresholds=limits,
            visibility=req.visibility,
            group_ids=tuple(req.group_ids),
        )
        if match is None:
            return req, None
        e = match.entry
        changes: dict[str, object] = {"key": e.key}
        if match.kind == "duplicate":
            # Only a reinforcement: the entry keeps its own wording, category and importance.
            changes.update(value=e.value, category=e.category, statement=None, importance=None)
        return replace(req, **changes), match  # type: ignore[arg-type]

    def prepare(self, principal: Principal, user_id: str, command: UpsertCommand) -> tuple[WriteRequest, AgentConfig]:
        """Check one agent write (guardrails, sensitive filter, groups) without applying it."""
        require_role(principal, Role.WRITER)
        config = self.agents.get(principal.tenant_id, principal.agent_id)
        settings = self.check_settings(principal.tenant_id, user_id)
        return self._request(principal, user_id, command, config, settings), config

    def check_settings(self, tenant_id: str, user_id: str, category: str | None = None) -> UserSettings:
        """The user's own controls over what is remembered (behaviour item 15)."""
        settings = self._settings(tenant_id, user_id)
        if not settings.memory_enabled:
            raise MemoryDisabled("This user has turned memory off; nothing new is remembered.")
        allowed = settings.allowed_categories
        if category is not None and allowed is not None and category not in allowed:
            raise GuardrailViolation(
                "category_disabled_by_user",
                f"The user has not allowed memories of category '{category}'.",
                category=category,
                allowedCategories=list(allowed),
            )
        return settings

    def _request(
        self,
        principal: Principal,
        user_id: str,
        c: UpsertCommand,
        config: AgentConfig,
        settings: UserSettings,
    ) -> WriteRequest:
        key = normalise_key(c.key)
        # Checked here too, not only by the API schema: every store must round-trip them.
        check_time(c.source_time, "sourceTime")
        check_time(c.valid_from, "validFrom")
        check_time(c.valid_to, "validTo")
        check_validity(c.valid_from, c.valid_to)
        check_write(
            key,
            c.value,
            c.category,
            config.user_memory_config.guardrails,
            settings.allowed_categories,
        )
        reject_sensitive(key, c.value, c.statement)
        groups: tuple[str, ...] = ()
        if c.visibility is Visibility.GROUP:
            groups = tuple(c.group_ids) if c.group_ids else principal.group_ids
            if not groups:
                raise ValidationFailed(
                    "A group memory needs groupIds, and this key belongs to no group.",
                    field="groupIds",
                )
            outside = [g for g in groups if g not in principal.group_ids]
            if outside and not principal.is_admin:
                raise Forbidden("This key is not a member of every group named.", groupIds=outside)
        elif c.group_ids:
            raise ValidationFailed("groupIds apply only to visibility 'group'.", field="groupIds")
        return WriteRequest(
            tenant_id=principal.tenant_id,
            user_id=user_id,
            key=key,
            value=c.value,
            category=c.category,
            visibility=c.visibility,
            agent_id=principal.agent_id,
            actor=Actor(ActorType.AGENT, principal.agent_id),
            statement=c.statement,
            group_ids=groups,
            importance=c.importance,
            confidence=c.confidence,
            source_conversation_id=c.source_conversation_id,
            source_message_id=c.source_message_id,
            source_time=c.source_time,
            valid_from=c.valid_from,
            valid_to=c.valid_to,
            ttl=self.ttl,
            retention=_retention(settings),
        )

    def write(self, req: WriteRequest, config: AgentConfig, restoring: int | None = None) -> WriteResult:
        """Apply one checked write, retrying on version conflicts (no lost updates).

        Every write path (explicit, extraction, restore, approved proposals) ends here, so
        the user's settings are enforced here: memory off, allowed categories, retention.
        """
        settings = self.check_settings(req.tenant_id, req.user_id, req.category)
        # The TTL table is the writing agent's configuration, whatever path the write took.
        req = replace(
            req,
            retention=_retention(settings),
            ttl=config.user_memory_config.ttl_table(),
            origin=req.origin or self.clock.now(),
        )
        mark = None
        if req.source_message_id is not None and restoring is None:
            mark = source_mark_id(req.tenant_id, req.user_id, req.identity, req.source_message_id, req.value)
        for attempt in range(MAX_ATTEMPTS):
            now = self.clock.now()
            if mark is not None:
                marked, seen = self._already_applied(req, mark)
                if seen is not None:
                    return seen
                if marked:
                    # Applied once, but its entry is gone for good (an expiry the table's
                    # TTL removed): nothing can answer for the mark, and a guard creating
                    # it again could only fail, so this write applies without one.
                    mark = None
            state = self.entries.get_identity(req.tenant_id, req.user_id, req.identity)
            current = None
            if state is not None and state.current_entry_id is not None:
                current = self.entries.get_entry(req.tenant_id, req.user_id, state.current_entry_id)
            plan = plan_write(req, current, None if state is None else state.version, now, restoring)
            if mark is not None:
                # Created once, in the write's own transaction: of two writers of the same
                # observation, the second fails the guard, retries and finds the mark.
                plan = replace(plan, guard_extra=(IdentityGuard(mark, None, 1, plan.entry.id),))
            try:
                evicted = self._apply(plan, req, config, now)
            except VersionConflict:
                # Full jitter backoff: contending writers spread out instead of colliding again.
                time.sleep(random.uniform(0, min(0.05, 0.001 * 2 ** min(attempt, 6))))
                continue
            return WriteResult(plan.outcome, plan.entry, plan.previous, evicted)
        raise VersionConflict("Too many concurrent writers for this memory; retry later.")

    def _already_applied(self, req: WriteRequest, mark: str) -> tuple[bool, WriteResult | None]:
        """Whether the observation was applied before, and the answer to its repeat (nothing
        changes) when an entry can still give it."""
        seen = self.entries.get_identity(req.tenant_id, req.user_id, mark)
        if seen is None:
            return False, None
        state = self.entries.get_identity(req.tenant_id, req.user_id, req.identity)
        # What the caller sees is the identity's entry now (it may have moved on since);
        # the marked one if the identity has none any more (deleted: not brought back).
        entry_id = state.current_entry_id if state is not None and state.current_entry_id else seen.current_entry_id
        entry = None if entry_id is None else self.entries.get_entry(req.tenant_id, req.user_id, entry_id)
        if entry is None:
            return True, None
        logger.info("observation already applied", extra={"outcome": Outcome.UNCHANGED.value})
        return True, WriteResult(Outcome.UNCHANGED, entry, entry)

    def _apply(self, plan: WritePlan, req: WriteRequest, config: AgentConfig, now: datetime) -> tuple[str, ...]:
        umc = config.user_memory_config
        guards, entries, history = [*plan.guard_extra, plan.guard], list(plan.entries), list(plan.history)
        delta, cap = plan.active_delta, umc.max_entries_per_user
        evicted: list[str] = []
        if delta > 0:
            live = self.entries.count_live(req.tenant_id, req.user_id, now)
            overflow = live + delta - cap
            if overflow > 0 and umc.on_cap_reached is OnCapReached.REJECT:
                # The count covers entries the caller may not see, so it is not told.
                raise CapacityReached(
                    f"This user is at the most memories this agent allows ({cap}). "
                    "Delete some, or configure onCapReached=evict_oldest.",
                    maxEntriesPerUser=cap,
                )
            if overflow > 0:
                victims = self._oldest(req.tenant_id, req.user_id, now, overflow, req.identity, req.agent_id)
                if len(victims) < overflow:
                    # The cap is per user, eviction per writer: an agent only ever evicts
                    # what it wrote itself, never another agent's memories.
                    raise CapacityReached(
                        f"This user is at the most memories this agent allows ({cap}) and this agent "
                        "has too few memories of its own to make room. Delete some first.",
                        maxEntriesPerUser=cap,
                    )
                for victim in victims:
                    state = self.entries.get_identity(req.tenant_id, req.user_id, victim.identity_id)
                    if state is None:
                        continue
                    g, removed, rec = plan_removal(
                        victim,
                        state.version,
                        state.current_entry_id,
                        Actor(ActorType.SYSTEM, "capacity"),
                        "evict_oldest: user at capacity",
                        now,
                        ChangeKind.EVICTED,
                    )
                    guards.append(g)
                    entries.append(removed)
                    history.append(rec)
                    evicted.append(victim.id)
                delta -= len(evicted)
        self.entries.apply(
            Changeset(
                req.tenant_id,
                req.user_id,
                tuple(guards),
                tuple(entries),
                tuple(history),
                delta,
                cap,
                req.origin,
            ),
            now,
        )
        return tuple(evicted)

    def _oldest(
        self, tenant_id: str, user_id: str, now: datetime, n: int, exclude: str, writer: str
    ) -> list[MemoryEntry]:
        """The writer's own oldest live entries: eviction never touches another agent's."""
        live: list[MemoryEntry] = []
        cursor: str | None = None
        while True:
            page = self.entries.list_entries(tenant_id, user_id, EntryQuery(now=now, limit=1000, cursor=cursor))
            live.extend(e for e in page.items if e.identity_id != exclude and e.source_agent_id == writer)
            cursor = page.next_cursor
            if cursor is None:
                break
        return eviction_order(live)[:n]

    # -- reads --------------------------------------------------------------------------
    def get(self, principal: Principal, user_id: str, entry_id: str) -> MemoryEntry:
        policy = self.gate.policy(principal, user_id)
        policy.require_readable()
        entry = self._visible(principal, user_id, entry_id)
        if entry.status is Status.ACTIVE and not policy.allows(entry):
            raise NotFound("No memory with that id is visible to this key.", entryId=entry_id)
        return entry

    def _visible(self, principal: Principal, user_id: str, entry_id: str) -> MemoryEntry:
        """An entry in the key's scope, whatever the read policy says (forgetting uses it)."""
        entry = self.entries.get_entry(principal.tenant_id, user_id, entry_id)
        if entry is None or not scope_for(principal).allows(entry):
            raise NotFound("No memory with that id is visible to this key.", entryId=entry_id)
        return entry

    def list_memories(
        self,
        principal: Principal,
        user_id: str,
        scope: VisibilityScope,
        *,
        category: str | None = None,
        key: str | None = None,
        statuses: tuple[Status, ...] = (Status.ACTIVE,),
        order: RecallOrder = RecallOrder.MOST_RECENT,
        limit: int = 50,
        cursor: str | None = None,
        forgetting: bool = False,
        as_of: datetime | None = None,
    ) -> Page[MemoryEntry]:
        """A page of entries in ``scope`` that the read policy lets the caller see.

        ``forgetting``: the page names what to delete, so memory off, retention and
        validity do not hide anything (a user can always forget). A filtered page may
        hold fewer than ``limit`` items while a cursor still follows.

        Active-only listings (the default) are bi-temporal: they show the facts that hold
        now, or at ``as_of``, when superseded entries that held then are included too.
        Other status filters are the raw record of what changed.
        """
        policy = None if forgetting else self.gate.policy(principal, user_id)
        if policy is not None and not policy.memory_readable:
            return Page([])
        if key is not None:
            key = normalise_key(key)
        current_only = statuses == (Status.ACTIVE,) and not forgetting
        if as_of is not None and current_only:
            statuses = (Status.ACTIVE, Status.SUPERSEDED)
        query = EntryQuery(
            now=self.clock.now(),
            scope=scope,
            statuses=statuses,
            category=category,
            key=key,
            order=order,
            limit=limit,
            cursor=cursor,
        )
        page = self.entries.list_entries(principal.tenant_id, user_id, query)
        if current_only:
            page = self._held_at(principal.tenant_id, user_id, page, query.now, as_of)
        if policy is None:
            return page
        # Only live entries answer to the policy; the history of superseded and deleted
        # ones (status filters) is the owner's record of what changed.
        # An as-of view shows superseded facts as facts, so the policy covers them too.
        kept = [e for e in page.items if (e.status is not Status.ACTIVE and not current_only) or policy.allows(e)]
        return Page(kept, page.next_cursor)

    def _held_at(
        self, tenant_id: str, user_id: str, page: Page[MemoryEntry], now: datetime, as_of: datetime | None
    ) -> Page[MemoryEntry]:
        """The entries of ``page`` that held at ``as_of`` (or now)."""
        page = Page([e for e in page.items if e.valid_at(as_of or now)], page.next_cursor)
        if as_of is None:
            return page
        # A superseded value whose fact was forgotten since is no fact of its time.
        past = [e for e in page.items if e.status is Status.SUPERSEDED]
        kept_past = {e.id for e in not_forgotten(self.entries, tenant_id, user_id, now, past)}
        return Page([e for e in page.items if e.status is not Status.SUPERSEDED or e.id in kept_past], page.next_cursor)

    def visible(
        self,
        principal: Principal,
        user_id: str,
        agent_id: str | None = None,
        group_id: str | None = None,
        order: RecallOrder | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Page[MemoryEntry]:
        """What one agent sees (EDDI ``visible``), ordered and capped by its config."""
        scope = scope_for(principal, agent_id or principal.agent_id, group_id)
        umc = self.agents.get(principal.tenant_id, scope.agent_id).user_memory_config
        cap = umc.max_recall_entries
        return self.list_memories(
            principal,
            user_id,
            scope,
            order=order or umc.recall_order,
            limit=min(limit or cap, cap),
            cursor=cursor,
        )

    def count(self, principal: Principal, user_id: str) -> int:
        scope = scope_for(principal)
        # Settings and counters in one read (on DynamoDB one eventually consistent
        # BatchGetItem, a read unit for both): a count shows a number, never a memory, so
        # a policy up to a second old is acceptable here and nowhere else.
        settings, counted = self.entries.settings_and_count(principal.tenant_id, user_id, scope, self.clock.now())
        policy = self.gate.policy_of(principal, user_id, settings)
        if not policy.memory_readable:
            return 0
        # The store's counters answer unless the policy hides entries they cannot tell
        # apart (retention by creation time; categories the user narrowed, for agents).
        if policy.retention is None and (scope.everything or policy.allowed_categories is None) and counted is not None:
            return counted
        total, cursor = 0, None
        while True:
            page = self.list_memories(principal, user_id, scope, limit=1000, cursor=cursor)
            total += len(page.items)
            cursor = page.next_cursor
            if cursor is None:
                return total

    def search(
        self,
        principal: Principal,
        user_id: str,
        text: str,
        *,
        limit: int = 10,
        category: str | None = None,
        scope: VisibilityScope | None = None,
        as_agent: bool = False,
        as_of: datetime | None = None,
        min_score: float | None = None,
    ) -> list[SearchResult]:
        """The entries most relevant to ``text`` by recall's ranking, at or above
        ``min_score`` (None: the embedder's tuned minimum), each with why it matched."""
        if not text.strip():
            raise ValidationFailed("The search text must not be empty.", field="q")
        policy = self.gate.policy(principal, user_id, as_agent=as_agent)
        if not policy.memory_readable:
            return []
        now = self.clock.now()
        scope = scope or scope_for(principal)
        vector = self.embedder.embed([text])[0]
        hits = Retriever(self.index, self.embedder).hits(
            Ask(
                principal.tenant_id,
                user_id,
                now,
                text,
                scope,
                (DocKind.MEMORY,),
                candidates_for(limit),
                vector=vector,
                categories=None if category is None else (category,),
            )
        )

        def shown(e: MemoryEntry) -> bool:
            # Current facts only (bi-temporal), or those that held at ``as_of``.
            return e.is_live(now) and e.valid_at(as_of or now) and scope.allows(e) and policy.allows(e)

        def read(ids: list[str]) -> dict[str, MemoryEntry]:
            return {e.id: e for e in self.entries.get_entries(principal.tenant_id, user_id, ids) if shown(e)}

        # Documents indexed by older versions carry no signals: those are read up front.
        unsigned = [h.id for h in hits.values() if not _signed(h)]
        known = read(unsigned) if unsigned else {}
        candidates = [(h.id, index_signals(h)) for h in hits.values()]
        if as_of is not None:
            # As of a past time, the values superseded since held then: the index no
            # longer has them, so they are read from the store and scored in process.
            def wanted(e: MemoryEntry) -> bool:
                return scope.allows(e) and policy.allows(e) and (category is None or e.category == category)

            past = past_values(self.entries, principal.tenant_id, user_id, now, as_of, scope, wanted)
            found = past_hits(past, text, vector, self.embedder)
            hits = {**hits, **found}
            known |= {e.id: e for e in past}
            candidates += [(e.id, entry_signals(e, found[e.id])) for e in past]
        ranked, _ = confirm_top(
            candidates,
            known,
            read,
            lambda cid, e: entry_signals(e, hits[cid]),
            self.ranking,
            now,
            self.ranking.min_score if min_score is None else min_score,
            limit,
            dropped=[i for i in unsigned if i not in known],
        )
        return [_result(explained(cid, known[cid], hits[cid], parts)) for cid, parts in ranked[:limit]]

    # -- deletes, history, restore ----------------------------------------------------
    def delete(
        self,
        principal: Principal,
        user_id: str,
        entry_id: str,
        reason: str = "deleted on request",
        actor: Actor | None = None,
    ) -> MemoryEntry:
        require_role(principal, Role.WRITER)
        # ``actor``: who the history names when the caller acts for someone (the user).
        actor = actor or Actor(ActorType.AGENT, principal.agent_id)
        for _ in range(MAX_ATTEMPTS):
            entry = self._visible(principal, user_id, entry_id)
            if entry.status is Status.DELETED:
                return entry
            state = self.entries.get_identity(principal.tenant_id, user_id, entry.identity_id)
            version = state.version if state else entry.version
            guard, removed, rec = plan_removal(
                entry,
                version,
                state.current_entry_id if state else None,
                actor,
                reason,
                self.clock.now(),
            )
            try:
                self.entries.apply(
                    Changeset(principal.tenant_id, user_id, (guard,), (removed,), (rec,)),
                    self.clock.now(),
                )
            except VersionConflict:
                time.sleep(random.uniform(0, 0.005))
                continue
            return removed
        raise VersionConflict("Too many concurrent writers for this memory; retry later.")

    def delete_by_key(self, principal: Principal, user_id: str, key: str) -> list[MemoryEntry]:
        """Forget a key: the caller's own entries under it and global ones."""
        require_role(principal, Role.WRITER)
        page = self.list_memories(principal, user_id, scope_for(principal), key=key, limit=1000, forgetting=True)
        targets = [
            e
            for e in page.items
            if e.source_agent_id == principal.agent_id or e.visibility is Visibility.GLOBAL or principal.is_admin
        ]
        return [self.delete(principal, user_id, e.id, f"forgot key {key}") for e in targets]

    def history(
        self,
        principal: Principal,
        user_id: str,
        entry_id: str,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[HistoryRecord]:
        """The versions of an entry that the caller could see when each was current.

        An identity keeps its history across visibility changes (an agent's `self` entry
        later shared with a group): a group member may read the shared versions, never the
        private ones before them.
        """
        entry = self.get(principal, user_id, entry_id)
        scope = scope_for(principal)
        while True:
            page = self.entries.history(principal.tenant_id, user_id, entry.identity_id, limit, cursor)
            items = [rec for rec in page.items if scope.allows(rec.entry)]
            # A page may come back shorter than the limit (its hidden versions left out), but
            # never empty while more follow: read on instead.
            if items or page.next_cursor is None:
                return Page(items, page.next_cursor)
            cursor = page.next_cursor

    def restore(self, principal: Principal, user_id: str, entry_id: str, version: int) -> WriteResult:
        require_role(principal, Role.WRITER)
        entry = self.get(principal, user_id, entry_id)
        record = self._version(principal.tenant_id, user_id, entry.identity_id, version)
        # A version the caller could not see when it was current is as absent as one never written.
        if not scope_for(principal).allows(record.entry):
            raise NotFound(f"This memory has no version {version}.", version=version)
        old = record.entry
        reject_sensitive(old.key, old.value, old.statement)
        settings = self.check_settings(principal.tenant_id, user_id)
        req = WriteRequest(
            tenant_id=old.tenant_id,
            user_id=old.user_id,
            key=old.key,
            value=old.value,
            category=old.category,
            visibility=old.visibility,
            agent_id=old.source_agent_id,
            actor=Actor(ActorType.AGENT, principal.agent_id),
            statement=old.statement,
            group_ids=old.group_ids,
            importance=old.importance,
            confidence=old.confidence,
            source_conversation_id=old.source_conversation_id,
            source_message_id=old.source_message_id,
            ttl=self.ttl,
            retention=_retention(settings),
        )
        return self.write(req, self.agents.get(principal.tenant_id, old.source_agent_id), restoring=version)

    def _version(self, tenant_id: str, user_id: str, identity: str, version: int) -> HistoryRecord:
        cursor: str | None = None
        while True:
            page = self.entries.history(tenant_id, user_id, identity, 500, cursor)
            for rec in page.items:
                if rec.version == version:
                    return rec
            cursor = page.next_cursor
            if cursor is None:
                raise NotFound(f"This memory has no version {version}.", version=version)

    def _settings(self, tenant_id: str, user_id: str) -> UserSettings:
        return self.profiles.get_settings(tenant_id, user_id) or UserSettings(tenant_id, user_id)


def reject_sensitive(key: str, value: str, statement: str | None = None) -> None:
    """An entry: its key (which may name or hold the secret), value and statement."""
    refuse_sensitive([(key, value), (key, statement or "")])


def _retention(settings: UserSettings) -> timedelta | None:
    return None if settings.retention_days is None else timedelta(days=settings.retention_days)
