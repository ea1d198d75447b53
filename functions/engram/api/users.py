"""Users: identity, settings, legacy properties, export and erasure."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Query

from engram.api.deps import UserId, context, new_router
from engram.api.responses import errors
from engram.api.schemas import (
    AgentNameUpdate,
    ErasureReceipt,
    Profile,
    ProfileUpdate,
    Properties,
    PropertiesMerge,
    Settings,
    SettingsUpdate,
)

router = new_router()


@router.get(
    "/users/<userId>/profile",
    summary="The user's name, nickname, pronouns and agent names",
    tags=["users"],
    responses=errors(),
)
def get_profile(userId: UserId) -> Profile:
    engram, principal = context(router)
    return Profile.of(engram.users.profile(principal, userId))


@router.patch(
    "/users/<userId>/profile",
    summary="Change fields of the user's identity (null clears one)",
    tags=["users"],
    responses=errors(),
)
def patch_profile(userId: UserId, body: ProfileUpdate) -> Profile:
    engram, principal = context(router)
    sent = body.model_fields_set
    clear = tuple(f for f in ("name", "nickname", "pronouns") if f in sent and getattr(body, f) is None)
    return Profile.of(
        engram.users.update_profile(
            principal,
            userId,
            name=body.name,
            nickname=body.nickname,
            pronouns=body.pronouns,
            clear=clear,
        )
    )


@router.put(
    "/users/<userId>/profile/agent-name",
    summary="The name this user calls the calling agent",
    tags=["users"],
    responses=errors(),
)
def set_agent_name(userId: UserId, body: AgentNameUpdate) -> Profile:
    engram, principal = context(router)
    return Profile.of(engram.users.set_agent_name(principal, userId, body.name))


@router.get(
    "/users/<userId>/settings",
    summary="The user's memory settings",
    tags=["users"],
    responses=errors(),
)
def get_settings(userId: UserId) -> Settings:
    engram, principal = context(router)
    return Settings.of(engram.users.settings(principal, userId))


@router.patch(
    "/users/<userId>/settings",
    summary="Turn memory off or on, limit categories, shorten retention (admin)",
    tags=["users"],
    responses=errors(),
)
def patch_settings(userId: UserId, body: SettingsUpdate) -> Settings:
    engram, principal = context(router)
    sent = body.model_fields_set
    clear = tuple(
        f
        for f, api in (
            ("allowed_categories", "allowed_categories"),
            ("retention_days", "retention_days"),
        )
        if api in sent and getattr(body, api) is None
    )
    return Settings.of(
        engram.users.update_settings(
            principal,
            userId,
            memory_enabled=body.memory_enabled,
            allowed_categories=None if body.allowed_categories is None else tuple(body.allowed_categories),
            retention_days=body.retention_days,
            clear=clear,
        )
    )


@router.get(
    "/users/<userId>/properties",
    summary="Legacy flat properties (global entries as a map)",
    tags=["properties"],
    responses=errors(),
)
def get_properties(userId: UserId) -> Properties:
    engram, principal = context(router)
    return Properties(properties=engram.users.properties(principal, userId))


@router.patch(
    "/users/<userId>/properties",
    summary="Merge legacy properties into global entries",
    tags=["properties"],
    responses=errors(409),
)
def merge_properties(userId: UserId, body: PropertiesMerge) -> Properties:
    engram, principal = context(router)
    engram.users.merge_properties(principal, userId, dict(body.properties))
    return Properties(properties=engram.users.properties(principal, userId))


@router.delete(
    "/users/<userId>/properties",
    summary="Delete legacy properties (the named keys; all only with all=true and confirm=CONFIRM)",
    tags=["properties"],
    responses=errors(400),
)
def delete_properties(
    userId: UserId,
    key: Annotated[list[str] | None, Query(description="Keys to delete (repeat for several).")] = None,
    all: Annotated[bool, Query(description="Delete every property of the user (admin, with confirm).")] = False,
    confirm: Annotated[str | None, Query(description="Must be CONFIRM when all=true.")] = None,
) -> Properties:
    engram, principal = context(router)
    engram.users.delete_properties(principal, userId, None if not key else tuple(key), delete_all=all, confirm=confirm)
    return Properties(properties=engram.users.properties(principal, userId))


@router.get(
    "/users/<userId>/export",
    summary="Everything Engram holds about the user (admin)",
    tags=["privacy"],
    responses=errors(),
)
def export_user(userId: UserId) -> dict[str, Any]:
    engram, principal = context(router)
    return engram.privacy.export(principal, userId)


@router.delete(
    "/users/<userId>",
    summary="Erase everything about the user (admin, confirm=CONFIRM)",
    tags=["privacy"],
    responses=errors(400),
)
def erase_user(
    userId: UserId, confirm: Annotated[str | None, Query(description="Must be CONFIRM.")] = None
) -> ErasureReceipt:
    engram, principal = context(router)
    r = engram.privacy.erase(principal, userId, confirm)
    return ErasureReceipt(tenant_id=r.tenant_id, user_id=r.user_id, erased_at=r.erased_at, counts=r.counts)
