"""Every operation of docs/openapi.json is a typed method of both Python clients."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from engram.api import client_codegen
from engram_memory_client import OPERATIONS, AsyncEngramClient, EngramClient

ROOT = Path(__file__).resolve().parents[2]
DOC: dict[str, Any] = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))


def documented() -> dict[str, tuple[str, str, dict[str, Any]]]:
    """operationId -> (method, path, operation) for every operation of the document."""
    return {
        op["operationId"]: (method.upper(), path, op)
        for path, methods in DOC["paths"].items()
        for method, op in methods.items()
    }


def missing_methods(client: type, doc_ops: dict[str, tuple[str, str, dict[str, Any]]]) -> list[str]:
    by_id = {op.operation_id: name for name, op in OPERATIONS.items()}
    return sorted(op_id for op_id in doc_ops if op_id not in by_id or not callable(getattr(client, by_id[op_id], None)))


@pytest.mark.parametrize("client", [EngramClient, AsyncEngramClient])
def test_given_the_openapi_document_when_compared_then_every_operation_has_a_method(client: type) -> None:
    assert missing_methods(client, documented()) == []
    assert len(OPERATIONS) == len(documented())


def test_given_an_operation_without_a_method_when_checked_then_it_is_reported() -> None:
    # The check itself can fail: an operation the client does not know is named.
    ops = {**documented(), "brand_new_v1_things_get": ("GET", "/v1/things", {})}
    assert missing_methods(EngramClient, ops) == ["brand_new_v1_things_get"]


def test_given_each_operation_when_described_then_method_path_and_every_parameter_match_the_document() -> None:
    doc_ops = documented()
    schemas = DOC["components"]["schemas"]
    for name, op in OPERATIONS.items():
        method, path, spec = doc_ops[op.operation_id]
        assert (op.method, op.path) == (method, path), name
        wires = {(wire, where) for _, wire, where in op.params}
        for param in spec.get("parameters", []):
            assert (param["name"], param["in"]) in wires, (name, param["name"])
        body = spec.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        if body is not None:
            fields = schemas[body["$ref"].rsplit("/", 1)[-1]].get("properties", {})
            assert {(f, "body") for f in fields} <= wires, name
            assert op.body is not None and op.body.__name__ == body["$ref"].rsplit("/", 1)[-1]


def test_given_the_two_clients_when_compared_then_they_offer_the_same_methods_with_the_same_parameters() -> None:
    def public(cls: type) -> dict[str, inspect.Signature]:
        return {
            n: inspect.signature(m)
            for n, m in inspect.getmembers(cls, inspect.isfunction)
            if not n.startswith("_") and n not in {"close", "aclose"}
        }

    sync, aio = public(EngramClient), public(AsyncEngramClient)
    assert set(sync) == set(aio)
    for name in OPERATIONS:
        assert not inspect.iscoroutinefunction(getattr(EngramClient, name)), name
        assert inspect.iscoroutinefunction(getattr(AsyncEngramClient, name)), name
        assert list(sync[name].parameters) == list(aio[name].parameters), name
        assert sync[name].return_annotation == aio[name].return_annotation, name


def test_given_the_checked_in_client_when_regenerated_then_nothing_changes() -> None:
    # make openapi regenerates docs/openapi.json and the client together.
    assert client_codegen.stale(DOC) == []
