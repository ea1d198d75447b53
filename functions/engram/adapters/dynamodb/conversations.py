"""Conversations in DynamoDB (``ConversationRepository``), on the single table.

Keys (listed in docs/dynamodb.md):

- thread: PK ``T#<tenant>#U#<user>``, SK ``TH#<agent>#<thread>`` (beside the user's entries);
- thread summary: same PK, SK ``THS#<agent>#<thread>``;
- message: its own partition per thread, PK ``T#<tenant>#U#<user>#TH#<agent>#<thread>``,
  SK ``MSG#<message id>`` (lookups and the idempotent append by id), LSI1SK
  ``MSQ#<seq, 12 digits>`` (the window and paging, in append order).

The agent is in every key (``ThreadKey``): each agent has its own thread ids, so another
agent's thread and a free id answer alike (issue #22). Tables written before that keyed
threads without the agent; ``python -m engram.local.migrate`` moves them.

A thread grows without bound, so its messages get a partition of their own instead of
crowding the user's. An append is one ``TransactWriteItems``: the thread's counter
moves only if it still holds the number read (so concurrent appends never share a
seq), and each message is put only if its id is new. None of these items sets the
entry indexes' sort keys in the user partition, so entry listings never see them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.adapters.dynamodb import keys as k
from engram.adapters.dynamodb.base import (
    ConditionFailed,
    DynamoBase,
    Item,
    TransactionCancelled,
    attr,
    from_item,
    key_of,
    to_item,
)
from engram.domain.conversation import ExtractionRecord, Message, NewMessage, Thread, ThreadKey, ThreadSummary
from engram.domain.conversation_codec import (
    message_from_dict,
    message_to_dict,
    record_to_dict,
    summary_from_dict,
    summary_to_dict,
    thread_from_dict,
    thread_to_dict,
)
from engram.domain.errors import UserErased, ValidationFailed, VersionConflict
from engram.domain.serialization import ts
from engram.ports import AppendOutcome

THREAD = "TH"
SUMMARY = "THS"
MESSAGE = "MSG"
MESSAGE_BY_SEQ = "MSQ"
SEQ_DIGITS = 12
ITEM_THREAD = "thread"
ITEM_SUMMARY = "threadSummary"
ITEM_MESSAGE = "message"
# One action for the thread, the rest for messages, within DynamoDB's 100 per transaction.
MAX_MESSAGES_PER_APPEND = 99
ATTEMPTS = 25


def thread_sk(agent_id: str, thread_id: str) -> str:
    return k.join(THREAD, k.escape(agent_id), k.escape(thread_id))


def summary_sk(agent_id: str, thread_id: str) -> str:
    return k.join(SUMMARY, k.escape(agent_id), k.escape(thread_id))


def thread_pk(key: ThreadKey) -> str:
    return k.join(k.user_pk(key.tenant_id, key.user_id), THREAD, k.escape(key.agent_id), k.escape(key.thread_id))


def message_sk(message_id: str) -> str:
    return k.join(MESSAGE, k.escape(message_id))


def seq_sk(seq: int) -> str:
    return k.join(MESSAGE_BY_SEQ, k.padded(seq, SEQ_DIGITS))


class DynamoConversations(DynamoBase):
    # -- threads and appends ---------------------------------------------------------------
    def append(
        self,
        key: ThreadKey,
        messages: Sequence[NewMessage],
        now: datetime,
        origin: datetime | None = None,
    ) -> AppendOutcome:
        if len(messages) > MAX_MESSAGES_PER_APPEND:
            raise ValidationFailed(f"Send at most {MAX_MESSAGES_PER_APPEND} messages at once.", field="messages")
        tenant_id, user_id, thread_id = key.tenant_id, key.user_id, key.thread_id
        tpk = thread_pk(key)
        for attempt in range(ATTEMPTS):
            if attempt:
                # Full jitter: writers contending for one thread spread out instead of colliding again.
                time.sleep(random.uniform(0, min(0.05, 0.002 * 2**attempt)))
            thread = self.get_thread(key)
            found = {m.id: m for m in self._by_ids(tpk, list(dict.fromkeys(m.id for m in messages)))}
            last, stored, fresh = _numbered(key, messages, found, 0 if thread is None else thread.last_seq, now)
            if not fresh:
                assert thread is not None  # every message existed, so the thread does
                if origin is not None and self._erased_since(tenant_id, user_id, origin):
                    raise UserErased("This user was erased after this append began; it was not applied.")
                return AppendOutcome(thread, stored, ())
            after = _thread_after(key, thread, last, now)
            actions, erasure = self._append_actions(thread, after, fresh, origin)
            try:
                self.call("TransactWriteItems", TransactItems=actions)
            except TransactionCancelled as exc:
                if erasure is not None and exc.reasons[erasure : erasure + 1] == ["ConditionalCheckFailed"]:
                    raise UserErased("This user was erased after this append began; it was not applied.") from exc
                continue  # another append (or a clear) got there first: read again
            # The window start and clear count may have moved meanwhile; report the truth.
            current = self.get_thread(key) or after
            return AppendOutcome(current, stored, tuple(m.id for m in fresh))
        raise VersionConflict("This thread is being appended to by many writers; retry.", threadId=thread_id)

    def _append_actions(
        self, thread: Thread | None, after: Thread, fresh: Sequence[Message], origin: datetime | None
    ) -> tuple[list[dict[str, Any]], int | None]:
        """The append's transaction, and where in it the erasure check is (None: none)."""
        actions = [self._thread_action(thread, after)]
        actions += [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": _message_item(m),
                    "ConditionExpression": "attribute_not_exists(#pk)",
                    "ExpressionAttributeNames": {"#pk": k.PK},
                }
            }
            for m in fresh
        ]
        if origin is None:
            return actions, None
        # Erasure wins, as for memory writes: checked in the append's own transaction, so
        # an append that began before the erasure stores nothing.
        actions.append(self._not_erased_since(after.tenant_id, after.user_id, origin))
        return actions, len(actions) - 1

    def _not_erased_since(self, tenant_id: str, user_id: str, origin: datetime) -> dict[str, Any]:
        return {
            "ConditionCheck": {
                "TableName": self.table_name,
                "Key": key_of(k.erasure_pk(tenant_id, user_id), k.ERASED_SK),
                "ConditionExpression": "attribute_not_exists(#at) OR #at < :origin",
                "ExpressionAttributeNames": {"#at": "erasedAt"},
                "ExpressionAttributeValues": {":origin": attr(ts(origin))},
            }
        }

    def _erased_since(self, tenant_id: str, user_id: str, origin: datetime) -> bool:
        item = self.get(k.erasure_pk(tenant_id, user_id), k.ERASED_SK)
        at = None if item is None else item.get("erasedAt", {}).get("S")
        return at is not None and at >= ts(origin)

    def _thread_action(self, before: Thread | None, after: Thread) -> dict[str, Any]:
        if before is None:
            return {
                "Put": {
                    "TableName": self.table_name,
                    "Item": _thread_item(after),
                    "ConditionExpression": "attribute_not_exists(#pk)",
                    "ExpressionAttributeNames": {"#pk": k.PK},
                }
            }
        # An update, not a put: a concurrent clear_window changes other attributes.
        return {
            "Update": {
                "TableName": self.table_name,
                "Key": key_of(k.user_pk(after.tenant_id, after.user_id), thread_sk(after.agent_id, after.thread_id)),
                "UpdateExpression": "SET #last = :last, #upd = :upd",
                "ConditionExpression": "#last = :expected",
                "ExpressionAttributeNames": {"#last": "lastSeq", "#upd": "updatedAt"},
                "ExpressionAttributeValues": {
                    ":last": attr(after.last_seq),
                    ":upd": attr(ts(after.updated_at)),
                    ":expected": attr(before.last_seq),
                },
            }
        }

    def get_thread(self, key: ThreadKey) -> Thread | None:
        item = self.get(k.user_pk(key.tenant_id, key.user_id), thread_sk(key.agent_id, key.thread_id))
        return None if item is None else _thread(item)

    def list_threads(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[Thread]:
        threads = [_thread(it) for it in self._user_items(tenant_id, user_id, _prefix(THREAD, agent_id))]
        return sorted(threads, key=lambda t: (-t.updated_at.timestamp(), t.thread_id, t.agent_id))

    def clear_window(self, key: ThreadKey, expected_window_start: int, new_window_start: int, now: datetime) -> bool:
        try:
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(k.user_pk(key.tenant_id, key.user_id), thread_sk(key.agent_id, key.thread_id)),
                UpdateExpression="SET #ws = :new, #upd = :upd ADD #clears :one",
                ConditionExpression="#ws = :expected",
                ExpressionAttributeNames={"#ws": "windowStart", "#upd": "updatedAt", "#clears": "clears"},
                ExpressionAttributeValues={
                    ":new": attr(new_window_start),
                    ":upd": attr(ts(now)),
                    ":one": attr(1),
                    ":expected": attr(expected_window_start),
                },
            )
        except ConditionFailed:
            return False
        return True

    # -- messages ------------------------------------------------------------------------------
    def get_message(self, key: ThreadKey, message_id: str) -> Message | None:
        item = self.get(thread_pk(key), message_sk(message_id))
        return None if item is None else _message(item)

    def get_messages(self, tenant_id: str, user_id: str, keys: Sequence[tuple[str, str, str]]) -> list[Message]:
        wanted = [
            key_of(thread_pk(ThreadKey(tenant_id, user_id, agent_id, thread_id)), message_sk(message_id))
            for agent_id, thread_id, message_id in dict.fromkeys(keys)
        ]
        return [_message(it) for it in self.batch_get(wanted)]

    def _by_ids(self, tpk: str, ids: Sequence[str]) -> list[Message]:
        return [_message(it) for it in self.batch_get([key_of(tpk, message_sk(i)) for i in ids])]

    def recent(self, key: ThreadKey, from_seq: int, limit: int, before_seq: int | None = None) -> list[Message]:
        upper = (before_seq - 1) if before_seq is not None else 10**SEQ_DIGITS - 1
        if upper < max(from_seq, 1) or limit <= 0:
            return []
        return self._range(key, max(from_seq, 1), upper, limit, forward=False)

    def list_messages(self, key: ThreadKey, after_seq: int = 0, limit: int = 500) -> list[Message]:
        return self._range(key, after_seq + 1, 10**SEQ_DIGITS - 1, limit, forward=True)

    def _range(self, key: ThreadKey, low: int, high: int, limit: int, forward: bool) -> list[Message]:
        out: list[Message] = []
        for page in self.query_pages(
            IndexName=k.LSI1,
            KeyConditionExpression="#pk = :pk AND #sk BETWEEN :lo AND :hi",
            ExpressionAttributeNames={"#pk": k.PK, "#sk": k.LSI1SK},
            ExpressionAttributeValues={
                ":pk": attr(thread_pk(key)),
                ":lo": attr(seq_sk(low)),
                ":hi": attr(seq_sk(high)),
            },
            ScanIndexForward=forward,
            ConsistentRead=True,
            Limit=min(limit, 1000),
        ):
            out.extend(_message(it) for it in page.get("Items", []))
            if len(out) >= limit:
                break
        return out[:limit]

    def user_messages(self, tenant_id: str, user_id: str) -> list[Message]:
        # Each thread's partition named by its item's sort key, as ``_delete`` does: a
        # thread written before threads were keyed by agent (``TH#<thread>``) and not yet
        # migrated keeps its messages under that key, not under its ThreadKey's.
        upk = k.user_pk(tenant_id, user_id)
        out: list[Message] = []
        for thread in sorted(it[k.SK]["S"] for it in self._user_items(tenant_id, user_id, k.join(THREAD, ""))):
            items = self.query_items(
                KeyConditionExpression="#pk = :pk",
                ExpressionAttributeNames={"#pk": k.PK},
                ExpressionAttributeValues={":pk": attr(k.join(upk, thread))},
                ConsistentRead=True,
            )
            msgs = [_message(it) for it in items if it.get(k.ITEM_TYPE, {}).get("S") == ITEM_MESSAGE]
            out += sorted(msgs, key=lambda m: m.seq)
        return out

    def mark_extracted(self, key: ThreadKey, message_id: str, record: ExtractionRecord) -> None:
        try:
            self.call(
                "UpdateItem",
                TableName=self.table_name,
                Key=key_of(thread_pk(key), message_sk(message_id)),
                UpdateExpression="SET #x = :x",
                ConditionExpression="attribute_exists(#pk)",
                ExpressionAttributeNames={"#x": "extraction", "#pk": k.PK},
                ExpressionAttributeValues={":x": attr(_dumps(record_to_dict(record)))},
            )
        except ConditionFailed:
            return  # erased while it was being processed: nothing to mark

    # -- summaries ------------------------------------------------------------------------------
    def get_summary(self, key: ThreadKey) -> ThreadSummary | None:
        item = self.get(k.user_pk(key.tenant_id, key.user_id), summary_sk(key.agent_id, key.thread_id))
        return None if item is None else summary_from_dict(json.loads(item["body"]["S"]))

    def put_summary(self, summary: ThreadSummary, expected_version: int | None) -> bool:
        item = {
            k.PK: {"S": k.user_pk(summary.tenant_id, summary.user_id)},
            k.SK: {"S": summary_sk(summary.agent_id, summary.thread_id)},
            k.ITEM_TYPE: {"S": ITEM_SUMMARY},
            "agentId": {"S": summary.agent_id},
            "version": {"N": str(summary.version)},
            "body": {"S": _dumps(summary_to_dict(summary))},
        }
        condition: dict[str, Any] = (
            {"ConditionExpression": "attribute_not_exists(#pk)", "ExpressionAttributeNames": {"#pk": k.PK}}
            if expected_version is None
            else {
                "ConditionExpression": "#v = :v",
                "ExpressionAttributeNames": {"#v": "version"},
                "ExpressionAttributeValues": {":v": attr(expected_version)},
            }
        )
        try:
            self.put(item, **condition)
        except ConditionFailed:
            return False
        return True

    def list_summaries(self, tenant_id: str, user_id: str, agent_id: str | None = None) -> list[ThreadSummary]:
        out = [
            summary_from_dict(json.loads(it["body"]["S"]))
            for it in self._user_items(tenant_id, user_id, _prefix(SUMMARY, agent_id))
        ]
        return sorted(out, key=lambda s: (s.thread_id, s.agent_id))

    # -- deletion ----------------------------------------------------------------------------------
    def delete_thread(self, key: ThreadKey) -> dict[str, int]:
        upk = k.user_pk(key.tenant_id, key.user_id)
        return self._delete(upk, thread_sk(key.agent_id, key.thread_id))

    def _delete(self, upk: str, tsk: str) -> dict[str, int]:
        """Delete a thread named by its item's sort key: its message partition (the user
        partition key joined with that sort key), its summary and the thread item. Keys
        written before threads were keyed by agent (``TH#<thread>``) follow the same rule,
        so an erasure removes them too, migrated or not."""
        messages = self.delete_partition(k.join(upk, tsk))
        ssk = k.join(SUMMARY, tsk.split(k.SEP, 1)[1])
        singles = self.batch_get([key_of(upk, ssk), key_of(upk, tsk)])
        kinds = [it.get(k.ITEM_TYPE, {}).get("S") for it in singles]
        self.batch_delete([{k.PK: it[k.PK], k.SK: it[k.SK]} for it in singles])
        return {
            "messages": messages,
            "summaries": kinds.count(ITEM_SUMMARY),
            "threads": kinds.count(ITEM_THREAD),
        }

    def delete_partition(self, pk: str) -> int:
        deleted = 0
        while True:
            # Deleting while paging would skip items: take a batch, delete it, ask again.
            batch: list[Item] = []
            for it in self.query_items(
                KeyConditionExpression="#pk = :pk",
                ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
                ExpressionAttributeValues={":pk": attr(pk)},
                ProjectionExpression="#pk, #sk",
                ConsistentRead=True,
                Limit=1000,
            ):
                batch.append({k.PK: it[k.PK], k.SK: it[k.SK]})
                if len(batch) >= 1000:
                    break
            if not batch:
                return deleted
            deleted += self.batch_delete(batch)

    def erase_user(self, tenant_id: str, user_id: str) -> dict[str, int]:
        counts = {"messages": 0, "summaries": 0, "threads": 0}
        upk = k.user_pk(tenant_id, user_id)
        # Every thread by the sort key of its item or its summary's (a summary without
        # its thread item still names the thread), in the old key form or the new.
        sks = {it[k.SK]["S"] for it in self._user_items(tenant_id, user_id, k.join(THREAD, ""))}
        sks |= {
            k.join(THREAD, it[k.SK]["S"].split(k.SEP, 1)[1])
            for it in self._user_items(tenant_id, user_id, k.join(SUMMARY, ""))
        }
        for tsk in sorted(sks):
            for name, n in self._delete(upk, tsk).items():
                counts[name] += n
        return counts

    def _user_items(self, tenant_id: str, user_id: str, prefix: str) -> list[Item]:
        """The user partition's items whose sort key begins with ``prefix``."""
        return list(
            self.query_items(
                KeyConditionExpression="#pk = :pk AND begins_with(#sk, :prefix)",
                ExpressionAttributeNames={"#pk": k.PK, "#sk": k.SK},
                ExpressionAttributeValues={
                    ":pk": attr(k.user_pk(tenant_id, user_id)),
                    ":prefix": attr(prefix),
                },
                ConsistentRead=True,
            )
        )


def _prefix(kind: str, agent_id: str | None) -> str:
    """The sort-key prefix of a kind's items: all of them, or one agent's."""
    return k.join(kind, "") if agent_id is None else k.join(kind, k.escape(agent_id), "")


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _thread_item(t: Thread) -> Item:
    return {
        **to_item(thread_to_dict(t)),
        k.PK: {"S": k.user_pk(t.tenant_id, t.user_id)},
        k.SK: {"S": thread_sk(t.agent_id, t.thread_id)},
        k.ITEM_TYPE: {"S": ITEM_THREAD},
    }


def _thread(item: Item) -> Thread:
    return thread_from_dict(from_item(item))


def _message_item(m: Message) -> Item:
    body = message_to_dict(m)
    body.pop("extraction")
    # JSON in one attribute: metadata is the agent's free-form data (execution traces),
    # and a DynamoDB map would drop its nulls and turn its floats into decimals.
    return {
        k.PK: {"S": thread_pk(m.thread_key)},
        k.SK: {"S": message_sk(m.id)},
        k.LSI1SK: {"S": seq_sk(m.seq)},
        k.ITEM_TYPE: {"S": ITEM_MESSAGE},
        "body": {"S": _dumps(body)},
    }


def _message(item: Item) -> Message:
    body = json.loads(item["body"]["S"])
    extraction = item.get("extraction", {}).get("S")
    body["extraction"] = None if extraction is None else json.loads(extraction)
    return message_from_dict(body)


def _numbered(
    key: ThreadKey, messages: Sequence[NewMessage], found: dict[str, Message], last: int, now: datetime
) -> tuple[int, list[Message], list[Message]]:
    """Each message as stored: one already there is kept, a new one numbered after ``last``.
    Answers the last number, every message of the append, and the new ones."""
    stored: list[Message] = []
    fresh: list[Message] = []
    for new in messages:
        if new.id in found:
            stored.append(found[new.id])
            continue
        last += 1
        msg = new.stored(key.tenant_id, key.user_id, key.thread_id, key.agent_id, last, now)
        found[msg.id] = msg
        fresh.append(msg)
        stored.append(msg)
    return last, stored, fresh


def _thread_after(key: ThreadKey, thread: Thread | None, last: int, now: datetime) -> Thread:
    """The thread as the append leaves it (a new one starts its window at 1)."""
    return Thread(
        key.tenant_id,
        key.user_id,
        key.thread_id,
        key.agent_id,
        now if thread is None else thread.created_at,
        now,
        last,
        1 if thread is None else thread.window_start,
        0 if thread is None else thread.clears,
    )
