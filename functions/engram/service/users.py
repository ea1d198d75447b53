"""User identity, settings and the legacy flat properties (behaviour items 15 and 19)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engram.domain.agent_config import Guardrails
from engram.domain.errors import ConfirmationRequired, ValidationFailed
from engram.domain.models import Principal, Role, UserProfile, UserSettings, Visibility
from engram.domain.policies import check_key, normalise_key, require_role, scope_for
from engram.domain.sensitive import reject_sensitive
from engram.ports import Clock, ProfileRepository
from engram.service.memory import MemoryService, UpsertCommand, WriteResult
from engram.service.privacy import CONFIRMATION

LEGACY_CATEGORY = "legacy"


@dataclass
class UserService:
    profiles: ProfileRepository
    memory: MemoryService
    clock: Clock

    def profile(self, principal: Principal, user_id: str) -> UserProfile:
        require_role(principal, Role.VIEWER)
        return self.profiles.get_profile(principal.tenant_id, user_id) or UserProfile(principal.tenant_id, user_id)

    def update_profile(
        self,
        principal: Principal,
        user_id: str,
        *,
        name: str | None = None,
        nickname: str | None = None,
        pronouns: str | None = None,
        clear: tuple[str, ...] = (),
    ) -> UserProfile:
        require_role(principal, Role.WRITER)
        current = self.profile(principal, user_id)
        changes: dict[str, object] = {f: None for f in clear}
        given = [(f, v) for f, v in (("name", name), ("nickname", nickname), ("pronouns", pronouns)) if v is not None]
        reject_sensitive(given, "profile field")
        changes.update(given)
        updated = replace(current, **changes, updated_at=self.clock.now())  # type: ignore[arg-type]
        self.profiles.put_profile(updated)
        return updated

    def set_agent_name(self, principal: Principal, user_id: str, name: str) -> UserProfile:
        """The name this user gave the calling agent ("I'll call you Jarvis")."""
        require_role(principal, Role.WRITER)
        reject_sensitive([("agent_name", name)], "agent name")
        current = self.profile(principal, user_id)
        names = dict(current.agent_names)
        names[principal.agent_id] = name
        updated = replace(current, agent_names=names, updated_at=self.clock.now())
        self.profiles.put_profile(updated)
        return updated

    def settings(self, principal: Principal, user_id: str) -> UserSettings:
        require_role(principal, Role.VIEWER)
        return self.profiles.get_settings(principal.tenant_id, user_id) or UserSettings(principal.tenant_id, user_id)

    def update_settings(
        self,
        principal: Principal,
        user_id: str,
        *,
        memory_enabled: bool | None = None,
        allowed_categories: tuple[str, ...] | None = None,
        retention_days: int | None = None,
        clear: tuple[str, ...] = (),
    ) -> UserSettings:
        # Settings are the user's own controls: changed through an admin UI or an agent
        # acting for the user, never silently by an ordinary writer.
        require_role(principal, Role.ADMIN)
        current = self.settings(principal, user_id)
        changes: dict[str, object] = {f: None for f in clear}
        if memory_enabled is not None:
            changes["memory_enabled"] = memory_enabled
        if allowed_categories is not None:
            changes["allowed_categories"] = allowed_categories
        if retention_days is not None:
            changes["retention_days"] = retention_days
        updated = replace(current, **changes, updated_at=self.clock.now())  # type: ignore[arg-type]
        self.profiles.put_settings(updated)
        return updated

    # -- legacy flat properties: a view over global entries ---------------------------
    def properties(self, principal: Principal, user_id: str) -> dict[str, str]:
        require_role(principal, Role.VIEWER)
        page = self.memory.list_memories(principal, user_id, scope_for(principal), limit=10_000)
        globals_ = [e for e in page.items if e.visibility is Visibility.GLOBAL]
        # Oldest first so that the newest value of a key wins.
        return {e.key: e.value for e in sorted(globals_, key=lambda e: e.updated_at)}

    def merge_properties(self, principal: Principal, user_id: str, values: dict[str, str]) -> list[WriteResult]:
        require_role(principal, Role.WRITER)
        guard = Guardrails(allowed_categories=(LEGACY_CATEGORY,))
        for key in values:
            check_key(key, guard)
        commands = [
            UpsertCommand(key=k, value=v, category=LEGACY_CATEGORY, visibility=Visibility.GLOBAL)
            for k, v in values.items()
        ]
        # "legacy" is the properties' own category, outside any agent's allowed list.
        return self.memory.upsert(principal, user_id, commands, extra_categories=(LEGACY_CATEGORY,))

    def delete_properties(
        self,
        principal: Principal,
        user_id: str,
        keys: tuple[str, ...] | None,
        *,
        delete_all: bool = False,
        confirm: str | None = None,
    ) -> int:
        """Delete the named properties; all of them only on the confirmed admin path.

        Properties are global entries shared by every agent, so a request that names no
        key (or misspells the parameter) must never read as "delete everything".
        """
        require_role(principal, Role.WRITER)
        keys = _properties_to_delete(principal, keys, delete_all, confirm)
        page = self.memory.list_memories(principal, user_id, scope_for(principal), limit=10_000)
        targets = [e for e in page.items if e.visibility is Visibility.GLOBAL and (keys is None or e.key in keys)]
        for e in targets:
            self.memory.delete(principal, user_id, e.id, "legacy property deleted")
        return len(targets)


def _properties_to_delete(
    principal: Principal, keys: tuple[str, ...] | None, delete_all: bool, confirm: str | None
) -> tuple[str, ...] | None:
    """The keys a delete request names (None: every property), once the request is checked:
    keys or all, never neither, and all only for a confirmed admin."""
    if keys and delete_all:
        raise ValidationFailed("Name keys or ask for all=true, not both.", field="all")
    if not keys and not delete_all:
        raise ValidationFailed(
            "Name the properties to delete with ?key=...; deleting all of them needs all=true and confirm=CONFIRM.",
            field="key",
        )
    if delete_all:
        require_role(principal, Role.ADMIN)
        if confirm != CONFIRMATION:
            raise ConfirmationRequired(
                "Deleting every property removes them for every agent; pass confirm=CONFIRM with all=true."
            )
        return None
    return None if keys is None else tuple(normalise_key(k) for k in keys)
