"""The single-table key scheme (``docs/dynamodb.md`` is the reference).

Every partition key a request can reach begins with its tenant, so no key a request
builds can name another tenant's items. Components are escaped before they are joined
with ``#``: ids are validated at the API, but the store must not rely on that, since
``T#a#U#b`` must never be reachable as tenant ``a#U`` and user ``b``, nor the reverse.

Adding a feature: pick a new sort-key prefix in the user partition for small per-user
items (e.g. ``B#<block>`` for memory blocks), or a new partition below the user for
collections that grow without bound (e.g. ``T#<t>#U#<u>#TH#<thread>`` for messages), and
list it in the key table of ``docs/dynamodb.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engram.domain.errors import ValidationFailed
from engram.domain.policies import erasure_mark_id

SEP = "#"

# Attribute names of the table and its indexes.
PK = "PK"
SK = "SK"
LSI1SK = "LSI1SK"  # entries by status, then recency
LSI2SK = "LSI2SK"  # active core preferences by importance, then recency (sparse)
LSI3SK = "LSI3SK"  # no longer set on entries (tables made before it keep their keys)
GSI1PK = "GSI1PK"
GSI1SK = "GSI1SK"
GSI2PK = "GSI2PK"  # sparse: users due for dream (adapters/dynamodb/dream_state.py)
GSI2SK = "GSI2SK"
TTL = "ttl"  # epoch seconds; DynamoDB deletes the item some time after it
ITEM_TYPE = "itemType"

LSI1 = "LSI1"
LSI2 = "LSI2"
LSI3 = "LSI3"
GSI1 = "GSI1"
GSI2 = "GSI2"

# Sort keys and prefixes inside a user partition.
ENTRY = "E"
HISTORY = "H"
IDENTITY = "I"
PROFILE_SK = "PROFILE"
SETTINGS_SK = "SETTINGS"
# The live count of key design 2; from version 3 it is in the user's state item
# (DREAMDUE). Old items are left alone (an erasure deletes them with the rest).
LIVE_COUNT_SK = "LIVECOUNT"
# The erasure tombstone: in its own partition, keyed by a hash of (tenant, user), so
# it outlives the erasure of the user's partition and holds only a hash (see docs/user-control.md).
ERASED_SK = "ERASED"


def erasure_pk(tenant_id: str, user_id: str) -> str:
    return "ERASURE#" + erasure_mark_id(tenant_id, user_id)


# Fixed sort keys of singleton items in their own partitions.
API_KEY_SK = "KEY"
TURN_SK = "TURN"
API_KEYS_GSI_PK = "APIKEYS"

# Recall's tier 1 reads this category's active entries through LSI2, best first.
CORE_CATEGORY = "preference"
CORE = "CORE"
IMPORTANCE_DIGITS = 3

# Zero padding for numbers inside sort keys, so string order is numeric order.
VERSION_DIGITS = 10
COUNT_DIGITS = 12
# Sorts after every timestamp: the expiry slot of entries that never expire.
NEVER = "~"


def escape(component: str) -> str:
    """Make ``component`` safe to join with ``#`` (injective, and keeps ordinary ids readable)."""
    return component.replace("%", "%25").replace(SEP, "%23")


def unescape(component: str) -> str:
    return component.replace("%23", SEP).replace("%25", "%")


def join(*components: str) -> str:
    return SEP.join(components)


def tenant_pk(tenant_id: str) -> str:
    return join("T", escape(tenant_id))


def user_pk(tenant_id: str, user_id: str) -> str:
    return join("T", escape(tenant_id), "U", escape(user_id))


def parse_user_pk(pk: str) -> tuple[str, str]:
    """``(tenant_id, user_id)`` of a user partition key; ``ValueError`` if it is not one."""
    parts = pk.split(SEP)
    if len(parts) != 4 or parts[0] != "T" or parts[2] != "U":
        raise ValueError("not a user partition key")
    return unescape(parts[1]), unescape(parts[3])


def entry_sk(entry_id: str) -> str:
    return join(ENTRY, escape(entry_id))


def entry_id_of(sk: str) -> str | None:
    """The entry id of an entry sort key, or None for any other item."""
    prefix = ENTRY + SEP
    return unescape(sk[len(prefix) :]) if sk.startswith(prefix) else None


def identity_sk(identity_id: str) -> str:
    return join(IDENTITY, escape(identity_id))


def history_prefix(identity_id: str | None = None) -> str:
    return join(HISTORY, "") if identity_id is None else join(HISTORY, escape(identity_id), "")


def history_sk(identity_id: str, version: int) -> str:
    return history_prefix(identity_id) + padded(version, VERSION_DIGITS)


def padded(number: int, digits: int) -> str:
    if number < 0 or number >= 10**digits:
        raise ValidationFailed(f"{number} does not fit in a key of {digits} digits.")
    return str(number).zfill(digits)


def agent_config_sk(agent_id: str) -> str:
    return join("A", escape(agent_id), "CONFIG")


def api_key_pk(key_id: str) -> str:
    # The tenant is unknown until the key is resolved, so keys live outside any tenant.
    return join("K", escape(key_id))


def api_key_listing_sk(tenant_id: str, key_id: str) -> str:
    return join(escape(tenant_id), escape(key_id))


def turn_pk(tenant_id: str, agent_id: str, turn_id: str) -> str:
    # One partition per turn: turns are written concurrently and never listed.
    return join("T", escape(tenant_id), "A", escape(agent_id), "TURN", escape(turn_id))


def recency_sk(status: str, updated_at: str, entry_id: str) -> str:
    return join(status, updated_at, entry_id)


def core_sk(importance: int, updated_at: str, entry_id: str) -> str:
    """LSI2's key of an active core preference: descending order is importance, then recency."""
    return join(CORE, padded(importance, IMPORTANCE_DIGITS), updated_at, entry_id)


def core_prefix() -> str:
    return join(CORE, "")


def access_sk(status: str, access_count: int, updated_at: str, entry_id: str) -> str:
    # The LSI2 key entries had before version 2 of the key design (docs/dynamodb.md,
    # "Migration"): recognised by the migration, never written any more.
    return join(status, padded(access_count, COUNT_DIGITS), updated_at, entry_id)


def expiry_sk(expires_at: str | None, entry_id: str) -> str:
    # The LSI3 key entries had before version 2: kept for the migration and old tables.
    return join(expires_at or NEVER, entry_id)


def live_after(now_ts: str) -> str:
    """Lower bound (exclusive) of ``LSI3SK`` for entries still live at ``now_ts``.

    ``$`` sorts right after ``#``: an entry expiring exactly at ``now`` (expired, as
    ``MemoryEntry.is_expired`` says) falls below it, one expiring later above it.
    """
    return now_ts + "$"


def entry_key_of(keys: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """(tenant, user, entry id) from an item's key in attribute-value form (a stream
    record's ``Keys``); None when the item is not a memory entry."""
    pk = (keys.get(PK) or {}).get("S")
    sk = (keys.get(SK) or {}).get("S")
    if not isinstance(pk, str) or not isinstance(sk, str):
        return None
    entry_id = entry_id_of(sk)
    if entry_id is None:
        return None
    try:
        tenant_id, user_id = parse_user_pk(pk)
    except ValueError:
        return None
    return tenant_id, user_id, entry_id
