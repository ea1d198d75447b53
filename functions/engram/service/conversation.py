"""Conversation memory use cases (behaviour item 13; Oasis, Mona, Mordecai).

Append messages to a thread (idempotent on message id, sensitive data redacted before
anything is stored), queue each for indexing and extraction, keep a rolling summary
every M turns, and at the message limit summarise and clear the window. Reading back
gives the last N messages and/or a token budget; search finds messages across threads
above a minimum similarity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from aws_lambda_powertools import Logger

from engram.domain.conversation import (
    LIMIT_NOTICE,
    ExtractionJob,
    Message,
    NewMessage,
    Thread,
    ThreadKey,
    ThreadSummary,
    Window,
    fit_window,
    message_doc_id,
    parse_message_doc_id,
    redact_metadata,
    redact_sensitive,
    roll_summary,
    speaker_of,
    summary_doc_id,
)
from engram.domain.conversation_codec import message_to_dict, summary_to_dict, thread_to_dict
from engram.domain.errors import Forbidden, NotFound, ValidationFailed
from engram.domain.models import Principal, Role
from engram.domain.policies import require_role, scope_for
from engram.domain.ranking import ScoreParts, Signals, question_words, speaker_named, weights_for
from engram.domain.temporal import question_window, time_match
from engram.domain.timebounds import check_time
from engram.ports import (
    Clock,
    ConversationRepository,
    DocKind,
    Embedder,
    Queue,
    SearchIndex,
)
from engram.service.indexing import summary_document
from engram.service.read_gate import ReadGate
from engram.service.retrieval import Ask, IndexWriter, Retriever, candidates_for, messages_said_around, rank_found

logger = Logger(service="engram", child=True)

PAGE = 200
# A message has no importance of its own: the middle of the scale (as in recall).
MESSAGE_IMPORTANCE = 50


@dataclass(frozen=True, slots=True)
class ConversationConfig:
    window: int = 20  # messages read back when the caller names no limit (Mona, Mordecai)
    message_limit: int = 30  # window size at which it is summarised and cleared (Mordecai)
    summary_every: int = 10  # the rolling summary folds in new messages every M of them
    # Cross-thread search floor on recall's hybrid score; None: the embedder's tuned
    # minimum (Oasis' 0.60 was a cosine floor for one sentence model, meaningless for
    # another embedder or for a fused score).
    min_score: float | None = None


@dataclass(frozen=True, slots=True)
class AppendResult:
    thread: Thread
    messages: list[Message]
    created: tuple[str, ...]
    queued: int
    summary: ThreadSummary | None
    limit_reached: bool
    notice: str | None


@dataclass(frozen=True, slots=True)
class WindowView:
    thread: Thread
    window: Window
    summary: ThreadSummary | None


@dataclass(frozen=True, slots=True)
class MessageHit:
    message: Message
    score: float
    parts: ScoreParts | None = None
    matched_by: tuple[str, ...] = ()
    why: str = ""


class Forgetter(Protocol):
    """Removes the idempotency records of messages, so an erased user starts clean."""

    def forget(self, jobs: Sequence[ExtractionJob]) -> int: ...


@dataclass
class ConversationService:
    repo: ConversationRepository
    queue: Queue
    index: SearchIndex
    embedder: Embedder
    clock: Clock
    config: ConversationConfig
    forgetter: Forgetter
    # Cross-thread search is long-term memory and answers to the read policy; the
    # thread window is the conversation itself and does not (docs/security.md).
    gate: ReadGate | None = None
    # The question embedded as recall embeds it (``RecallService.query_vector``: without
    # the names of the user and of the agent, from one cache), so message search and
    # recall score a message alike; None: the text as written.
    query_vector: Callable[[Principal, str, str], Sequence[float]] | None = None
    # The keyword query as recall words it for past messages (``RecallService.
    # message_keywords``: without those names when the speaker part counts who said
    # what); None, or a None answer: the text as written.
    message_keywords: Callable[[Principal, str, str], str | None] | None = None

    # -- writes ----------------------------------------------------------------------------
    def append(
        self, principal: Principal, user_id: str, thread_id: str, messages: Sequence[NewMessage]
    ) -> AppendResult:
        require_role(principal, Role.WRITER)
        # When the request reached Engram: an erasure at or after it wins (docs/user-control.md).
        origin = self.clock.now()
        if not messages:
            raise ValidationFailed("Send at least one message.", field="messages")
        clean: list[NewMessage] = []
        for m in messages:
            check_time(m.timestamp, "timestamp")
            # Messages are kept (the agent reads its window back), so they are redacted,
            # not refused: the content and every value of the metadata.
            content, rules = redact_sensitive(m.content)
            metadata, meta_rules = redact_metadata(m.metadata)
            fired = rules + meta_rules
            clean.append(NewMessage(m.id, m.role, content, m.timestamp, metadata, fired) if fired else m)
        # The caller's own thread: each agent has its own thread ids, so the answer is the
        # same whether or not another agent has a thread with this id (issue #22).
        key = ThreadKey(principal.tenant_id, user_id, principal.agent_id, thread_id)
        outcome = self.repo.append(key, clean, self.clock.now(), origin)
        # Jobs go out for every message not yet processed, replays included: a replay
        # after a failed send is how a message still gets extracted, and the worker's
        # idempotency makes the repeat of a job already queued harmless.
        jobs = [_job(m) for m in outcome.messages if m.extraction is None]
        self.queue.send(jobs)
        thread = outcome.thread
        summary = self.repo.get_summary(key)
        limit_reached, notice = False, None
        if outcome.created and thread.window_size >= self.config.message_limit:
            limit_reached = True
            summary, notice = self._close_window(thread, summary, {j.message_id for j in jobs})
            thread = self.repo.get_thread(key) or thread
        elif (
            outcome.created and thread.last_seq - (summary.covered_up_to if summary else 0) >= self.config.summary_every
        ):
            summary = self._summarise(thread, summary)
        logger.info(
            "messages appended",
            extra={
                "thread_messages": thread.last_seq,
                "messages_created": len(outcome.created),
                "jobs_queued": len(jobs),
            },
        )
        return AppendResult(thread, outcome.messages, outcome.created, len(jobs), summary, limit_reached, notice)

    def _close_window(
        self, thread: Thread, summary: ThreadSummary | None, queued: set[str]
    ) -> tuple[ThreadSummary | None, str | None]:
        """Mordecai's limit: extract, summarise, clear the window, tell the user."""
        # Extract: every window message is queued at its own append; re-send any whose
        # extraction has not finished, so nothing in the window is left behind.
        window = self.repo.recent(thread.key, thread.window_start, thread.window_size)
        late = [_job(m) for m in window if m.extraction is None and m.id not in queued]
        if late:
            self.queue.send(late)
        summary = self._summarise(thread, summary)
        cleared = self.repo.clear_window(thread.key, thread.window_start, thread.last_seq + 1, self.clock.now())
        # A concurrent append that cleared it first has told its caller already.
        return summary, LIMIT_NOTICE if cleared else None

    def _summarise(self, thread: Thread, summary: ThreadSummary | None) -> ThreadSummary | None:
        t, u, tid = thread.tenant_id, thread.user_id, thread.thread_id
        for _ in range(5):
            covered = summary.covered_up_to if summary else 0
            fresh: list[Message] = []
            while covered + len(fresh) < thread.last_seq:
                page = self.repo.list_messages(thread.key, covered + len(fresh), PAGE)
                if not page:
                    break
                fresh.extend(m for m in page if m.seq <= thread.last_seq)
            if not fresh:
                return summary
            text = roll_summary(summary.text if summary else None, fresh)
            updated = ThreadSummary(
                t,
                u,
                tid,
                thread.agent_id,
                text,
                fresh[-1].seq,
                (summary.messages_covered if summary else 0) + len(fresh),
                self.clock.now(),
                (summary.version if summary else 0) + 1,
            )
            if self.repo.put_summary(updated, summary.version if summary else None):
                self.index_summary(updated)
                return updated
            # Another append folded messages in first; start again from its summary.
            summary = self.repo.get_summary(thread.key)
            if summary is not None and summary.covered_up_to >= thread.last_seq:
                return summary
        return summary

    def index_summary(self, s: ThreadSummary) -> None:
        if not s.text.strip():
            self.index.delete(s.tenant_id, s.user_id, [summary_doc_id(s.agent_id, s.thread_id)])
            return
        IndexWriter(self.index, self.embedder).write([summary_document(s)])

    def delete_thread(
        self, principal: Principal, user_id: str, thread_id: str, agent_id: str | None = None
    ) -> dict[str, int]:
        """Forget one conversation: its messages, summary and their index documents.

        Facts already extracted from it stay: they are memories, forgotten on their own.
        """
        require_role(principal, Role.WRITER)
        thread = self._thread(principal, user_id, thread_id, agent_id)
        messages = self._all_messages(thread)
        self.forgetter.forget([_job(m) for m in messages])
        doc_ids = [message_doc_id(m.agent_id, m.thread_id, m.id) for m in messages]
        doc_ids.append(summary_doc_id(thread.agent_id, thread_id))
        counts = self.repo.delete_thread(thread.key)
        self.index.delete(principal.tenant_id, user_id, doc_ids)
        return counts

    # -- reads -------------------------------------------------------------------------------
    def window(
        self,
        principal: Principal,
        user_id: str,
        thread_id: str,
        last: int | None = None,
        token_budget: int | None = None,
        agent_id: str | None = None,
    ) -> WindowView:
        require_role(principal, Role.VIEWER)
        thread = self._thread(principal, user_id, thread_id, agent_id)
        if last is None and token_budget is None:
            last = self.config.window
        newest: list[Message] = []
        want = thread.window_size if last is None else min(last, thread.window_size)
        before: int | None = None
        tokens = 0
        while len(newest) < want:
            page = self.repo.recent(thread.key, thread.window_start, min(PAGE, want - len(newest)), before)
            if not page:
                break
            newest.extend(page)
            tokens += sum(m.tokens for m in page)
            before = page[-1].seq
            if token_budget is not None and tokens > token_budget:
                break  # enough read to know where the budget cuts
        summary = self.repo.get_summary(thread.key)
        fitted = fit_window(newest, last, token_budget)
        # Truncated against the whole live window, not just the part read.
        return WindowView(thread, replace(fitted, truncated=len(fitted.messages) < thread.window_size), summary)

    def message(
        self, principal: Principal, user_id: str, thread_id: str, message_id: str, agent_id: str | None = None
    ) -> Message:
        require_role(principal, Role.VIEWER)
        thread = self._thread(principal, user_id, thread_id, agent_id)
        msg = self.repo.get_message(thread.key, message_id)
        if msg is None:
            raise NotFound("This thread has no message with that id.", messageId=message_id)
        return msg

    def summary(self, principal: Principal, user_id: str, thread_id: str, agent_id: str | None = None) -> ThreadSummary:
        require_role(principal, Role.VIEWER)
        thread = self._thread(principal, user_id, thread_id, agent_id)
        s = self.repo.get_summary(thread.key)
        if s is None:
            raise NotFound(
                f"This thread has no summary yet; one is made every {self.config.summary_every} messages.",
                threadId=thread_id,
            )
        return s

    def threads(self, principal: Principal, user_id: str) -> list[Thread]:
        require_role(principal, Role.VIEWER)
        agent = None if principal.is_admin else principal.agent_id
        return self.repo.list_threads(principal.tenant_id, user_id, agent)

    def summaries(self, principal: Principal, user_id: str, thread_id: str | None = None) -> list[ThreadSummary]:
        require_role(principal, Role.VIEWER)
        agent = None if principal.is_admin else principal.agent_id
        if thread_id is not None and agent is not None:
            s = self.repo.get_summary(ThreadKey(principal.tenant_id, user_id, agent, thread_id))
            return [] if s is None else [s]
        found = self.repo.list_summaries(principal.tenant_id, user_id, agent)
        # An admin naming a thread id gets the summary of every agent's thread of that id.
        return [s for s in found if thread_id is None or s.thread_id == thread_id]

    def search(
        self,
        principal: Principal,
        user_id: str,
        text: str,
        *,
        limit: int = 10,
        min_score: float | None = None,
        exclude_thread_id: str | None = None,
    ) -> list[MessageHit]:
        """Messages from any of the caller's threads relevant to ``text``, by recall's one
        ranking (words and meaning, and the time span the text names), at or above
        ``min_score`` (None: the configured floor, else the embedder's tuned minimum)."""
        require_role(principal, Role.VIEWER)
        if not text.strip():
            raise ValidationFailed("The search text must not be empty.", field="q")
        policy = None if self.gate is None else self.gate.policy(principal, user_id)
        if policy is not None and not policy.memory_readable:
            return []
        weights = weights_for(self.embedder.model_id)
        floor = self.min_score_default() if min_score is None else min_score
        now = self.clock.now()
        window = question_window(text, now)
        vector = None if self.query_vector is None else self.query_vector(principal, user_id, text)
        hits = Retriever(self.index, self.embedder).hits(
            Ask(
                principal.tenant_id,
                user_id,
                now,
                text,
                scope_for(principal),
                (DocKind.MESSAGE,),
                candidates_for(limit),
                vector=vector,
                # Thread ids are per agent and the excluded thread is the caller's own; the
                # index filters by id alone, which only a key seeing its own threads may use.
                exclude_thread_ids=(exclude_thread_id,) if exclude_thread_id and not principal.is_admin else (),
                window=window,
                message_text=None if self.message_keywords is None else self.message_keywords(principal, user_id, text),
            )
        )
        keys = [k for k in (parse_message_doc_id(doc_id) for doc_id in hits) if k is not None]
        found = self.repo.get_messages(principal.tenant_id, user_id, keys)
        # The repository is the truth: a message deleted after indexing is not returned.
        # Past the user's retention a message is memory no more, as recall reads it (by
        # when it was said).
        live = {
            message_doc_id(m.agent_id, m.thread_id, m.id): m
            for m in found
            if _may_read(principal, m.agent_id)
            and (m.agent_id, m.thread_id) != (principal.agent_id, exclude_thread_id)
            and (policy is None or policy.within_retention(m.timestamp))
        }
        named = question_words(text)
        ranked = rank_found(
            hits,
            live,
            lambda m, h: Signals(
                h.keyword,
                h.semantic,
                MESSAGE_IMPORTANCE,
                1.0,
                m.timestamp,
                time_match(m.timestamp, window),
                speaker_named(speaker_of(m), named),
            ),
            weights,
            now,
            floor,
            # News told over a few turns is found as a whole, as recall finds it.
            neighbours=messages_said_around(hits, live) if weights.context_boost > 0 else None,
        )
        return [MessageHit(f.item, f.score, f.parts, f.matched_by, f.why) for f in ranked[:limit]]

    def min_score_default(self) -> float:
        return weights_for(self.embedder.model_id).min_score if self.config.min_score is None else self.config.min_score

    # -- privacy ------------------------------------------------------------------------------
    def export_user(self, tenant_id: str, user_id: str) -> dict[str, Any]:
        threads = self.repo.list_threads(tenant_id, user_id)
        return {
            "threads": [thread_to_dict(th) for th in threads],
            "messages": [message_to_dict(m) for m in self.repo.user_messages(tenant_id, user_id)],
            "summaries": [summary_to_dict(s) for s in self.repo.list_summaries(tenant_id, user_id)],
        }

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        jobs = [_job(m) for m in self.repo.user_messages(tenant_id, user_id)]
        forgotten = self.forgetter.forget(jobs)
        counts = self.repo.erase_user(tenant_id, user_id)
        return {**counts, "idempotencyRecords": forgotten}

    # -- helpers ------------------------------------------------------------------------------
    def _thread(self, principal: Principal, user_id: str, thread_id: str, agent_id: str | None = None) -> Thread:
        """The caller's own thread of that id, or (an admin naming ``agent_id``) that agent's.

        Whether another agent has a thread of this id never changes the answer: a key
        names only its own threads; naming another agent is refused for any id.
        """
        owner = agent_id or principal.agent_id
        if not _may_read(principal, owner):
            raise Forbidden("Only an admin key may read another agent's threads.", agentId=owner)
        thread = self.repo.get_thread(ThreadKey(principal.tenant_id, user_id, owner, thread_id))
        if thread is None:
            raise NotFound("No thread with that id is visible to this key.", threadId=thread_id)
        return thread

    def _all_messages(self, thread: Thread) -> list[Message]:
        out: list[Message] = []
        while True:
            page = self.repo.list_messages(thread.key, out[-1].seq if out else 0, PAGE)
            out.extend(page)
            if len(page) < PAGE:
                return out


def _job(m: Message) -> ExtractionJob:
    return ExtractionJob(m.tenant_id, m.user_id, m.thread_id, m.id, m.agent_id)


def _may_read(principal: Principal, agent_id: str) -> bool:
    return principal.is_admin or agent_id == principal.agent_id
