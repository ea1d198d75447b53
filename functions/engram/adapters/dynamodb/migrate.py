"""Bring a table made by an older Engram to the current key design (docs/dynamodb.md,
"Migration"). Safe to run while the service runs, and to run again.

Version 2 (the cost work of issue 16) changed which index keys an entry carries:
``LSI2SK`` only on active core preferences (``CORE#<importance>#<updatedAt>#<id>``, read
by recall's tier 1) and no ``LSI3SK`` (the live count is a counter). Entries written
since carry the new keys; this rewrites the others. Until it has run, recall's tier 1
does not see core preferences written before the upgrade. The live-count items need
nothing: one written before version 2 has no ``exact`` mark, so the first count or
capacity check recounts and settles it.

Run: ``python -m engram.adapters.dynamodb.migrate --table <name>`` (the region and an
emulator endpoint come from the usual ``ENGRAM_*`` / AWS settings).
"""

from __future__ import annotations

import argparse
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import ConditionFailed, DynamoBase, attr
from engram.adapters.dynamodb.items import ITEM_ENTRY

_WANTED = ("PK", "SK", "id", "status", "category", "importance", "updatedAt", "version", k.LSI2SK, k.LSI3SK)


def entry_index_keys(item: dict[str, Any]) -> str | None:
    """The ``LSI2SK`` an entry item should carry under the current design (None: none)."""
    if item.get("status", {}).get("S") != "active" or item.get("category", {}).get("S") != k.CORE_CATEGORY:
        return None
    return k.core_sk(int(item["importance"]["N"]), item["updatedAt"]["S"], item["id"]["S"])


def migrate_entries(store: DynamoBase) -> dict[str, int]:
    """Rewrite the index keys of every entry that still has the old ones; counts by outcome."""
    counts = {"scanned": 0, "rewritten": 0, "raced": 0}
    names = {f"#a{i}": name for i, name in enumerate(_WANTED)}
    names["#type"] = k.ITEM_TYPE
    params: dict[str, Any] = {
        "TableName": store.table_name,
        "FilterExpression": "#type = :entry",
        "ProjectionExpression": ", ".join(n for n in names if n != "#type"),
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": {":entry": attr(ITEM_ENTRY)},
    }
    while True:
        page = store.call("Scan", **params)
        for item in page.get("Items", []):
            counts["scanned"] += 1
            want = entry_index_keys(item)
            have = item.get(k.LSI2SK, {}).get("S")
            if have == want and k.LSI3SK not in item:
                continue
            expression = "REMOVE #lsi3" + ("" if want is not None else ", #lsi2")
            values: dict[str, Any] = {":version": item["version"]}
            if want is not None:
                expression = "SET #lsi2 = :lsi2 " + expression
                values[":lsi2"] = attr(want)
            try:
                store.call(
                    "UpdateItem",
                    TableName=store.table_name,
                    Key={"PK": item["PK"], "SK": item["SK"]},
                    UpdateExpression=expression,
                    ConditionExpression="#version = :version",
                    ExpressionAttributeNames={"#lsi2": k.LSI2SK, "#lsi3": k.LSI3SK, "#version": "version"},
                    ExpressionAttributeValues=values,
                )
            except ConditionFailed:
                # A write since the scan rewrote the entry in the new form already.
                counts["raced"] += 1
            else:
                counts["rewritten"] += 1
        last = page.get("LastEvaluatedKey")
        if not last:
            return counts
        params["ExclusiveStartKey"] = last


def main(argv: list[str] | None = None) -> int:
    from engram.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="the table (default: the configured one)")
    args = parser.parse_args(argv)
    settings = Settings()
    table = args.table or settings.table_name
    store = DynamoBase(DynamoBase.client_from_settings(settings), table)
    print(migrate_entries(store))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
