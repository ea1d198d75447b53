"""README, docs/dynamodb.md and docs/performance.md give the cost the committed results give.

All three are written from one run: ``bench.dynamodb_requests`` measures, ``bench.cost``
models (bench/results/cost.json) and rewrites the README's and docs/dynamodb.md's
generated blocks, ``bench.report`` writes docs/performance.md. This fails when one of
them was edited by hand or left behind.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench import cost

ROOT = Path(__file__).resolve().parents[2]


def _committed() -> dict:
    return json.loads((ROOT / "bench" / "results" / "cost.json").read_text(encoding="utf-8"))


def _block(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[text.index(cost.BEGIN) + len(cost.BEGIN) : text.index(cost.END)].strip()


def test_given_the_committed_cost_model_then_the_readme_block_is_its_rendering() -> None:
    assert _block(ROOT / "README.md") == cost.readme_block(_committed()).strip()


def test_given_the_committed_cost_model_then_the_dynamodb_doc_lists_its_measured_cases() -> None:
    assert _block(ROOT / "docs" / "dynamodb.md") == cost.dynamodb_table(_committed()).strip()


def test_given_the_committed_results_then_the_cost_model_inputs_are_those_measurements() -> None:
    committed = _committed()
    measured = json.loads((ROOT / "bench" / "results" / "dynamodb_requests.json").read_text(encoding="utf-8"))
    assert committed["dynamodb_cases"] == measured["cases"]


def test_given_the_committed_cost_model_then_performance_md_shows_the_same_totals() -> None:
    committed = _committed()
    doc = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    for row in ("usd_per_million_recalls", "usd_per_million_memories_written"):
        total = committed[row]["total_without_opensearch"]
        assert f"${total:,.2f} |" in doc


def test_given_the_committed_cost_model_then_it_priced_every_function_the_stack_deploys() -> None:
    # Given the functions infra deploys, with their configured memory
    deployed = cost.memory_sizes()
    # When the committed model is read, then it used exactly those memory sizes (a function
    # added to the stack after the last run, such as reindex, is a stale model)
    assert _committed()["lambda_memory_mb"] == deployed
    assert "reindex" in deployed
