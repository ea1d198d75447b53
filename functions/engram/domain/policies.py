"""Pure policies: upsert identity, visibility, guardrails, value similarity, ordering."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engram.domain.agent_config import Guardrails, RecallOrder
from engram.domain.errors import Forbidden, GuardrailViolation, ValidationFailed
from engram.domain.models import MemoryEntry, Principal, Role, Visibility


def require_role(principal: Principal, role: Role) -> None:
    """The one role check every service makes: a key without ``role`` is refused (403)."""
    if not principal.has(role):
        raise Forbidden(f"This key lacks the '{role.value}' role.", requiredRole=role.value)


def identity_id(tenant_id: str, user_id: str, key: str, visibility: Visibility, agent_id: str) -> str:
    """Deterministic id of an upsert identity (behaviour item 2).

    self and group entries are unique per source agent; global entries per key only.
    """
    owner = "*" if visibility is Visibility.GLOBAL else agent_id
    scope = "global" if visibility is Visibility.GLOBAL else "agent"
    raw = "\x1f".join((tenant_id, user_id, scope, owner, key))
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def erasure_mark_id(tenant_id: str, user_id: str) -> str:
    """The key of a user's erasure tombstone: a one-way hash, so that the tombstone,
    which outlives the erasure, holds no identifier of the erased user."""
    return hashlib.sha256("\x1f".join(("erased", tenant_id, user_id)).encode()).hexdigest()


def source_mark_id(tenant_id: str, user_id: str, identity: str, source_message_id: str, value: str) -> str:
    """The once-only mark of one observation: (user, memory identity, source message) and
    what it said. The identity, not the bare key: a ``self`` or group memory's identity
    names its agent, so another agent's write of the same key from a message of the same
    id is its own observation, never answered with (or blocked by) the first one's entry.

    Stored as an identity that can only be created once, in the write's own transaction,
    so the same fact from the same message is applied once across threads (phone and
    laptop), paths (PUT, tools, extraction) and retries (issue #17, item 7). The value is
    part of it so that a correction sent with the same message id still applies. A hash:
    it holds neither the key nor the value.
    """
    raw = "\x1f".join(("source", tenant_id, user_id, identity, source_message_id, normalise_value(value)))
    return "src_" + hashlib.sha256(raw.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class VisibilityScope:
    """What one agent may see of a user's memory (behaviour item 3).

    ``everything`` is the admin's view; otherwise global entries, the agent's own self
    entries, and group entries of the listed groups.
    """

    agent_id: str
    group_ids: tuple[str, ...] = ()
    everything: bool = False

    def allows(self, entry: MemoryEntry) -> bool:
        if self.everything or entry.visibility is Visibility.GLOBAL:
            return True
        if entry.visibility is Visibility.SELF:
            return entry.source_agent_id == self.agent_id
        if entry.source_agent_id == self.agent_id:
            return True
        return any(g in self.group_ids for g in entry.group_ids)


def scope_for(principal: Principal, agent_id: str | None = None, group_id: str | None = None) -> VisibilityScope:
    """The scope a request gets. Only an admin may look through another agent's eyes or
    name a group the key is not a member of; everyone else sees what their key sees."""
    if agent_id is not None and agent_id != principal.agent_id and not principal.is_admin:
        raise Forbidden("Only an admin key may read another agent's view.", agentId=agent_id)
    if group_id is not None and group_id not in principal.group_ids and not principal.is_admin:
        raise Forbidden("This key is not a member of that group.", groupId=group_id)
    if agent_id is None and group_id is None and principal.is_admin:
        return VisibilityScope(principal.agent_id, principal.group_ids, everything=True)
    groups = (group_id,) if group_id is not None else principal.group_ids
    return VisibilityScope(agent_id or principal.agent_id, groups)


def normalise_value(value: str) -> str:
    """Case, accents, punctuation and spacing do not make a value different."""
    folded = unicodedata.normalize("NFKC", value).casefold()
    folded = re.sub(r"[^\w\s]", " ", folded)
    return " ".join(folded.split())


def same_value(a: str, b: str) -> bool:
    return normalise_value(a) == normalise_value(b)


# Control, format (bidi overrides, zero-width), surrogate, private-use and unassigned
# characters make keys that look alike but differ, or that hide text when displayed.
_FORBIDDEN_KEY_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def normalise_key(key: str) -> str:
    """The canonical form of a key: NFKC, trimmed, and free of invisible characters.

    Applied on every write and every lookup, so "ｃｏｌｏｒ " and "color" are one key.
    "/" is refused because keys travel in URL paths (``/memories/key/{key}``).
    """
    canonical = unicodedata.normalize("NFKC", key).strip()
    bad = sorted({f"U+{ord(ch):04X}" for ch in canonical if unicodedata.category(ch) in _FORBIDDEN_KEY_CATEGORIES})
    if bad:
        raise ValidationFailed(
            "The key contains invisible or control characters; use printable text.", field="key", characters=bad
        )
    if "/" in canonical:
        raise ValidationFailed("The key must not contain '/'; keys are used in URL paths.", field="key")
    return canonical


def check_key(key: str, guardrails: Guardrails) -> None:
    if not key.strip():
        raise ValidationFailed("The key must not be empty.", field="key")
    if len(key) > guardrails.max_key_length:
        raise GuardrailViolation(
            "key_too_long",
            f"The key has {len(key)} characters; this agent allows at most {guardrails.max_key_length}.",
            maxKeyLength=guardrails.max_key_length,
            length=len(key),
        )


def check_write(
    key: str,
    value: str,
    category: str,
    guardrails: Guardrails,
    user_categories: Sequence[str] | None = None,
) -> None:
    """Guardrails on one write (behaviour item 4); the first breach raises."""
    check_key(key, guardrails)
    if not value.strip():
        raise ValidationFailed("The value must not be empty.", field="value")
    if len(value) > guardrails.max_value_length:
        raise GuardrailViolation(
            "value_too_long",
            f"The value has {len(value)} characters; this agent allows at most {guardrails.max_value_length}.",
            maxValueLength=guardrails.max_value_length,
            length=len(value),
        )
    if category not in guardrails.allowed_categories:
        raise GuardrailViolation(
            "category_not_allowed",
            f"Category '{category}' is not allowed for this agent; use one of "
            f"{', '.join(guardrails.allowed_categories)}.",
            category=category,
            allowedCategories=list(guardrails.allowed_categories),
        )
    if user_categories is not None and category not in user_categories:
        raise GuardrailViolation(
            "category_disabled_by_user",
            f"The user has not allowed memories of category '{category}'.",
            category=category,
            allowedCategories=list(user_categories),
        )


def recall_sorted(entries: Iterable[MemoryEntry], order: RecallOrder) -> list[MemoryEntry]:
    if order is RecallOrder.MOST_ACCESSED:
        return sorted(entries, key=lambda e: (e.access_count, e.updated_at, e.id), reverse=True)
    return sorted(entries, key=lambda e: (e.updated_at, e.id), reverse=True)


def eviction_order(entries: Iterable[MemoryEntry]) -> list[MemoryEntry]:
    """Oldest first: the first to leave when a user is at capacity."""
    return sorted(entries, key=lambda e: (e.updated_at, e.id))
