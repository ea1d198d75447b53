"""The table's item types and the ``ttl`` attribute, shared by every repository over it."""

from __future__ import annotations

import math
from datetime import datetime

ITEM_ENTRY = "entry"
ITEM_HISTORY = "history"
ITEM_IDENTITY = "identity"
ITEM_PROFILE = "profile"
ITEM_SETTINGS = "settings"
ITEM_LIVE_COUNT = "liveCount"
ITEM_ERASURE = "erasure"
ITEM_AGENT_CONFIG = "agentConfig"
ITEM_API_KEY = "apiKey"
ITEM_TURN = "turn"


def epoch_seconds(moment: datetime) -> int:
    """The ``ttl`` value: rounded up, so DynamoDB never deletes before the domain expiry."""
    return math.ceil(moment.timestamp())
