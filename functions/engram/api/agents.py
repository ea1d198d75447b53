"""Agents: their memory configuration (EDDI userMemoryConfig) and who the caller is."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Path

from engram.api.deps import context, new_router
from engram.api.responses import errors
from engram.api.schemas import ID_PATTERN, Principal
from engram.domain.agent_config import AgentConfig
from engram.domain.errors import Forbidden
from engram.domain.models import Role

router = new_router()
AgentId = Annotated[str, Path(pattern=ID_PATTERN)]


@router.get("/me", summary="The principal behind the calling key", tags=["agents"], responses=errors())
def whoami() -> Principal:
    _, p = context(router)
    return Principal(
        tenant_id=p.tenant_id,
        agent_id=p.agent_id,
        roles=sorted(r.value for r in p.roles),
        group_ids=list(p.group_ids),
        key_id=p.key_id,
    )


@router.get(
    "/agents/<agentId>/config",
    summary="An agent's memory configuration (defaults if never set)",
    tags=["agents"],
    responses=errors(),
)
def get_config(agentId: AgentId) -> AgentConfig:
    engram, p = context(router)
    if agentId != p.agent_id and not p.is_admin:
        raise Forbidden("Only an admin key may read another agent's configuration.")
    return engram.agents.get(p.tenant_id, agentId)


@router.put(
    "/agents/<agentId>/config",
    summary="Replace an agent's memory configuration (admin)",
    tags=["agents"],
    responses=errors(),
)
def put_config(agentId: AgentId, body: AgentConfig) -> AgentConfig:
    engram, p = context(router)
    if not p.has(Role.ADMIN):
        raise Forbidden("Only an admin key may change an agent's configuration.", requiredRole="admin")
    return engram.agents.put(p.tenant_id, agentId, body)
