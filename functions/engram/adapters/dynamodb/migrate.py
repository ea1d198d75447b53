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
``conflicts`` (its old messages stay readable to an operator in the table). The move
writes the new thread item first and only where none is, and never writes over an item
under the new keys, so an append during the move numbers its messages after the old ones.

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

# On a thread item this migration wrote: the old sort key it came from (a rerun finishes it).
MIGRATED_FROM = "migratedFrom"

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
    """Copy one old thread to its new keys, then delete the old ones (safe to repeat, and
    safe beside appends to the new key). None: a conflict, left in place for an operator.

    The new thread item comes first and only where none exists: from then on an append to
    the new key numbers its messages after the old ones, and an append that found no thread
    fails its own create and reads again. A thread created under the new key by an append
    before this ran is a conflict (merging would renumber messages agents have seen); the
    marker tells a rerun that the item is this migration's own, so it finishes the move.
    """
    thread = thread_from_dict(from_item(item))
    key = thread.key
    upk, old_sk = item[k.PK]["S"], item[k.SK]["S"]
    new_sk = thread_sk(key.agent_id, key.thread_id)
    if not _put_new(store, {**item, k.SK: {"S": new_sk}, MIGRATED_FROM: {"S": old_sk}}):
        existing = store.get(upk, new_sk)
        ours = existing is not None and (
            existing.get(MIGRATED_FROM, {}).get("S") == old_sk
            or (MIGRATED_FROM not in existing and thread_from_dict(from_item(existing)) == thread)  # an older run's
        )
        if not ours:
            return None  # appended to under the new key first: leave both for an operator
    old_pk = k.join(upk, old_sk)
    new_pk = thread_pk(key)
    clashes = 0
    for message in store.query_items(
        KeyConditionExpression="#pk = :pk",
        ExpressionAttributeNames={"#pk": k.PK},
        ExpressionAttributeValues={":pk": attr(old_pk)},
        ConsistentRead=True,
    ):
        copy = {**message, k.PK: {"S": new_pk}}
        if not _put_new(store, copy):
            # Copied by an earlier run, or another message appended since under the same id.
            there = store.get(new_pk, message[k.SK]["S"])
            clashes += there is None or there.get("body") != message.get("body")
    old_summary_sk = k.join(SUMMARY, old_sk.split(k.SEP, 1)[1])
    summary_item = store.get(upk, old_summary_sk)
    if summary_item is not None:
        # A summary written under the new key since is the newer one: keep it.
        _put_new(store, {**summary_item, k.SK: {"S": summary_sk(key.agent_id, key.thread_id)}})
    if clashes:
        return None  # the old messages stay where they are for an operator
    if reindex is not None:
        messages = repo.list_messages(key, 0, 10**9)
        summary = repo.get_summary(key)
        old_ids = [f"msg|{key.thread_id}|{m.id}" for m in messages] + [f"sum|{key.thread_id}"]
        reindex(old_ids, messages, summary)
    deleted = repo.delete_partition(old_pk)
    store.batch_delete([key_of(upk, old_summary_sk), key_of(upk, old_sk)])
    return deleted


def _put_new(store: DynamoBase, item: Item) -> bool:
    """Put an item only where none is: never over a write made under the new keys."""
    try:
        store.put(item, ConditionExpression="attribute_not_exists(#pk)", ExpressionAttributeNames={"#pk": k.PK})
    except ConditionFailed:
        return False
    return True
