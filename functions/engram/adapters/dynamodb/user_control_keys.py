"""Keys of the user-control items (proposals, memory blocks, archival memory).

All live in the user's partition (``T#<tenant>#U#<user>``), beside the entries:

- proposal: SK ``PRP#<id>``; LSI1SK ``PRP#<created>#<id>`` (newest first);
  LSI2SK ``PRPT#<target>#<status>#<created>`` (open proposals of one target).
- block, current version: SK ``BLK#<agent>#<name>``.
- block version: SK ``BLKV#<agent>#<name>#<version, 10 digits>``.
- archival record: SK ``ARC#<id>``; LSI1SK ``ARCT#<created>#<id>`` (newest first);
  LSI2SK ``ARCU#<created>#<id>`` while not yet indexed (sparse).

The LSI prefixes never begin with an entry status (``active#``...), so the entries'
listings on the same indexes never see these items; none of them sets ``LSI3SK``, so
the live-entry count never counts them.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.domain.errors import ValidationFailed

ITEM_PROPOSAL = "proposal"
ITEM_BLOCK = "block"
ITEM_BLOCK_VERSION = "blockVersion"
ITEM_ARCHIVAL = "archival"

PROPOSAL = "PRP"
PROPOSAL_BY_TARGET = "PRPT"
BLOCK = "BLK"
BLOCK_VERSION = "BLKV"
ARCHIVAL = "ARC"
ARCHIVAL_BY_TIME = "ARCT"
ARCHIVAL_UNINDEXED = "ARCU"

_TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
_ID_RE = re.compile(r"^[a-z]{3}_[0-9a-f]{24}$")


def proposal_sk(proposal_id: str) -> str:
    return k.join(PROPOSAL, k.escape(proposal_id))


def proposal_time_sk(created: str, proposal_id: str) -> str:
    return k.join(PROPOSAL, created, k.escape(proposal_id))


def proposal_target_prefix(target_id: str, status: str) -> str:
    return k.join(PROPOSAL_BY_TARGET, k.escape(target_id), status, "")


def block_sk(agent_id: str, name: str) -> str:
    return k.join(BLOCK, k.escape(agent_id), k.escape(name))


def block_prefix(agent_id: str | None = None) -> str:
    return k.join(BLOCK, "") if agent_id is None else k.join(BLOCK, k.escape(agent_id), "")


def block_version_prefix(agent_id: str | None = None, name: str | None = None) -> str:
    if agent_id is None or name is None:
        return k.join(BLOCK_VERSION, "")
    return k.join(BLOCK_VERSION, k.escape(agent_id), k.escape(name), "")


def block_version_sk(agent_id: str, name: str, version: int) -> str:
    return block_version_prefix(agent_id, name) + k.padded(version, k.VERSION_DIGITS)


def archival_sk(archival_id: str) -> str:
    return k.join(ARCHIVAL, k.escape(archival_id))


def archival_time_sk(created: str, archival_id: str) -> str:
    return k.join(ARCHIVAL_BY_TIME, created, k.escape(archival_id))


def archival_unindexed_sk(created: str, archival_id: str) -> str:
    return k.join(ARCHIVAL_UNINDEXED, created, k.escape(archival_id))


def encode_cursor(values: list[Any]) -> str:
    raw = json.dumps(values, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_time_cursor(cursor: str) -> tuple[str, str]:
    """``(created, id)`` of a newest-first listing's cursor, checked: it becomes a key bound."""
    values = _decode(cursor)
    if (
        len(values) != 2
        or not isinstance(values[0], str)
        or not _TS_RE.match(values[0])
        or not isinstance(values[1], str)
        or not _ID_RE.match(values[1])
    ):
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return values[0], values[1]


def decode_version_cursor(cursor: str) -> int:
    values = _decode(cursor)
    if len(values) != 1 or not isinstance(values[0], int) or isinstance(values[0], bool) or values[0] < 0:
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return int(values[0])


def _decode(cursor: str) -> list[Any]:
    try:
        values = json.loads(base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()))
    except (ValueError, TypeError) as exc:
        raise ValidationFailed("The cursor is not one this API issued.", field="cursor") from exc
    if not isinstance(values, list):
        raise ValidationFailed("The cursor does not fit this listing.", field="cursor")
    return values
