"""The one code asset every function ships: what it holds, what it leaves out, its size."""

from __future__ import annotations

import ast
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from tests.infra.conftest import Synth

pytestmark = pytest.mark.slow  # the shared synth takes ~10 s once per worker


def _functions(synth: Synth) -> list[dict[str, Any]]:
    """Engram's functions (not the CDK's own helper functions, which have their own code)."""
    return [
        r
        for logical_id, r in synth.of_type("AWS::Lambda::Function").items()
        if logical_id.startswith("EngramFunctions")
    ]


def _staged(synth: Synth) -> Path:
    s3_key = _functions(synth)[0]["Properties"]["Code"]["S3Key"]
    return synth.outdir / f"asset.{s3_key.removesuffix('.zip')}"


def _imported_modules(path: Path) -> set[str]:
    """Every absolute import of a module, at its top or inside a function (a lazy import)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_given_the_stack_then_all_functions_ship_one_code_asset(synth: Synth) -> None:
    keys = {json.dumps(f["Properties"]["Code"]) for f in _functions(synth)}

    assert len(keys) == 1


def test_given_the_code_asset_then_it_holds_the_package_without_caches_or_tests(synth: Synth) -> None:
    from engram_infra.assets import CODE_DIR, shipped_files

    staged = _staged(synth)
    staged_files = sorted(p.relative_to(staged) for p in staged.rglob("*") if p.is_file())

    assert staged_files == list(shipped_files(CODE_DIR))
    assert Path("engram/handlers/api.py") in staged_files
    assert not [p for p in staged_files if "__pycache__" in p.parts or p.suffix == ".pyc" or "tests" in p.parts]


def test_given_the_code_asset_then_what_it_leaves_out_is_never_imported_by_what_it_ships(synth: Synth) -> None:
    """The agent-side client (its own distribution) and what only a laptop runs (the CLI,
    `engram serve`, the table migration, the OpenAPI tools) are left out; a function that
    imported one of them, even lazily, would fail in Lambda."""
    from engram_infra.assets import CODE_DIR, EXCLUDED_PATHS, shipped_files

    shipped = list(shipped_files(CODE_DIR))
    left_out = [p.removesuffix(".py") for p in EXCLUDED_PATHS]
    modules = [p.replace("/", ".") for p in left_out if p != "engram/adapters/data"]  # data, not code
    assert {"engram.local", "engram.client", "engram_memory_client"} <= set(modules)
    assert not [p for p in shipped if any(p.as_posix().startswith(f"{out}") for out in left_out)]
    importers = [
        f"{rel}: {name}"
        for rel in shipped
        if rel.suffix == ".py"
        for name in _imported_modules(CODE_DIR / rel)
        if any(name == m or name.startswith(f"{m}.") for m in modules)
    ]
    assert importers == []


def test_given_the_code_asset_then_the_minilm_tokenizer_it_leaves_out_is_never_needed() -> None:
    """MiniLM runs only where `engram[semantic]` is installed: the stack picks hash or Bedrock
    embeddings and its layers carry no onnxruntime, so no function reads adapters/data."""
    from engram_infra.assets import EXCLUDED_PATHS
    from engram_infra.config import EngramConfig

    assert "engram/adapters/data" in EXCLUDED_PATHS
    embedders = set(typing.get_args(EngramConfig.model_fields["embedder"].annotation))
    assert embedders == {"hash", "bedrock"}


def test_given_the_code_asset_then_it_stays_within_its_size_budget(synth: Synth) -> None:
    from engram_infra.assets import CODE_ASSET_BUDGET_BYTES

    staged = _staged(synth)
    size = sum(p.stat().st_size for p in staged.rglob("*") if p.is_file())

    assert size <= CODE_ASSET_BUDGET_BYTES, f"{size / 2**20:.2f} MiB"
