"""Proposals: what agents suggest remembering, changing or forgetting, for the user to
approve or reject (deciding takes an admin key: the user's console)."""

from __future__ import annotations

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Path, Query

from engram.api.control_schemas import (
    BlockView,
    DecisionRequest,
    ProposalCreate,
    ProposalPage,
    domain_change,
    proposal_view,
)
from engram.api.deps import Cursor, Limit, UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN, ApiModel, Entry, ProposalView
from engram.domain.proposals import PROPOSAL_ID_PATTERN, ProposalStatus

router = new_router()
TAG = ["proposals"]

ProposalId = Annotated[str, Path(pattern=PROPOSAL_ID_PATTERN, description="A proposal id.")]
StatusFilter = Annotated[
    Literal["pending", "applying", "approved", "rejected", "superseded", "expired", "all"],
    Query(description="Which proposals; pending by default."),
]


class Decision(ApiModel):
    proposal: ProposalView
    entry: Entry | None = None
    block: BlockView | None = None


@router.get(
    "/users/<userId>/proposals",
    summary="Proposals about the user (an agent sees its own, an admin all)",
    tags=TAG,
    responses=errors(),
)
def list_proposals(
    userId: UserId,
    status: StatusFilter = "pending",
    agentId: Annotated[str | None, Query(pattern=ID_PATTERN, description="Admin: one agent's proposals.")] = None,
    limit: Limit = 50,
    cursor: Cursor = None,
) -> ProposalPage:
    engram, principal = context(router)
    statuses = None if status == "all" else (ProposalStatus(status),)
    page = engram.proposals.list_proposals(
        principal, userId, statuses=statuses, agent_id=agentId, limit=limit, cursor=cursor
    )
    now = engram.clock.now()
    return ProposalPage(items=[proposal_view(p, now) for p in page.items], next_cursor=page.next_cursor)


@router.post(
    "/users/<userId>/proposals",
    summary="Propose a change for the user to approve (what the propose tool does)",
    description=(
        "The change is checked now as a write would be (guardrails, sensitive data, the user's "
        "settings) and stored as pending; it supersedes an older pending proposal for the same "
        "memory or block."
    ),
    tags=TAG,
    responses=errors(409, ok=201, ok_description="The pending proposal."),
)
def create_proposal(userId: UserId, body: ProposalCreate) -> Response[ProposalView]:
    engram, principal = context(router)
    p = engram.proposals.propose(principal, userId, domain_change(body.change), reason=body.reason)
    return Response(
        status_code=201,
        content_type=content_types.APPLICATION_JSON,
        body=proposal_view(p, engram.clock.now()),
    )


@router.get(
    "/users/<userId>/proposals/<proposalId>",
    summary="One proposal",
    tags=TAG,
    responses=errors(),
)
def get_proposal(userId: UserId, proposalId: ProposalId) -> ProposalView:
    engram, principal = context(router)
    return proposal_view(engram.proposals.get(principal, userId, proposalId), engram.clock.now())


@router.post(
    "/users/<userId>/proposals/<proposalId>/approve",
    summary="Approve: the change is applied, as a change by the user (admin)",
    description=(
        "409 with proposal_superseded, proposal_expired or proposal_decided when the proposal can "
        "no longer be decided; a failed change leaves it pending."
    ),
    tags=TAG,
    responses=errors(409),
)
def approve_proposal(userId: UserId, proposalId: ProposalId, body: DecisionRequest) -> Decision:
    engram, principal = context(router)
    d = engram.proposals.approve(principal, userId, proposalId, body.note)
    now = engram.clock.now()
    entry = None
    if d.write is not None:
        entry = Entry.of(d.write.entry)
    elif d.removed is not None:
        entry = Entry.of(d.removed)
    block = None
    if d.block is not None and d.block.block is not None:
        config = engram.agents.get(principal.tenant_id, d.block.block.agent_id)
        block = BlockView.of(d.block.block, d.block.schema, config.memory_blocks.rotation.value)
    return Decision(proposal=proposal_view(d.proposal, now), entry=entry, block=block)


@router.post(
    "/users/<userId>/proposals/<proposalId>/reject",
    summary="Reject: nothing changes (admin)",
    tags=TAG,
    responses=errors(409),
)
def reject_proposal(userId: UserId, proposalId: ProposalId, body: DecisionRequest) -> ProposalView:
    engram, principal = context(router)
    p = engram.proposals.reject(principal, userId, proposalId, body.note)
    return proposal_view(p, engram.clock.now())
