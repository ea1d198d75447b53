"""DynamoDB: the source of truth in the cloud (one table; see docs/dynamodb.md).

``DynamoBase`` is the reusable base for feature stores; ``keys`` is the key scheme.
"""

from engram.adapters.dynamodb.base import DynamoBase, DynamoMetrics, from_item, to_item
from engram.adapters.dynamodb.store import DynamoStore
from engram.adapters.dynamodb.table import create_table, ensure_table, table_definition

__all__ = [
    "DynamoBase",
    "DynamoMetrics",
    "DynamoStore",
    "create_table",
    "ensure_table",
    "from_item",
    "table_definition",
    "to_item",
]
