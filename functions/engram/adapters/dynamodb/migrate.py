"""Bring a table made by an older Engram to the current key design (docs/dynamodb.md,
"Migration"). Safe to run while the service runs, and to run again.

Version 2 (the cost work of issue 16) changed which index keys an entry carries:
``LSI2SK`` only on active core preferences (``CORE#<importance>#<updatedAt>#<id>``, read
by recall's tier 1) and no ``LSI3SK`` (the live count is a counter). Entries written
since carry the new keys; this rewrites the others. Until it has run, recall's tier 1
does not see core preferences written before the upgrade. The live-count items need
nothing: one written before version 2 has no ``exact`` mark, so the first count or
capacity check recounts and settles it.

Version 4 (issue 22) keys each thread by its agent as well: each agent has its own
thread ids, so another agent's thread and a free id answer alike. ``migrate_threads``
moves every thread written before (``TH#<thread>``, messages in ``...#TH#<thread>``) under
its agent (``TH#<agent>#<thread>``, ``...#TH#<agent>#<thread>``), summary included, and
with ``--index`` re-indexes its messages and summary under their new document ids and
removes the old ones. Until it has run, such threads are listed but not readable by id
(erasure removes them either way). Run it before the new version takes traffic: a thread
that an agent appended to under the new key meanwhile is left in place and counted as
``conflicts`` (its old messages stay readable to an operator in the table).

Run: ``python -m engram.local.migrate --table <name> [--index]`` (the region and
an emulator endpoint come from the usual ``ENGRAM_*`` / AWS settings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import ConditionFailed, DynamoBase, Item, attr, from_item, key_of
from engram.adapters.dynamodb.conversations import (
    ITEM_THREAD,
    SUMMARY,
    DynamoConversations,
    summary_sk,
    thread_pk,
    thread_sk,
)
from engram.adapters.dynamodb.items import ITEM_ENTRY
from engram.domain.conversation import Message, ThreadSummary
from engram.domain.conversation_codec import thread_from_dict

# Re-indexes a moved thread: (the old document ids, its messages, its summary).
Reindex = Callable[[Sequence[str], Sequence[Message], ThreadSummary | None], None]

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


def migrate_threads(store: DynamoBase, reindex: Reindex | None = None) -> dict[str, int]:
    """Move every thread keyed without its agent under its agent; counts by outcome."""
    repo = DynamoConversations(store.client, store.table_name, store.metrics)
    counts = {"scanned": 0, "moved": 0, "messages": 0, "conflicts": 0}
    params: dict[str, Any] = {
        "TableName": store.table_name,
        "FilterExpression": "#type = :thread",
        "ExpressionAttributeNames": {"#type": k.ITEM_TYPE},
        "ExpressionAttributeValues": {":thread": attr(ITEM_THREAD)},
        "ConsistentRead": True,
    }
    while True:
        page = store.call("Scan", **params)
        for item in page.get("Items", []):
            counts["scanned"] += 1
            old_sk = item[k.SK]["S"]
            if len(old_sk.split(k.SEP)) != 2:
                continue  # keyed by agent already
            moved = _move_thread(store, repo, item, reindex)
            if moved is None:
                counts["conflicts"] += 1
            else:
                counts["moved"] += 1
                counts["messages"] += moved
        last = page.get("LastEvaluatedKey")
        if not last:
            return counts
        params["ExclusiveStartKey"] = last


def _move_thread(store: DynamoBase, repo: DynamoConversations, item: Item, reindex: Reindex | None) -> int | None:
    """Copy one old thread to its new keys, then delete the old ones (safe to repeat)."""
    thread = thread_from_dict(from_item(item))
    key = thread.key
    upk, old_sk = item[k.PK]["S"], item[k.SK]["S"]
    new_sk = thread_sk(key.agent_id, key.thread_id)
    existing = store.get(upk, new_sk)
    if existing is not None and thread_from_dict(from_item(existing)) != thread:
        return None  # appended to under the new key since: leave both for an operator
    old_pk = k.join(upk, old_sk)
    new_pk = thread_pk(key)
    copied: list[Item] = []
    for message in store.query_items(
        KeyConditionExpression="#pk = :pk",
        ExpressionAttributeNames={"#pk": k.PK},
        ExpressionAttributeValues={":pk": attr(old_pk)},
        ConsistentRead=True,
    ):
        copied.append({**message, k.PK: {"S": new_pk}})
    store.batch_put(copied)
    old_summary_sk = k.join(SUMMARY, old_sk.split(k.SEP, 1)[1])
    summary_item = store.get(upk, old_summary_sk)
    if summary_item is not None:
        store.put({**summary_item, k.SK: {"S": summary_sk(key.agent_id, key.thread_id)}})
    # The thread item last: until it exists under the new key, a rerun copies again.
    store.put({**item, k.SK: {"S": new_sk}})
    if reindex is not None:
        messages = repo.list_messages(key, 0, 10**9)
        summary = repo.get_summary(key)
        old_ids = [f"msg|{key.thread_id}|{m.id}" for m in messages] + [f"sum|{key.thread_id}"]
        reindex(old_ids, messages, summary)
    deleted = repo.delete_partition(old_pk)
    store.batch_delete([key_of(upk, old_summary_sk), key_of(upk, old_sk)])
    return deleted
