"""API keys: issued once in plain text, stored only as a hash, resolved to a principal.

A key reads ``egm_<keyId>_<secret>``. The secret is 256 random bits, so a single
SHA-256 is enough to store it safely (slow password hashes exist for low-entropy
human passwords) and keeps the authorizer fast.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass, field
from threading import Lock

from engram.domain.errors import NotFound, Unauthenticated, ValidationFailed
from engram.domain.models import ApiKeyRecord, Principal, Role
from engram.ports import Clock, KeyStore

_KEY_RE = re.compile(r"^egm_([0-9a-f]{16})_([A-Za-z0-9_\-]{43})$")
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:\-]{0,127}$")


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass
class KeyService:
    keys: KeyStore
    clock: Clock
    cache_seconds: float = 30.0
    _cache: dict[str, tuple[float, Principal]] = field(default_factory=dict)
    _lock: Lock = field(default_factory=Lock)

    def create(
        self,
        tenant_id: str,
        agent_id: str,
        roles: frozenset[Role],
        group_ids: tuple[str, ...] = (),
        description: str = "",
    ) -> tuple[ApiKeyRecord, str]:
        for name, value in (
            ("tenant", tenant_id),
            ("agent", agent_id),
            *(("group", g) for g in group_ids),
        ):
            if not _ID_RE.match(value):
                raise ValidationFailed(
                    f"The {name} id '{value}' must be 1-128 letters, digits or _.:- characters.",
                    field=name,
                )
        if not roles:
            raise ValidationFailed("A key needs at least one role.", field="roles")
        key_id = secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        record = ApiKeyRecord(
            key_id=key_id,
            tenant_id=tenant_id,
            agent_id=agent_id,
            roles=roles,
            secret_hash=hash_secret(secret),
            created_at=self.clock.now(),
            group_ids=tuple(group_ids),
            description=description,
        )
        self.keys.put_api_key(record)
        return record, f"egm_{key_id}_{secret}"

    def authenticate(self, presented: str | None) -> Principal:
        if not presented:
            raise Unauthenticated("An API key is required: send it as 'Authorization: Bearer <key>'.")
        # The auth scheme is case-insensitive (RFC 9110 11.1): "bearer egm_..." is the same.
        scheme, _, rest = presented.strip().partition(" ")
        token = rest.strip() if scheme.lower() == "bearer" else presented.strip()
        match = _KEY_RE.match(token)
        if match is None:
            raise Unauthenticated("That is not an Engram API key.")
        key_id, secret = match.groups()
        cached = self._cache.get(token)
        if cached is not None and time.monotonic() - cached[0] < self.cache_seconds:
            return cached[1]
        record = self.keys.get_api_key(key_id)
        if record is None or record.revoked_at is not None:
            raise Unauthenticated("This API key is unknown or revoked.")
        if not hmac.compare_digest(record.secret_hash, hash_secret(secret)):
            raise Unauthenticated("This API key is unknown or revoked.")
        principal = record.principal()
        with self._lock:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[token] = (time.monotonic(), principal)
        return principal

    def revoke(self, key_id: str) -> None:
        if not self.keys.revoke_api_key(key_id, self.clock.now()):
            raise NotFound("No active key with that id.", keyId=key_id)
        with self._lock:
            self._cache.clear()

    def list(self, tenant_id: str | None = None) -> list[ApiKeyRecord]:
        return self.keys.list_api_keys(tenant_id)
