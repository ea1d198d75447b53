"""Who is calling: read from the authorizer context, never from the request body.

In the cloud, API Gateway's Lambda authorizer (``engram.handlers.authorizer``) checks
the key and hands its principal over in ``requestContext.authorizer``; locally the
server does the same before it feeds the event to the same handler.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engram.domain.errors import Unauthenticated
from engram.domain.models import Principal, Role


def principal_context(p: Principal) -> dict[str, str]:
    """The flat string map a Lambda authorizer may return as its context."""
    return {
        "tenantId": p.tenant_id,
        "agentId": p.agent_id,
        "roles": ",".join(sorted(r.value for r in p.roles)),
        "groupIds": ",".join(p.group_ids),
        "keyId": p.key_id or "",
    }


def principal_from_context(ctx: Mapping[str, Any] | None) -> Principal:
    if not ctx or not ctx.get("tenantId") or not ctx.get("agentId"):
        raise Unauthenticated("An API key is required: send it as 'Authorization: Bearer <key>'.")
    roles = frozenset(Role(r) for r in str(ctx.get("roles", "")).split(",") if r)
    groups = tuple(g for g in str(ctx.get("groupIds", "")).split(",") if g)
    return Principal(
        str(ctx["tenantId"]),
        str(ctx["agentId"]),
        roles,
        groups,
        str(ctx.get("keyId") or "") or None,
    )


def principal_of(event: Mapping[str, Any]) -> Principal:
    ctx = (event.get("requestContext") or {}).get("authorizer")
    return principal_from_context(ctx)
