"""The write units bench/dynamodb_requests.py charges a transaction (issue 16).

DynamoDB writes each item of a transaction twice (prepare, commit); its index entries
are charged what the same write costs outside a transaction. A ConditionCheck is charged
as a transactional write of the item it reads.
"""

from __future__ import annotations

from typing import Any

from engram.adapters.dynamodb import keys as k

from bench.dynamodb_requests import MeteredClient


class _Client:
    """Accepts every call: only the estimate is under test."""

    def transact_write_items(self, **params: Any) -> dict[str, Any]:
        return {}

    def put_item(self, **params: Any) -> dict[str, Any]:
        return {}


def _entry(status: str, filler: int = 0) -> dict[str, Any]:
    return {
        k.PK: {"S": "T#t#U#u"},
        k.SK: {"S": "E#e1"},
        k.LSI1SK: {"S": f"{status}#2026-01-01T00:00:00Z#e1"},
        "value": {"S": "x" * filler},
    }


def test_given_a_transactional_put_into_one_lsi_then_the_item_costs_twice_and_its_index_entry_once() -> None:
    metered = MeteredClient(_Client())
    metered.transact_write_items(TransactItems=[{"Put": {"Item": _entry("active")}}])
    assert metered.estimate.write_units == 2 + 1


def test_given_a_transaction_moving_an_lsi_key_then_the_index_is_charged_a_delete_and_a_put_once() -> None:
    metered = MeteredClient(_Client())
    metered.put_item(Item=_entry("active"))
    metered.estimate.write_units = 0
    metered.transact_write_items(TransactItems=[{"Put": {"Item": _entry("superseded")}}])
    assert metered.estimate.write_units == 2 + 2


def test_given_a_condition_check_then_it_is_charged_on_the_size_of_the_item_it_reads() -> None:
    metered = MeteredClient(_Client())
    metered.put_item(Item=_entry("active", filler=2500))  # 3 KB
    metered.estimate.write_units = 0
    key = {k.PK: {"S": "T#t#U#u"}, k.SK: {"S": "E#e1"}}
    missing = {k.PK: {"S": "T#t#U#u"}, k.SK: {"S": "E#none"}}
    metered.transact_write_items(TransactItems=[{"ConditionCheck": {"Key": key}}, {"ConditionCheck": {"Key": missing}}])
    assert metered.estimate.write_units == 2 * 3 + 2
