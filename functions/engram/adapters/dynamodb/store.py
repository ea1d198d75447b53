"""``DynamoStore``: every repository port of the source of truth over the one table.

Keys per ``engram.adapters.dynamodb.keys`` and ``docs/dynamodb.md``; each port's
repository is a ``DynamoBase`` over the table: memory entries in ``entries.py`` (the
user's state item in ``state_item.py``, how entries are stored in ``entry_items.py``),
profiles and agent configuration in ``users.py``, API keys in ``api_keys.py``, turn
counters in ``turns.py``, erasure in ``erasure.py``. ``DynamoStore`` is their union.
"""

from __future__ import annotations

from engram.adapters.dynamodb.api_keys import DynamoKeys
from engram.adapters.dynamodb.entries import DynamoEntries
from engram.adapters.dynamodb.erasure import DynamoErasure
from engram.adapters.dynamodb.turns import DynamoTurnCounter
from engram.adapters.dynamodb.users import DynamoAgentConfigs, DynamoProfiles


class DynamoStore(DynamoEntries, DynamoProfiles, DynamoAgentConfigs, DynamoKeys, DynamoTurnCounter, DynamoErasure):
    """Every repository port over the one table (the services' ``Store``); no behaviour of its own."""
