"""Proposals (behaviour item 11): an agent proposes, the user approves or rejects.

``propose`` is the entry point for agents and their tools (``propose_memory_edit``):
the change is checked now exactly as a write would be (guardrails, sensitive data, the
user's settings), stored as pending, and supersedes any older pending proposal for the
same memory identity or block. ``approve`` applies it through the same write paths as
everything else (``MemoryService.write``, ``BlockService``), as a change by the user;
``reject`` changes nothing.

Approval is claim, apply, record: the proposal is first claimed (pending -> applying,
conditional on its revision, so two approvals or an approval racing a rejection cannot
both win), then the change is applied as one atomic write, then the proposal is marked
approved with what it produced. A failed apply hands the claim back (pending again). A
claim left behind by a crash can be approved again after ``CLAIM_TIMEOUT``; the apply
step recognises its own earlier write and does not repeat it.

Deciding is the user's act: it takes an admin key (the user's console). An agent sees
and proposes; it cannot approve its own proposals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from aws_lambda_powertools import Logger

from engram.domain.agent_config import AgentConfig
from engram.domain.blocks import BlockEdit, edit_texts, values_to_plain
from engram.domain.errors import NotFound, ProposalNotOpen, ValidationFailed
from engram.domain.models import Actor, ActorType, MemoryEntry, Page, Principal, Role, Status, Visibility
from engram.domain.policies import check_write, require_role
from engram.domain.proposals import (
    BlockChange,
    EntryRemoval,
    EntryUpsert,
    Proposal,
    ProposalStatus,
    ProposedChange,
    block_target,
    new_proposal_id,
    proposal_to_dict,
)
from engram.domain.sensitive import reject_sensitive as refuse_sensitive
from engram.domain.writes import Outcome, WriteRequest, plan_write
from engram.ports import Clock, MemoryRepository, ProposalQuery, ProposalRepository
from engram.service.agents import AgentConfigService
from engram.service.blocks import BlockService, BlockWriteResult
from engram.service.memory import MemoryService, UpsertCommand, WriteResult, reject_sensitive

logger = Logger(service="engram", child=True)

CLAIM_TIMEOUT = timedelta(seconds=60)
MAX_REASON = 1000


@dataclass(frozen=True, slots=True)
class Decision:
    """An approved proposal and what its change produced."""

    proposal: Proposal
    write: WriteResult | None = None
    removed: MemoryEntry | None = None
    block: BlockWriteResult | None = None


@dataclass
class ProposalService:
    repo: ProposalRepository
    entries: MemoryRepository
    memory: MemoryService
    blocks: BlockService
    agents: AgentConfigService
    clock: Clock

    # -- proposing ------------------------------------------------------------------------------
    def propose(self, principal: Principal, user_id: str, change: ProposedChange, *, reason: str = "") -> Proposal:
        """Propose ``change`` for the user to decide on, as the calling agent.

        ``EntryUpsert``: remember a value (checked like ``PUT /memories``);
        ``EntryRemoval``: forget an entry the agent can see;
        ``BlockChange``: change one of the agent's memory blocks.
        """
        if isinstance(change, EntryUpsert):
            return self.propose_entry(principal, user_id, _command(change), reason=reason)
        if isinstance(change, EntryRemoval):
            return self.propose_forget(principal, user_id, change.entry_id, reason=reason)
        return self.propose_block(principal, user_id, change.block, change.edit, reason)

    def propose_entry(
        self, principal: Principal, user_id: str, command: UpsertCommand, *, reason: str = ""
    ) -> Proposal:
        request, config = self.memory.prepare(principal, user_id, command)
        proposal = self.propose_write(principal, request, config, reason=reason).proposal
        assert proposal is not None
        return proposal

    def propose_write(
        self, principal: Principal, request: WriteRequest, config: AgentConfig, reason: str = ""
    ) -> WriteResult:
        """A checked write (``MemoryService.upsert`` under ``requireApproval``) as a proposal."""
        require_role(principal, Role.WRITER)
        self.memory.check_settings(request.tenant_id, request.user_id, request.category)
        now = self.clock.now()
        state = self.entries.get_identity(request.tenant_id, request.user_id, request.identity)
        current = None
        if state is not None and state.current_entry_id is not None:
            current = self.entries.get_entry(request.tenant_id, request.user_id, state.current_entry_id)
            if current is not None and not current.is_live(now):
                current = None
        preview = plan_write(request, current, None if state is None else state.version, now).entry
        change = EntryUpsert(
            key=request.key,
            value=request.value,
            category=request.category,
            visibility=request.visibility,
            statement=request.statement,
            group_ids=request.group_ids,
            importance=request.importance,
            confidence=request.confidence,
            source_conversation_id=request.source_conversation_id,
            source_message_id=request.source_message_id,
            source_time=request.source_time,
            valid_from=request.valid_from,
            valid_to=request.valid_to,
        )
        before = None if current is None else _entry_view(current)
        after = {"key": request.key, "value": request.value, "category": request.category}
        if request.statement is not None:
            after["statement"] = request.statement
        proposal = self._create(principal, request.user_id, request.identity, change, reason, before, after, config)
        return WriteResult(Outcome.PROPOSED, preview, current, (), proposal)

    def propose_forget(self, principal: Principal, user_id: str, entry_id: str, *, reason: str = "") -> Proposal:
        require_role(principal, Role.WRITER)
        entry = self.memory.get(principal, user_id, entry_id)
        if entry.status is not Status.ACTIVE:
            raise ValidationFailed("This memory is not active; there is nothing to forget.", entryId=entry_id)
        config = self.agents.get(principal.tenant_id, principal.agent_id)
        change = EntryRemoval(entry.id, entry.key, entry.category)
        return self._create(principal, user_id, entry.identity_id, change, reason, _entry_view(entry), None, config)

    def propose_block(
        self, principal: Principal, user_id: str, block: str, edit: BlockEdit, reason: str = ""
    ) -> Proposal:
        require_role(principal, Role.WRITER)
        if edit.is_empty():
            raise ValidationFailed("The edit changes nothing: give replace, set, append, remove or completeTask.")
        self.memory.check_settings(principal.tenant_id, user_id)
        refuse_sensitive(edit_texts(edit), "block value")
        _, current, after = self.blocks.preview(principal, user_id, block, edit)
        config = self.agents.get(principal.tenant_id, principal.agent_id)
        return self._create(
            principal,
            user_id,
            block_target(principal.agent_id, block),
            BlockChange(block, edit),
            reason,
            None if current is None else values_to_plain(current.values),
            values_to_plain(after),
            config,
        )

    def _create(
        self,
        principal: Principal,
        user_id: str,
        target_id: str,
        change: ProposedChange,
        reason: str,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        config: AgentConfig,
    ) -> Proposal:
        if len(reason) > MAX_REASON:
            raise ValidationFailed(f"The reason takes at most {MAX_REASON} characters.", field="reason")
        # The user reads the reason; it is stored, so it is filtered like the change itself.
        refuse_sensitive([("reason", reason)], "reason")
        now = self.clock.now()
        proposal = Proposal(
            id=new_proposal_id(),
            tenant_id=principal.tenant_id,
            user_id=user_id,
            agent_id=principal.agent_id,
            target_id=target_id,
            change=change,
            reason=reason,
            status=ProposalStatus.PENDING,
            created_at=now,
            expires_at=now + timedelta(hours=config.proposal_expiry_hours),
            before=before,
            after=after,
        )
        superseded = self.repo.create_proposal(proposal, now)
        logger.info("proposal created", extra={"proposal_id": proposal.id, "superseded": len(superseded)})
        return proposal

    # -- reading --------------------------------------------------------------------------------
    def list_proposals(
        self,
        principal: Principal,
        user_id: str,
        *,
        statuses: Sequence[ProposalStatus] | None = (ProposalStatus.PENDING,),
        agent_id: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> Page[Proposal]:
        """Proposals about the user: an admin sees all (or one agent's), an agent its own."""
        require_role(principal, Role.VIEWER)
        # A proposal quotes the memory it would change: memory off closes them to agents.
        if not self.memory.gate.policy(principal, user_id).memory_readable:
            return Page([])
        if not principal.is_admin:
            agent_id = principal.agent_id
        query = ProposalQuery(
            now=self.clock.now(),
            statuses=None if statuses is None else tuple(statuses),
            agent_id=agent_id,
            limit=limit,
            cursor=cursor,
        )
        return self.repo.list_proposals(principal.tenant_id, user_id, query)

    def get(self, principal: Principal, user_id: str, proposal_id: str) -> Proposal:
        require_role(principal, Role.VIEWER)
        self.memory.gate.policy(principal, user_id).require_readable()
        found = self.repo.get_proposal(principal.tenant_id, user_id, proposal_id)
        if found is None or (not principal.is_admin and found.agent_id != principal.agent_id):
            raise NotFound("No proposal with that id is visible to this key.", proposalId=proposal_id)
        return found

    # -- deciding -------------------------------------------------------------------------------
    def approve(self, principal: Principal, user_id: str, proposal_id: str, note: str | None = None) -> Decision:
        require_role(principal, Role.ADMIN)
        refuse_sensitive([("note", note or "")], "decision note")  # kept on the proposal
        claimed = self._claim(principal, user_id, proposal_id)
        user = Actor(ActorType.USER, user_id)
        try:
            decision = self._apply(claimed, user, principal)
        except BaseException:
            released = replace(claimed, status=ProposalStatus.PENDING, claimed_at=None, revision=claimed.revision + 1)
            if not self.repo.update_proposal(released, claimed.revision):
                logger.warning("proposal claim not released", extra={"proposal_id": claimed.id})
            raise
        done = replace(
            claimed,
            status=ProposalStatus.APPROVED,
            decided_at=self.clock.now(),
            decided_by=user,
            decided_via_key=principal.key_id,
            note=note,
            result=_result(decision),
            revision=claimed.revision + 1,
        )
        if not self.repo.update_proposal(done, claimed.revision):
            # Only a crash-recovery claim can overtake ours; its apply will find ours done.
            logger.warning("proposal approval not recorded", extra={"proposal_id": claimed.id})
        logger.info("proposal approved", extra={"proposal_id": claimed.id})
        return replace(decision, proposal=done)

    def reject(self, principal: Principal, user_id: str, proposal_id: str, note: str | None = None) -> Proposal:
        require_role(principal, Role.ADMIN)
        refuse_sensitive([("note", note or "")], "decision note")  # kept on the proposal
        for _ in range(5):
            current = self.get(principal, user_id, proposal_id)
            self._require_open(current, allow_stale_claim=False)
            rejected = replace(
                current,
                status=ProposalStatus.REJECTED,
                decided_at=self.clock.now(),
                decided_by=Actor(ActorType.USER, user_id),
                decided_via_key=principal.key_id,
                note=note,
                revision=current.revision + 1,
            )
            if self.repo.update_proposal(rejected, current.revision):
                logger.info("proposal rejected", extra={"proposal_id": proposal_id})
                return rejected
        raise ProposalNotOpen("proposal_busy", "This proposal keeps changing; read it again.", proposalId=proposal_id)

    def _claim(self, principal: Principal, user_id: str, proposal_id: str) -> Proposal:
        for _ in range(5):
            current = self.get(principal, user_id, proposal_id)
            self._require_open(current, allow_stale_claim=True)
            claimed = replace(
                current, status=ProposalStatus.APPLYING, claimed_at=self.clock.now(), revision=current.revision + 1
            )
            if self.repo.update_proposal(claimed, current.revision):
                return claimed
        raise ProposalNotOpen("proposal_busy", "This proposal keeps changing; read it again.", proposalId=proposal_id)

    def _require_open(self, p: Proposal, *, allow_stale_claim: bool) -> None:
        now = self.clock.now()
        status = p.effective_status(now)
        if status is ProposalStatus.PENDING:
            return
        if status is ProposalStatus.APPLYING:
            stale = p.claimed_at is None or p.claimed_at + CLAIM_TIMEOUT <= now
            if allow_stale_claim and stale:
                return
            raise ProposalNotOpen("proposal_in_progress", "This proposal is being approved right now.", proposalId=p.id)
        if status is ProposalStatus.SUPERSEDED:
            raise ProposalNotOpen(
                "proposal_superseded",
                "A newer proposal for the same memory replaced this one; decide on that one instead.",
                proposalId=p.id,
                supersededBy=p.superseded_by,
            )
        if status is ProposalStatus.EXPIRED:
            raise ProposalNotOpen(
                "proposal_expired", "This proposal expired before anyone decided on it.", proposalId=p.id
            )
        raise ProposalNotOpen(
            "proposal_decided", f"This proposal was already {status.value}.", proposalId=p.id, status=status.value
        )

    def _apply(self, p: Proposal, user: Actor, principal: Principal) -> Decision:
        change = p.change
        reason = f"approved proposal {p.id}"
        if isinstance(change, BlockChange):
            return Decision(p, block=self.blocks.apply_proposal(p, change.edit, change.block, user))
        if isinstance(change, EntryRemoval):
            entry = self.entries.get_entry(p.tenant_id, p.user_id, change.entry_id)
            if entry is None or entry.status is not Status.ACTIVE:
                return Decision(p, removed=entry)
            return Decision(p, removed=self.memory.delete(principal, p.user_id, change.entry_id, reason, actor=user))
        config = self.agents.get(p.tenant_id, p.agent_id)
        # The agent's length limits and the sensitive filter may have tightened since. Its
        # category list was checked when proposing (system categories such as "legacy"
        # are outside it); the user's own category choice is checked by the write.
        g = config.user_memory_config.guardrails
        g = g.model_copy(update={"allowed_categories": (*g.allowed_categories, change.category)})
        check_write(change.key, change.value, change.category, g)
        reject_sensitive(change.key, change.value, change.statement)
        request = WriteRequest(
            tenant_id=p.tenant_id,
            user_id=p.user_id,
            key=change.key,
            value=change.value,
            category=change.category,
            visibility=change.visibility,
            agent_id=p.agent_id,
            actor=user,
            statement=change.statement,
            group_ids=change.group_ids,
            importance=change.importance,
            confidence=change.confidence,
            source_conversation_id=change.source_conversation_id,
            source_message_id=change.source_message_id,
            source_time=change.source_time,
            valid_from=change.valid_from,
            valid_to=change.valid_to,
            reason=reason,
            ttl=self.memory.ttl,
        )
        earlier = self._applied_before(p, request.identity, reason)
        if earlier is not None:
            return Decision(p, write=WriteResult(Outcome.UPDATED, earlier))
        return Decision(p, write=self.memory.write(request, config))

    def _applied_before(self, p: Proposal, identity: str, reason: str) -> MemoryEntry | None:
        """After a crash mid-approval: the entry this proposal already wrote, if any."""
        if p.claimed_at is None or p.revision <= 2:
            return None  # a first claim: nothing can have been applied yet
        found: MemoryEntry | None = None
        cursor: str | None = None
        while True:
            page = self.entries.history(p.tenant_id, p.user_id, identity, 1000, cursor)
            found = next((r.entry for r in reversed(page.items) if r.reason == reason), found)
            cursor = page.next_cursor
            if cursor is None:
                return found

    # -- privacy ---------------------------------------------------------------------------------
    def export(self, tenant_id: str, user_id: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            page = self.repo.list_proposals(
                tenant_id, user_id, ProposalQuery(now=self.clock.now(), limit=1000, cursor=cursor)
            )
            out.extend(proposal_to_dict(p) for p in page.items)
            cursor = page.next_cursor
            if cursor is None:
                return out


def _command(change: EntryUpsert) -> UpsertCommand:
    return UpsertCommand(
        key=change.key,
        value=change.value,
        category=change.category,
        visibility=change.visibility,
        statement=change.statement,
        group_ids=change.group_ids or None,
        importance=change.importance,
        confidence=change.confidence,
        source_conversation_id=change.source_conversation_id,
        source_message_id=change.source_message_id,
        source_time=change.source_time,
        valid_from=change.valid_from,
        valid_to=change.valid_to,
    )


def _entry_view(e: MemoryEntry) -> dict[str, Any]:
    view: dict[str, Any] = {"entryId": e.id, "key": e.key, "value": e.value, "category": e.category}
    if e.statement is not None:
        view["statement"] = e.statement
    return view


def _result(d: Decision) -> dict[str, Any]:
    if d.write is not None:
        return {"entryId": d.write.entry.id, "outcome": d.write.outcome.value, "version": d.write.entry.version}
    if d.removed is not None:
        return {"entryId": d.removed.id, "outcome": "deleted"}
    if d.block is not None and d.block.block is not None:
        return {
            "block": d.block.schema.name,
            "version": d.block.block.version,
            "archivedIds": [r.id for r in d.block.archived],
        }
    return {}


@dataclass
class ToolProposals:
    """What the LLM tool ``propose_memory_edit`` calls (``service.tools.ProposalSink``)."""

    proposals: ProposalService

    def propose(
        self,
        principal: Principal,
        user_id: str,
        key: str,
        value: str,
        category: str,
        visibility: Visibility,
        reason: str,
    ) -> dict[str, Any]:
        command = UpsertCommand(key=key, value=value, category=category, visibility=visibility)
        p = self.proposals.propose_entry(principal, user_id, command, reason=reason)
        view = proposal_to_dict(p)
        for internal in ("tenantId", "revision", "claimedAt", "decidedViaKey"):
            view.pop(internal, None)
        return view
