"""Recall: what an agent should know about the user for this turn (behaviour item 12).

Tier 1 is always there: who the user is (name, nickname, pronouns, what they call this
agent) and their top core preferences by importance. Tier 2 is the top-k of what is
relevant to the message, by the one hybrid score (``engram.domain.ranking``) above a
minimum score: memory entries and, fused with them in one order, episodes (the user's
past messages across this agent's threads, with when they were said and by whom). A
question that names a time ("in June 2023", "last week") also looks among what was
said in that span. Both tiers are rendered into one context block within a token
budget (``engram.domain.rendering``), and every item says why it is there.

Only what the calling agent may see is considered (global entries, its own self
entries, its groups' entries), whatever roles its key has: the block goes into that
agent's prompt. The index proposes candidates; the store decides: anything superseded,
deleted, expired or past the user's retention never comes back, even while the index
lags behind.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from aws_lambda_powertools import Logger

from engram.domain.conversation import Message, MessageRole, message_doc_id, parse_message_doc_id, speaker_of
from engram.domain.errors import StoreUnavailable, ValidationFailed
from engram.domain.models import MemoryEntry, Principal, Role, Status, UserProfile, UserSettings
from engram.domain.policies import VisibilityScope, require_role
from engram.domain.ranking import (
    HybridWeights,
    ScoreParts,
    Signals,
    explain,
    matched_by,
    question_words,
    score,
    semantic_query,
    speaker_named,
    weights_for,
)
from engram.domain.read_policy import Reader, ReadPolicy
from engram.domain.rendering import Episode, Identity, Memory, Relevant, Rendered, render
from engram.domain.temporal import TimeWindow, question_window, time_match
from engram.domain.timebounds import check_time
from engram.ports import (
    Clock,
    ConversationRepository,
    CoreMemoryReader,
    DocKind,
    Embedder,
    EntryQuery,
    MemoryRepository,
    ProfileRepository,
    SearchHit,
    SearchIndex,
)
from engram.service.access import Access, AccessRecorder
from engram.service.agents import AgentConfigService
from engram.service.memory import entry_signals
from engram.service.query_vectors import QueryVectors
from engram.service.retrieval import (
    Ask,
    Retriever,
    confirm_top,
    held_at,
    keyword_hits,
    messages_said_around,
    past_hits,
    past_values,
)

logger = Logger(service="engram", child=True)

CORE_CATEGORY = "preference"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# How many candidates the index proposes per component, per memory asked for.
CANDIDATES_PER_ITEM = 4
MIN_CANDIDATES = 20
# A past message has no importance or confidence of its own: it gets the middle of the
# scale, so the prior neither lifts nor sinks it against entries.
EPISODE_IMPORTANCE = 50


@dataclass(frozen=True, slots=True)
class RecallRequest:
    message: str
    token_budget: int = 1000
    top_k: int = 5
    min_score: float | None = None  # None: the tuned default of the embedder's weights
    categories: tuple[str, ...] | None = None  # narrows tier 2 only
    core_preferences: int = 5
    episodes: bool = True  # past messages beside entries in tier 2
    # The thread the agent is in: its messages are in the agent's window already.
    exclude_thread_id: str | None = None
    # Recall as of a past time (bi-temporal): the facts valid then, the messages said by then.
    as_of: datetime | None = None


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
class EpisodeItem:
    """A past message chosen for tier 2, with where it came from."""

    message: Message
    rank: int
    why: str
    parts: ScoreParts
    matched_by: tuple[str, ...] = ()
    keyword_raw: float = 0.0
    semantic_raw: float = 0.0
    tier: int = 2

    @property
    def id(self) -> str:
        return message_doc_id(self.message.agent_id, self.message.thread_id, self.message.id)

    @property
    def speaker(self) -> str:
        return speaker_of(self.message)


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
    episodes: list[EpisodeItem] = field(default_factory=list)
    # Tier 2 in its one fused order (memories and episodes), as rendered.
    ranked: list[RecallItem | EpisodeItem] = field(default_factory=list)
    window: TimeWindow | None = None


@dataclass(frozen=True, slots=True)
class Pool:
    """Tier 2's candidates: index hits confirmed by the store, with their ranking inputs."""

    hits: dict[str, SearchHit]
    entries: dict[str, MemoryEntry]
    messages: dict[str, Message]
    candidates: list[tuple[str, Signals]]
    # The search index could not answer: entries came from a keyword match over the store.
    degraded: bool = False


class CoreByListing:
    """Tier 1 for any repository: page through the category and keep the top entries.

    Backends with an index on importance (the embedded store) provide their own
    ``CoreMemoryReader`` instead; this one costs a read of every entry of the category.
    """

    def __init__(self, entries: MemoryRepository) -> None:
        self._entries = entries

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
            page = self._entries.list_entries(
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
        entries: MemoryRepository,
        profiles: ProfileRepository,
        index: SearchIndex,
        embedder: Embedder,
        clock: Clock,
        agents: AgentConfigService,
        core: CoreMemoryReader,
        access: AccessRecorder,
        weights: HybridWeights | None = None,
        messages: ConversationRepository | None = None,
    ) -> None:
        self.entries = entries
        self.profiles = profiles
        # Where episodes are read back (set by the conversation feature when the backend
        # has one); without it recall is entries only.
        self.messages = messages
        self.index = index
        self.embedder = embedder
        self.clock = clock
        self.agents = agents
        self.core = core
        self.access = access
        # Tuned per embedder on bench/eval_data.py, min_score included (docs/recall.md).
        self.weights = weights or weights_for(embedder.model_id)
        # The same message is embedded once per process (a bounded memory; see the module).
        self.query_vectors = QueryVectors(embedder)

    def recall(self, principal: Principal, user_id: str, request: RecallRequest) -> RecallResult:
        require_role(principal, Role.VIEWER)
        _validate(request)
        started = time.perf_counter()
        stored = self.profiles.get_profile_and_settings(principal.tenant_id, user_id)
        semantic = self._semantic_text(principal, user_id, stored[0], request.message)
        vector = self._vectors().vector(semantic)
        embedded = time.perf_counter()
        result = self._recall(principal, user_id, request, vector, stored, semantic)
        result.timings_ms["embed"] = round((embedded - started) * 1000, 3)
        return result

    def query_vector(self, principal: Principal, user_id: str, message: str) -> Sequence[float]:
        """The message embedded as recall embeds it (``semantic_query``: without the names
        of the people talking, ``_people``)."""
        profile = self.profiles.get_profile_and_settings(principal.tenant_id, user_id)[0]
        return self._vectors().vector(self._semantic_text(principal, user_id, profile, message))

    def _vectors(self) -> QueryVectors:
        if self.query_vectors.embedder is not self.embedder:  # the embedder was swapped
            self.query_vectors = QueryVectors(self.embedder)
        return self.query_vectors

    def _semantic_text(self, principal: Principal, user_id: str, profile: UserProfile | None, message: str) -> str:
        names = self._people(principal, user_id, profile)
        return semantic_query(message, names) if names else message

    def _people(self, principal: Principal, user_id: str, profile: UserProfile | None) -> list[str]:
        """The names of the people talking: the user's name and nickname and the name the
        user gave this agent (the profile), and, when the speaker part counts who said a
        message (``speaker_boost``), whoever said the user's past messages in this agent's
        threads as the index knows them (``SearchIndex.speakers``; not the roles a message
        without a speaker is indexed under). Without the second, an app that never set the
        profile lost both uses of the names (on the conversation evaluation, test R@10 /
        R@20 0.700 / 0.773 instead of 0.757 / 0.856, docs/recall.md). Another agent's
        threads are its own: who talks there must not change this agent's question (nor
        be told by it), as the name the user gave that agent does not."""
        names = [] if profile is None else [profile.name, profile.nickname, profile.agent_names.get(principal.agent_id)]
        people = [n for n in names if n]
        if self.weights.speaker_boost > 0:
            try:
                # This agent's threads, even for an admin key: recall uses the calling
                # agent's own view (docs/recall.md), and message search asks as recall does.
                said = self.index.speakers(principal.tenant_id, user_id, principal.agent_id)
            except StoreUnavailable:
                said = frozenset()  # recall itself degrades without the index
            people += sorted(s for s in said if s.casefold() not in _ROLES)
        return people

    def message_keywords(self, principal: Principal, user_id: str, message: str) -> str | None:
        """The keyword query for past messages (``_message_keywords``), for message search."""
        profile = self.profiles.get_profile_and_settings(principal.tenant_id, user_id)[0]
        return self._message_keywords(self._semantic_text(principal, user_id, profile, message), message)

    def _message_keywords(self, semantic: str, message: str) -> str | None:
        """The keyword query for past messages, when it is not the message: ``semantic``,
        the message without the names of the people talking (``_people``), when the
        speaker part counts who said a message (``speaker_boost``). A message is indexed as
        "{speaker}: {content}", so "Maya" in "What did Maya adopt?" matched every turn of
        Maya's, counting the speaker a second time; and in a store of many users her name
        is a rare word (BM25's IDF is the whole index's), so it outweighed the words that
        say what happened. Entries keep the name (they have no speaker part). None: the
        message as written."""
        if self.weights.speaker_boost <= 0:
            return None
        return None if semantic == message else semantic

    def recall_with_vector(
        self, principal: Principal, user_id: str, request: RecallRequest, vector: Sequence[float]
    ) -> RecallResult:
        """Recall with the message already embedded by ``self.embedder`` (benchmarks)."""
        require_role(principal, Role.VIEWER)
        _validate(request)
        stored = self.profiles.get_profile_and_settings(principal.tenant_id, user_id)
        semantic = self._semantic_text(principal, user_id, stored[0], request.message)
        return self._recall(principal, user_id, request, vector, stored, semantic)

    def _recall(
        self,
        principal: Principal,
        user_id: str,
        request: RecallRequest,
        vector: Sequence[float],
        stored: tuple[UserProfile | None, UserSettings | None],
        semantic: str,
    ) -> RecallResult:
        started = time.perf_counter()
        t, now = principal.tenant_id, self.clock.now()
        scope = VisibilityScope(principal.agent_id, principal.group_ids)
        stored_profile, stored_settings = stored
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
        keep = _Keep(scope, ReadPolicy.of(settings, now, Reader.AGENT), request.as_of)
        window = question_window(request.message, now)
        preferences: list[RecallItem] = []
        ranked: list[RecallItem | EpisodeItem] = []
        considered = below = 0
        degraded = False
        if settings.memory_enabled:
            preferences = self._tier1(t, user_id, scope, now, request.core_preferences, keep)
            ranked, considered, below, hits, degraded = self._tier2(
                t,
                user_id,
                scope,
                now,
                request,
                vector,
                top_k,
                min_score,
                keep,
                {p.entry.id for p in preferences},
                window,
                self._message_keywords(semantic, request.message),
            )
            preferences = self._tier1_parts(preferences, hits, now, window)
        relevant: list[Relevant] = [_memory(r.entry) if isinstance(r, RecallItem) else _episode(r) for r in ranked]
        rendered = render(identity, [_memory(p.entry) for p in preferences], relevant, request.token_budget)
        shown = set(rendered.included)
        preferences = [p for p in preferences if p.entry.id in shown]
        ranked = [r for r in ranked if _ref(r) in shown]
        memories = [r for r in ranked if isinstance(r, RecallItem)]
        episodes = [r for r in ranked if isinstance(r, EpisodeItem)]
        self._record_access(t, user_id, now, rendered.included, [*preferences, *memories])
        elapsed = round((time.perf_counter() - started) * 1000, 3)
        logger.info(
            "recall",
            extra={
                "tenant_id": t,
                "agent_id": principal.agent_id,
                "tier1": len(preferences),
                "tier2": len(memories),
                "episodes": len(episodes),
                "time_window": window is not None,
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
            episodes=episodes,
            ranked=ranked,
            window=window,
        )

    def _record_access(
        self, t: str, user_id: str, now: datetime, included: Sequence[str], shown: Sequence[RecallItem]
    ) -> None:
        """The entries shown (past messages keep no access statistics)."""
        ids = tuple(i for i in included if not i.startswith("msg|"))
        if ids:
            read = {item.entry.id: item.entry.last_accessed_at for item in shown}
            self.access.record(Access(t, user_id, ids, now, tuple((i, read[i]) for i in ids if i in read)))

    def _tier1(
        self, t: str, user_id: str, scope: VisibilityScope, now: datetime, limit: int, keep: _Keep
    ) -> list[RecallItem]:
        if limit <= 0:
            return []
        # A few more than asked: entries the user's own settings hide are skipped below.
        found = self.core.top_by_importance(t, user_id, scope, CORE_CATEGORY, now, limit + 5)
        kept = [e for e in found if keep(e)]
        if keep.as_of is not None:
            # As of a past time, a core preference since superseded was the one then.
            past = [e for e in self._past(t, user_id, scope, now, keep) if e.category == CORE_CATEGORY]
            kept = sorted([*kept, *past], key=lambda e: (-e.importance, e.id))
        kept = kept[:limit]
        return [
            RecallItem(e, 1, i + 1, f"core preference: importance {e.importance}, confidence {e.confidence:.2f}")
            for i, e in enumerate(kept)
        ]

    def _tier1_parts(
        self, preferences: list[RecallItem], hits: dict[str, SearchHit], now: datetime, window: TimeWindow | None
    ) -> list[RecallItem]:
        """Tier 1 is there whatever the message; its items still carry their score parts
        against it (what the index found of them, else zero relevance) so every item of
        the response explains itself the same way."""
        best = max((h.keyword for h in hits.values()), default=0.0)
        out = []
        for p in preferences:
            hit = hits.get(p.entry.id) or SearchHit(p.entry.id, DocKind.MEMORY)
            parts = score(entry_signals(p.entry, hit, window), self.weights, now, best)
            matched = matched_by(hit.keyword, parts)
            why = f"{p.why}; against the message: " + explain(parts, matched, to="the message")
            out.append(
                replace(p, why=why, parts=parts, matched_by=matched, keyword_raw=hit.keyword, semantic_raw=hit.semantic)
            )
        return out

    def candidates(self, principal: Principal, user_id: str, request: RecallRequest, vector: Sequence[float]) -> Pool:
        """Tier 2's candidates and their ranking inputs, unranked (bench/conv_tune.py tunes
        the weights on them without searching again)."""
        t, now = principal.tenant_id, self.clock.now()
        scope = VisibilityScope(principal.agent_id, principal.group_ids)
        settings = self.profiles.get_settings(t, user_id) or UserSettings(t, user_id)
        keep = _Keep(scope, ReadPolicy.of(settings, now, Reader.AGENT), request.as_of)
        window = question_window(request.message, now)
        profile = self.profiles.get_profile_and_settings(t, user_id)[0]
        return self._pool(
            t,
            user_id,
            scope,
            now,
            request,
            vector,
            request.top_k,
            keep,
            set(),
            window,
            message_text=self._message_keywords(
                self._semantic_text(principal, user_id, profile, request.message), request.message
            ),
        )

    def _pool(
        self,
        t: str,
        user_id: str,
        scope: VisibilityScope,
        now: datetime,
        request: RecallRequest,
        vector: Sequence[float],
        top_k: int,
        keep: _Keep,
        exclude: set[str],
        window: TimeWindow | None,
        lazy: bool = False,
        message_text: str | None = None,
    ) -> Pool:
        """Tier 2's candidates. ``lazy``: entries whose index document carries their ranking
        signals are ranked on those without a store read (``_tier2`` reads only the ones
        about to be shown); otherwise every candidate entry is read now."""
        k = max(top_k * CANDIDATES_PER_ITEM, MIN_CANDIDATES)
        kinds = [DocKind.MEMORY]
        with_episodes = request.episodes and self.messages is not None and request.categories is None
        if with_episodes:
            kinds.append(DocKind.MESSAGE)
        ask = Ask(
            t,
            user_id,
            now,
            request.message,
            scope,
            tuple(kinds),
            k,
            vector=vector,
            categories=request.categories,
            exclude_thread_ids=(request.exclude_thread_id,) if request.exclude_thread_id else (),
            window=window,
            per_kind=True,
            message_text=message_text if with_episodes else None,
        )
        try:
            hits = Retriever(self.index, self.embedder).hits(ask)
        except StoreUnavailable as exc:
            # The search index is down: the store still answers, so recall degrades to a
            # keyword match over the user's live entries (no episodes) and says so.
            logger.warning("recall degraded: search index unavailable", extra={"tenant_id": t, "error": exc.code})
            return self._keyword_pool(t, user_id, now, request, k, keep, window)
        entry_hits = {h.id: h for h in hits.values() if h.kind is DocKind.MEMORY and h.id not in exclude}
        message_hits = {h.id: h for h in hits.values() if h.kind is DocKind.MESSAGE}
        entries, entry_candidates = self._entry_candidates(t, user_id, entry_hits, keep, request, window, lazy)
        if keep.as_of is not None:
            # The values that held then and were superseded since: not in the index.
            past = {
                e.id: e
                for e in self._past(t, user_id, scope, now, keep)
                if e.id not in exclude and (request.categories is None or e.category in request.categories)
            }
            found = past_hits(list(past.values()), request.message, vector, self.embedder)
            hits = {**hits, **found}
            entries = {**entries, **past}
            entry_candidates = entry_candidates + [(i, entry_signals(e, found[i], window)) for i, e in past.items()]
        messages, message_candidates = self._message_candidates(
            t, user_id, scope, message_hits, keep, request, window, lazy
        )
        return Pool(hits, entries, messages, entry_candidates + message_candidates)

    def _past(self, t: str, user_id: str, scope: VisibilityScope, now: datetime, keep: _Keep) -> list[MemoryEntry]:
        assert keep.as_of is not None
        if keep.past is None:  # once per recall: both tiers use them
            keep.past = past_values(self.entries, t, user_id, now, keep.as_of, scope, keep.held_then)
        return keep.past

    def _entry_candidates(
        self,
        t: str,
        user_id: str,
        entry_hits: dict[str, SearchHit],
        keep: _Keep,
        request: RecallRequest,
        window: TimeWindow | None,
        lazy: bool,
    ) -> tuple[dict[str, MemoryEntry], list[tuple[str, Signals]]]:
        """Entries read now (none when ``lazy`` and the index carries their signals), and
        every entry candidate's ranking inputs."""
        if lazy and all(_ranks_on_index(h) for h in entry_hits.values()):
            return {}, [(eid, _index_signals(h, window)) for eid, h in entry_hits.items()]
        if not entry_hits:
            return {}, []
        # The store is the truth: an index lagging behind a supersede or delete must
        # not bring the old value back.
        entries = {
            e.id: e for e in self.entries.get_entries(t, user_id, sorted(entry_hits)) if _wanted(e, keep, request)
        }
        return entries, [(eid, entry_signals(e, entry_hits[eid], window)) for eid, e in entries.items()]

    def _message_candidates(
        self,
        t: str,
        user_id: str,
        scope: VisibilityScope,
        message_hits: dict[str, SearchHit],
        keep: _Keep,
        request: RecallRequest,
        window: TimeWindow | None,
        lazy: bool,
    ) -> tuple[dict[str, Message], list[tuple[str, Signals]]]:
        """Past messages read now (none when ``lazy`` and the index knows when each was
        said and by whom), and every message candidate's ranking inputs."""
        named = question_words(request.message)
        if lazy and all(h.occurred_at is not None and h.speaker is not None for h in message_hits.values()):
            # Past messages rank on when the index says they were said (their own
            # timestamp, so the same signals) and who said it, and are read only when
            # about to be shown; the thread and agent were checked by the index,
            # retention and asOf are checked here and again on the message read. A turn
            # said after asOf is no candidate at all: unread, it would still lift the
            # turns said around it (``ranking.lift_by_context``).
            return {}, [
                (mid, _indexed_episode_signals(h, window, named))
                for mid, h in message_hits.items()
                if h.occurred_at is not None
                and keep.said_within_retention(h.occurred_at)
                and keep.said_by_then(h.occurred_at)
            ]
        messages = self._messages(t, user_id, scope, sorted(message_hits), keep, request.exclude_thread_id)
        return messages, [(mid, _episode_signals(m, message_hits[mid], window, named)) for mid, m in messages.items()]

    def _keyword_pool(
        self,
        t: str,
        user_id: str,
        now: datetime,
        request: RecallRequest,
        k: int,
        keep: _Keep,
        window: TimeWindow | None,
    ) -> Pool:
        """Tier 2's candidates without the index: a keyword match over the live entries
        (and, as of a past time, the values that held then)."""
        past = [] if keep.as_of is None else self._past(t, user_id, keep.scope, now, keep)
        found = {h.id: h for h in keyword_hits([*self._live_entries(t, user_id, now), *past], request.message, k)}
        live = {e.id: e for e in self.entries.get_entries(t, user_id, sorted(found)) if _wanted(e, keep, request)}
        live |= {
            e.id: e for e in past if e.id in found and (request.categories is None or e.category in request.categories)
        }
        return Pool(
            found, live, {}, [(eid, entry_signals(e, found[eid], window)) for eid, e in live.items()], degraded=True
        )

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
        window: TimeWindow | None,
        message_text: str | None,
    ) -> tuple[list[RecallItem | EpisodeItem], int, int, dict[str, SearchHit], bool]:
        pool = self._pool(
            t, user_id, scope, now, request, vector, top_k, keep, exclude, window, lazy=True, message_text=message_text
        )
        hits, messages = pool.hits, pool.messages
        if pool.degraded:
            # Keyword-only scores sit on another scale than the tuned hybrid's minimum.
            min_score = 0.0
        # Entries and past messages ranked on the index's copy of their signals are read
        # from the store only when about to be shown (``confirm_top``).
        known: dict[str, MemoryEntry | Message] = {**pool.entries, **messages}
        named = question_words(request.message)

        def read(ids: list[str]) -> dict[str, MemoryEntry | Message]:
            found: dict[str, MemoryEntry | Message] = {}
            wanted_entries = [cid for cid in ids if hits[cid].kind is DocKind.MEMORY]
            wanted_messages = [cid for cid in ids if hits[cid].kind is DocKind.MESSAGE]
            if wanted_entries:
                found |= {
                    e.id: e for e in self.entries.get_entries(t, user_id, wanted_entries) if _wanted(e, keep, request)
                }
            if wanted_messages:
                found |= self._messages(t, user_id, scope, wanted_messages, keep, request.exclude_thread_id)
            return found

        def stored(cid: str, item: MemoryEntry | Message) -> Signals:
            if isinstance(item, MemoryEntry):
                return entry_signals(item, hits[cid], window)
            return _episode_signals(item, hits[cid], window, named)

        passing, considered = confirm_top(
            pool.candidates,
            known,
            read,
            stored,
            self.weights,
            now,
            min_score,
            top_k,
            neighbours=messages_said_around(hits, messages) if self.weights.context_boost > 0 else None,
        )
        items: list[RecallItem | EpisodeItem] = []
        for i, (cid, parts) in enumerate(passing[:top_k]):
            hit, item = hits[cid], known[cid]
            matched = matched_by(hit.keyword, parts)
            why = explain(parts, matched, to="the message")
            if isinstance(item, MemoryEntry):
                items.append(RecallItem(item, 2, i + 1, why, parts, matched, hit.keyword, hit.semantic))
            else:
                items.append(EpisodeItem(item, i + 1, why, parts, matched, hit.keyword, hit.semantic))
        return items, considered, considered - len(passing), hits, pool.degraded

    def _live_entries(self, t: str, user_id: str, now: datetime) -> list[MemoryEntry]:
        """The user's active entries, up to ``FALLBACK_MAX_ENTRIES``, from the store."""
        out: list[MemoryEntry] = []
        cursor: str | None = None
        while len(out) < FALLBACK_MAX_ENTRIES:
            page = self.entries.list_entries(
                t, user_id, EntryQuery(now=now, statuses=(Status.ACTIVE,), limit=500, cursor=cursor)
            )
            out.extend(page.items)
            cursor = page.next_cursor
            if cursor is None:
                break
        return out[:FALLBACK_MAX_ENTRIES]

    def _messages(
        self,
        t: str,
        user_id: str,
        scope: VisibilityScope,
        doc_ids: Sequence[str],
        keep: _Keep,
        exclude_thread_id: str | None,
    ) -> dict[str, Message]:
        """The live messages behind index hits, by document id (the repository decides)."""
        if self.messages is None or not doc_ids:
            return {}
        keys = [k for k in (parse_message_doc_id(d) for d in doc_ids) if k is not None]
        found = self.messages.get_messages(t, user_id, keys)
        return {
            message_doc_id(m.agent_id, m.thread_id, m.id): m
            for m in found
            # A thread is between the user and one agent: only that agent recalls it.
            if (scope.everything or m.agent_id == scope.agent_id)
            and m.thread_id != exclude_thread_id
            and keep.said_within_retention(m.timestamp)
            and keep.said_by_then(m.timestamp)
        }


class _Keep:
    """What recall may show: live, in the agent's scope, and what the read policy allows."""

    def __init__(self, scope: VisibilityScope, policy: ReadPolicy, as_of: datetime | None = None) -> None:
        self.scope = scope
        self.policy = policy
        self.as_of = as_of
        self.moment = as_of or policy.now
        self.past: list[MemoryEntry] | None = None  # as of a past time: the values held then

    def __call__(self, e: MemoryEntry) -> bool:
        # Current facts only: one that ended, or has not begun, is not the user's now
        # (bi-temporal); as of a past time, the facts that held then.
        return e.is_live(self.policy.now) and e.valid_at(self.moment) and self.scope.allows(e) and self.policy.allows(e)

    def held_then(self, e: MemoryEntry) -> bool:
        """A superseded value that was the fact at ``as_of`` (an as-of recall shows it)."""
        return self.as_of is not None and held_at(e, self.as_of) and self.scope.allows(e) and self.policy.allows(e)

    def said_within_retention(self, at: datetime) -> bool:
        return self.policy.within_retention(at)

    def said_by_then(self, at: datetime) -> bool:
        return self.as_of is None or at <= self.as_of


# What a message without a speaker is indexed under (``speaker_of``): roles, not people.
_ROLES = frozenset(r.value for r in MessageRole)

# How many of a user's entries the degraded path reads from the store (a user's cap is
# usually far below; the store pages them 500 at a time).
FALLBACK_MAX_ENTRIES = 2000


def _ranks_on_index(hit: SearchHit) -> bool:
    return hit.importance is not None and hit.confidence is not None and hit.updated_at is not None


def _index_signals(hit: SearchHit, window: TimeWindow | None) -> Signals:
    # Only called on hits _ranks_on_index accepted.
    at = hit.updated_at or _EPOCH
    return Signals(hit.keyword, hit.semantic, hit.importance or 0, hit.confidence or 0.0, at, time_match(at, window))


def _indexed_episode_signals(hit: SearchHit, window: TimeWindow | None, named: frozenset[str]) -> Signals:
    # Only called on hits that carry occurred_at (the message's own timestamp) and speaker.
    at = hit.occurred_at or _EPOCH
    return Signals(
        hit.keyword,
        hit.semantic,
        EPISODE_IMPORTANCE,
        1.0,
        at,
        time_match(at, window),
        speaker_named(hit.speaker or "", named),
    )


def _episode_signals(m: Message, hit: SearchHit, window: TimeWindow | None, named: frozenset[str]) -> Signals:
    return Signals(
        hit.keyword,
        hit.semantic,
        EPISODE_IMPORTANCE,
        1.0,
        m.timestamp,
        time_match(m.timestamp, window),
        speaker_named(speaker_of(m), named),
    )


def _wanted(e: MemoryEntry, keep: _Keep, request: RecallRequest) -> bool:
    return keep(e) and (request.categories is None or e.category in request.categories)


def _ref(item: RecallItem | EpisodeItem) -> str:
    return item.entry.id if isinstance(item, RecallItem) else item.id


def _memory(e: MemoryEntry) -> Memory:
    return Memory(e.id, e.key, e.value, e.category, e.updated_at, e.statement)


def _episode(item: EpisodeItem) -> Episode:
    return Episode(item.id, item.speaker, item.message.content, item.message.timestamp)


def _validate(request: RecallRequest) -> None:
    if not request.message.strip():
        raise ValidationFailed("The message to recall for must not be empty.", field="message")
    if request.token_budget < 1:
        raise ValidationFailed("tokenBudget must be at least 1.", field="tokenBudget")
    if request.top_k < 1:
        raise ValidationFailed("topK must be at least 1.", field="topK")
    check_time(request.as_of, "asOf")
