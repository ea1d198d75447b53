"""Who is calling: read from the authorizer context, never from the request body.

In the cloud, API Gateway's Lambda authorizer (``engram.handlers.authorizer``) checks
the key and hands its principal over in ``requestContext.authorizer``; locally the
server does the same before it feeds the event to the same handler.

The ``api`` handler binds the principal of the event it was handed to the request's own
context (``bound_principal``) and routes read it from there (``current_principal``):
never from the resolver's current event, which Powertools keeps on a class attribute
that every thread of a process shares.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
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


# A ContextVar, not a global: every request (a Lambda invocation, a thread-pool call of
# ``engram serve``, which runs in a copy of its caller's context) sees only its own value.
_principal: ContextVar[Principal | None] = ContextVar("engram_principal", default=None)


@contextmanager
def bound_principal(event: Mapping[str, Any]) -> Iterator[Principal | None]:
    """While the block runs, ``current_principal()`` is the caller of ``event`` (None on a
    public route such as /health, which has no authorizer context)."""
    try:
        principal: Principal | None = principal_of(event)
    except Unauthenticated:
        principal = None
    token = _principal.set(principal)
    try:
        yield principal
    finally:
        _principal.reset(token)


def current_principal() -> Principal:
    """The caller of the request being handled, as ``bound_principal`` set it."""
    principal = _principal.get()
    if principal is None:
        raise Unauthenticated("An API key is required: send it as 'Authorization: Bearer <key>'.")
    return principal
