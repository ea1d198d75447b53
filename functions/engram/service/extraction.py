"""Processing an ingested message: index it, extract facts, write them (item 14).

Runs after each turn, off the request path: the ``extraction`` Lambda (SQS) in the
cloud, an in-process worker locally. Every fact goes through the same write pipeline
as an explicit write (``MemoryService.write``, actor system/extraction), after the
user's settings and the semantic dedup. ``IdempotentProcessor`` makes a job idempotent
on (tenant, user, thread, message id) with Powertools, so redelivery adds nothing.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any, Protocol, cast

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.idempotency import BasePersistenceLayer, IdempotencyConfig, idempotent_function
from aws_lambda_powertools.utilities.idempotency.exceptions import IdempotencyItemNotFoundError
from aws_lambda_powertools.utilities.typing import LambdaContext

from engram.domain.agent_config import AgentConfig, Guardrails
from engram.domain.conversation import (
    ExtractionJob,
    ExtractionRecord,
    Message,
    MessageRole,
    message_doc_id,
)
from engram.domain.conversation_codec import record_to_dict
from engram.domain.errors import CapacityReached, GuardrailViolation, UserErased, ValidationFailed
from engram.domain.extraction import ExtractedFact, Extraction, IdentityUpdate
from engram.domain.models import Actor, ActorType, Principal, Role, UserSettings, Visibility
from engram.domain.policies import check_key
from engram.domain.proposals import needs_approval
from engram.domain.sensitive import find_sensitive
from engram.domain.writes import WriteRequest
from engram.ports import (
    Clock,
    ConversationRepository,
    Embedder,
    ErasureMarks,
    FactExtractor,
    ProfileRepository,
    SearchIndex,
    TurnCounter,
)
from engram.service.agents import AgentConfigService
from engram.service.indexing import index_messages
from engram.service.memory import MemoryService, WriteResult
from engram.service.retrieval import IndexWriter
from engram.service.users import UserService

logger = Logger(service="engram", child=True)

EXTRACTION_ACTOR = Actor(ActorType.SYSTEM, "extraction")


@dataclass
class ExtractionService:
    repo: ConversationRepository
    profiles: ProfileRepository
    # A message of a user erased since it was appended is not extracted.
    erasures: ErasureMarks
    # Holds each agent's daily model spend (``_Budget``).
    turns: TurnCounter
    index: SearchIndex
    embedder: Embedder
    clock: Clock
    memory: MemoryService
    users: UserService
    agents: AgentConfigService
    extractor: FactExtractor
    # What extracts once an agent's daily model budget is spent (no model, no cost).
    fallback: FactExtractor | None = None

    def process(self, job: ExtractionJob) -> dict[str, Any]:
        msg = self.repo.get_message(job.thread_key, job.message_id)
        if msg is None:
            return {"status": "gone"}  # erased (or its thread deleted) before it was processed
        if msg.extraction is not None:
            return record_to_dict(msg.extraction)  # processed already, by an earlier delivery
        if self._erased_since(msg):
            return {"status": "erased"}
        self.index_message(msg)
        record = self._extract(msg)
        if self._erased_since(msg):
            # The user was erased while this job ran: take back what it indexed and
            # record nothing (the store already refused its memory writes).
            self.index.delete(msg.tenant_id, msg.user_id, [message_doc_id(msg.agent_id, msg.thread_id, msg.id)])
            return {"status": "erased"}
        self.repo.mark_extracted(msg.thread_key, msg.id, record)
        logger.info(
            "message processed",
            extra={
                "extractor": record.extractor,
                "status": record.status,
                "reason": record.reason,
                "outcomes": record.outcomes,
                "dropped": record.dropped,
            },
        )
        return record_to_dict(record)

    def _erased_since(self, msg: Message) -> bool:
        erased = self.erasures.erased_at(msg.tenant_id, msg.user_id)
        return erased is not None and erased >= msg.created_at

    def index_message(self, msg: Message) -> None:
        index_messages(IndexWriter(self.index, self.embedder), [msg])

    def _extract(self, msg: Message) -> ExtractionRecord:
        now = self.clock.now()
        extractor = self.extractor

        def skipped(reason: str, **extra: Any) -> ExtractionRecord:
            return ExtractionRecord("skipped", now, extractor.name, reason, **extra)

        if msg.role is not MessageRole.USER:
            return skipped("not_user_message")
        settings = self.profiles.get_settings(msg.tenant_id, msg.user_id) or UserSettings(msg.tenant_id, msg.user_id)
        if not settings.memory_enabled:
            return skipped("memory_off")
        config = self.agents.get(msg.tenant_id, msg.agent_id)
        budget = _Budget(
            self.turns, msg.tenant_id, msg.agent_id, now, config.user_memory_config.max_extraction_cost_per_day
        )
        ran = self._run(msg, budget)
        if ran is None:
            return skipped("cost_cap", usage={"costCapUsd": budget.cap_usd})
        extractor, extraction, usage = ran
        if extraction.skipped:
            return skipped(extraction.skipped, usage=usage)
        dropped: Counter[str] = Counter(extraction.dropped)
        if msg.redactions:
            # What redaction removed at append never reached the extractor as such; it
            # counts as dropped however the extractor read the "[redacted]" left behind.
            dropped["sensitive"] = max(dropped["sensitive"], len(msg.redactions))
        outcomes: Counter[str] = Counter()
        principal = Principal(msg.tenant_id, msg.agent_id, frozenset({Role.WRITER}))
        identity = self._identity(principal, msg.user_id, extraction.identity)
        for fact in extraction.facts:
            reason = self._refusal(fact, settings, config.user_memory_config.guardrails)
            if reason is not None:
                dropped[reason] += 1
                continue
            # The semantic dedup (the agent's rules): a fact in other words reinforces the
            # entry it repeats; the same subject with another value supersedes it. Only
            # the agent's own entries are candidates: a fact from its conversation is its
            # own (self), never written over a global or another agent's entry.
            request, _ = self.memory.resolve(self._request(msg, fact, settings), config)
            try:
                result = self._write_or_propose(principal, request, config)
            except CapacityReached:
                dropped["capacity"] += 1
                continue
            except UserErased:
                return skipped("erased")
            if result is None:
                dropped["approval_unavailable"] += 1
                continue
            outcomes[result.outcome.value] += 1
        return ExtractionRecord(
            "extracted", now, extractor.name, None, dict(outcomes), dict(dropped), identity.fields(), usage
        )

    def _run(self, msg: Message, budget: _Budget) -> tuple[FactExtractor, Extraction, dict[str, Any]] | None:
        """The extractor's findings within the agent's daily budget, with what they cost:
        the rules stand in once the budget is spent (None: nothing may run)."""
        extractor = self.extractor
        reserved = budget.reserve(extractor.max_cost_usd(msg.content))
        capped = reserved is None
        if capped:
            logger.warning("extraction cost cap reached", extra={"cap_usd": budget.cap_usd})
            if self.fallback is None:
                return None
            extractor = self.fallback
        try:
            extraction = extractor.extract(msg.content, msg.timestamp)
        except BaseException:
            budget.settle(reserved or 0, 0.0)  # a failed call is retried, and reserves again
            raise
        # The reservation becomes what the call cost.
        budget.settle(reserved or 0, 0.0 if extraction.usage is None else extraction.usage.cost_usd)
        usage = _usage(extraction)
        if capped:
            usage["costCapUsd"] = budget.cap_usd
        return extractor, extraction, usage

    def _write_or_propose(self, principal: Principal, request: WriteRequest, config: AgentConfig) -> WriteResult | None:
        """A fact written, or proposed where the agent's writes of its kind wait for the
        user's approval (so do the facts taken from its conversations); None: approval is
        needed and unavailable."""
        if not needs_approval(config.require_approval, request.category):
            return self.memory.write(request, config)
        if self.memory.proposer is None:
            return None
        return self.memory.proposer.propose_write(principal, request, config)

    def _refusal(self, fact: ExtractedFact, settings: UserSettings, guardrails: Guardrails) -> str | None:
        if settings.allowed_categories is not None and fact.category not in settings.allowed_categories:
            return "category_disabled"
        if find_sensitive(fact.value, fact.key) is not None or find_sensitive(fact.statement) is not None:
            return "sensitive"
        # The agent's rules hold for what is written on its behalf: its categories (an
        # agent allowing only preference and fact gets no feelings or events) and its
        # length limits.
        if fact.category not in guardrails.allowed_categories:
            return "category_not_allowed"
        try:
            check_key(fact.key, guardrails)
        except (GuardrailViolation, ValidationFailed):
            return "guardrail"
        if len(fact.value) > guardrails.max_value_length:
            return "guardrail"
        return None

    def _request(self, msg: Message, fact: ExtractedFact, settings: UserSettings) -> WriteRequest:
        return WriteRequest(
            tenant_id=msg.tenant_id,
            user_id=msg.user_id,
            key=fact.key,
            value=fact.value,
            category=fact.category,
            visibility=Visibility.SELF,
            agent_id=msg.agent_id,
            actor=EXTRACTION_ACTOR,
            statement=fact.statement[:4000],
            importance=fact.importance,
            confidence=fact.confidence,
            source_conversation_id=msg.thread_id,
            source_message_id=msg.id,
            source_time=msg.timestamp,
            valid_from=fact.valid_from,
            origin=msg.created_at,
            reason=f"extracted by {self.extractor.name} ({fact.rule})",
            retention=None if settings.retention_days is None else timedelta(days=settings.retention_days),
            ttl=self.memory.ttl,
        )

    def _identity(self, principal: Principal, user_id: str, ident: IdentityUpdate) -> IdentityUpdate:
        if ident.name or ident.nickname:
            self.users.update_profile(principal, user_id, name=ident.name, nickname=ident.nickname)
        if ident.agent_name:
            self.users.set_agent_name(principal, user_id, ident.agent_name)
        return ident


class _Budget:
    """An agent's model spend on extraction per UTC day (``maxExtractionCostPerDay``).

    Each call reserves its worst case before it runs and settles to its real cost after,
    so concurrent workers can never overspend the cap together. The counter is the
    store's bounded, atomic one (the writes-per-turn counter), under an owner id no API
    key can have ("#" is not allowed in agent ids); it expires with the day.
    """

    def __init__(self, counter: TurnCounter, tenant_id: str, agent_id: str, now: datetime, cap_usd: float) -> None:
        self.cap_usd = cap_usd
        day = now.astimezone(UTC).date()
        self._tenant, self._owner, self._counter = tenant_id, f"#extraction/{agent_id}", counter
        self._id = f"cost/{day.isoformat()}"
        self._expires = datetime.combine(day + timedelta(days=1), time(), UTC)

    def reserve(self, bound_usd: float) -> int | None:
        """Micro-dollars reserved (0: the call costs nothing), or None: the cap is reached."""
        micros = math.ceil(bound_usd * 1_000_000)
        if micros <= 0:
            return 0
        try:
            self._add(micros, math.floor(self.cap_usd * 1_000_000))
        except GuardrailViolation:
            return None
        return micros

    def settle(self, reserved: int, spent_usd: float) -> None:
        delta = math.ceil(spent_usd * 1_000_000) - reserved
        if delta:
            # Recorded whatever the cap: money spent is spent (a bound is never exceeded
            # in practice; a refund is negative).
            self._add(delta, UNBOUNDED)

    def _add(self, micros: int, limit: int) -> None:
        self._counter.add_turn_writes(self._tenant, self._owner, self._id, micros, limit, self._expires)


UNBOUNDED = 2**62


def _usage(extraction: Extraction) -> dict[str, float]:
    u = extraction.usage
    if u is None:
        return {}
    return {"inputTokens": u.input_tokens, "outputTokens": u.output_tokens, "costUsd": u.cost_usd}


# -- idempotency ---------------------------------------------------------------------------------
KEY_PREFIX = "engram.extraction"
# (tenant, user, agent, thread, message id): a thread id is only unique within its user
# and agent (two agents may each have a thread "t1" with a message "m1"). Records made
# under the older key without the agent are simply not matched: a job for a message
# already processed finds the message's own extraction record and does nothing. An
# erasure deletes them as well (LEGACY_IDEMPOTENCY_KEY) until they have all expired.
IDEMPOTENCY_KEY = "[tenantId, userId, agentId, threadId, messageId]"
LEGACY_IDEMPOTENCY_KEY = "[tenantId, userId, threadId, messageId]"
# SQS keeps a message at most 14 days; a record must outlive every redelivery of it.
DEFAULT_RECORD_SECONDS = 15 * 24 * 3600


class Invocation(Protocol):
    """What Powertools reads from a Lambda context: the time left (a local stand-in works)."""

    def get_remaining_time_in_millis(self) -> int: ...


class IdempotentProcessor:
    """``ExtractionService.process`` behind Powertools' ``idempotent_function``."""

    def __init__(
        self,
        process: Callable[[ExtractionJob], dict[str, Any]],
        persistence: BasePersistenceLayer,
        expires_after_seconds: int = DEFAULT_RECORD_SECONDS,
    ) -> None:
        self.config = IdempotencyConfig(
            event_key_jmespath=IDEMPOTENCY_KEY,
            raise_on_no_idempotency_key=True,
            expires_after_seconds=expires_after_seconds,
        )
        self._persistence = persistence
        # Configured up front (Powertools does it on first use) so that ``forget`` hashes
        # keys exactly as processing does, even in a process that has processed nothing.
        persistence.configure(self.config, key_prefix=KEY_PREFIX)
        # The same store read through the older key (without the agent), for erasure only:
        # a shallow copy shares the store's client, configured with the older key path.
        legacy = copy.copy(persistence)
        legacy.configured = False
        legacy.configure(
            IdempotencyConfig(event_key_jmespath=LEGACY_IDEMPOTENCY_KEY, raise_on_no_idempotency_key=True),
            key_prefix=KEY_PREFIX,
        )
        self._layers = (persistence, legacy)

        @idempotent_function(  # type: ignore[untyped-decorator]
            data_keyword_argument="job",
            persistence_store=persistence,
            config=self.config,
            key_prefix=KEY_PREFIX,
        )
        def run(job: dict[str, Any]) -> dict[str, Any]:
            return process(ExtractionJob.from_dict(job))

        self._run = run

    def __call__(self, job: ExtractionJob, context: Invocation | None = None) -> dict[str, Any]:
        if context is not None:
            # Lets an in-progress record expire with the invocation, so a job whose
            # Lambda timed out can be retried instead of waiting out the whole window.
            self.config.register_lambda_context(cast(LambdaContext, context))
        result: dict[str, Any] = self._run(job=job.as_dict())
        return result

    def forget(self, jobs: Sequence[ExtractionJob]) -> int:
        """Delete the records of these jobs (erasure), under the current key and the one
        before it (without the agent); return how many existed."""
        done = 0
        for job in jobs:
            data = job.as_dict()
            for layer in self._layers:
                try:
                    layer.get_record(data=data)
                except IdempotencyItemNotFoundError:
                    continue
                # Powertools' way to drop a record (it is how a failed call frees its key).
                layer.delete_record(data=data, exception=RuntimeError("erased"))
                done += 1
        return done
