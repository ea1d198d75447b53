"""Rules of the code's shape that the build keeps (next to lint-imports' contracts).

Every repository of a store is built over the store's shared connection or table
module (``adapters/sqlite/db.py``, ``adapters/dynamodb/base.py``) and talks to its
siblings only through what they make public. A reach into another object's private
member (``other._conn()``) or an import of another module's private name
(``from x import _helper``) couples two modules through what neither promised, which is
how the embedded store's siblings came to make 45 calls into ``SqliteStore``'s internals.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "functions" / "engram"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _own(node: ast.expr) -> bool:
    """``self._x``, ``cls._x`` and ``super()._x`` are an object's own members."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def private_reaches(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr) and not _own(node.value):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engram"):
            found += [f"{node.lineno}: from {node.module} import {a.name}" for a in node.names if _private(a.name)]
    return found


def test_the_rule_sees_a_reach_into_another_objects_private_member() -> None:
    assert private_reaches("self._store._conn()") == ["1: self._store._conn"]
    assert private_reaches("from engram.adapters.sqlite.store import _dumps") == [
        "1: from engram.adapters.sqlite.store import _dumps"
    ]
    assert private_reaches("self._conn(); cls._x; super()._tx(); x.__dict__") == []


def test_no_module_reaches_into_another_objects_private_members() -> None:
    reaches = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if (found := private_reaches(path.read_text(encoding="utf-8")))
    }
    assert reaches == {}


def whole_store_uses(source: str) -> list[str]:
    """Imports of the ``Store`` union: a service that takes it depends on every port."""
    return [
        f"{node.lineno}: from {node.module} import Store"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        and node.module == "engram.ports"
        and any(a.name == "Store" for a in node.names)
    ]


def test_the_rule_sees_a_service_take_the_whole_store() -> None:
    assert whole_store_uses("from engram.ports import Clock, Store") == ["1: from engram.ports import Store"]
    assert whole_store_uses("from engram.ports import KeyStore, MemoryRepository") == []


def test_services_take_only_the_repositories_they_use() -> None:
    """The composition root hands each service its repositories (``backends.Repositories``);
    none is typed with the whole store, so none can grow a dependency on a port unseen."""
    uses = {
        str(path.relative_to(PACKAGE)): found
        for folder in ("service", "api", "handlers", "local")
        for path in sorted((PACKAGE / folder).rglob("*.py"))
        if (found := whole_store_uses(path.read_text(encoding="utf-8")))
    }
    assert uses == {}
