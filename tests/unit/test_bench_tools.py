"""The benchmark harness: mem0 side by side (offline, no LLM), the cost model, charts, orchestration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engram.adapters.hashing_embedder import HashingEmbedder

from bench import charts, cost, run_all, vs_mem0
from bench.eval_data import Fact, UserData, fact_text


def test_given_engrams_embedder_in_mem0_when_adding_raw_and_searching_then_found_offline_without_llm(
    tmp_path: Path,
) -> None:
    embedder = HashingEmbedder()
    memory = vs_mem0.make_mem0(embedder, tmp_path)
    memory.add("favorite food: pizza", user_id="u1", infer=False)
    memory.add("dog name: Rex", user_id="u1", infer=False)
    memory.add("favorite food: sushi", user_id="u2", infer=False)

    found = memory.search("what is my favorite food?", top_k=5, filters={"user_id": "u1"}, threshold=0.0)

    texts = [hit["memory"] for hit in found["results"]]
    assert texts[0] == "favorite food: pizza"
    assert "favorite food: sushi" not in texts  # another user's memory
    assert memory.embedding_model.engram_embedder is embedder
    assert memory.embedding_model.calls == 4
    with pytest.raises(vs_mem0.LLMCalled):
        memory.llm.generate_response([{"role": "user", "content": "hi"}])


def test_given_superseded_and_expired_facts_then_only_the_live_current_text_is_expected() -> None:
    u = UserData(
        "u1",
        facts=[
            Fact("car", "Volvo", age_days=100, superseded_by_next=True, role="old"),
            Fact("car", "Tesla", age_days=5),
            Fact("coffee_today", "skipped", category="event", age_days=10, expired=True, role="expired"),
        ],
    )
    assert vs_mem0.current_texts(u) == {"car": fact_text("car", "Tesla")}
    assert vs_mem0.stale_texts(u) == {fact_text("car", "Volvo"), fact_text("coffee_today", "skipped")}


def test_given_two_sides_when_comparing_then_ratios_are_engram_over_mem0() -> None:
    def side(per_second: float, p50: float, recall: float) -> dict[str, object]:
        quality = {"recall@5": recall, "mrr@10": recall / 2}
        return {
            "ingest": {"per_second": per_second},
            "search": {"p50_ms": p50, "p95_ms": p50 * 2, "p99_ms": p50 * 3},
            "quality": {"all": quality, "test": quality},
        }

    r = vs_mem0.ratios(side(400.0, 1.0, 0.9), side(100.0, 4.0, 0.6))
    assert r["ingest_per_second"] == 4.0
    assert r["search_p50_ms"] == 0.25
    assert r["recall@5_test"] == 1.5


def test_given_the_stack_source_then_memory_sizes_are_read_without_the_cdk() -> None:
    sizes = cost.memory_sizes()
    assert sizes["api"] == 1024
    assert set(sizes) >= {"api", "authorizer", "indexer"}


def test_given_a_duration_then_lambda_bills_whole_milliseconds_rounded_up() -> None:
    per_ms = 1 / 1000 * cost.PRICES["lambda_arm_usd_per_gb_second"]
    assert cost.lambda_usd(1024, 9.2) == pytest.approx(10 * per_ms)
    assert cost.lambda_usd(512, 9.2) == pytest.approx(5 * per_ms)


def test_given_results_when_drawing_then_each_chart_is_a_png(tmp_path: Path) -> None:
    results = tmp_path / "results"
    results.mkdir()
    p = {"n": 10, "p50_ms": 1.0, "p95_ms": 2.0, "p99_ms": 3.0, "mean_ms": 1.2}
    side = {
        "ingest": {"per_second": 100.0},
        "search": p,
        "quality": {"test": {"recall@5": 0.9, "mrr@10": 0.8}, "all": {"recall@5": 0.9, "mrr@10": 0.8}},
    }
    files = {
        "recall_latency": {"results": {"hash": {"embedder": "h", "sizes": {"10": p, "500": p, "5000": p}}}},
        "vs_mem0": {"results": {"hash": {"engram": side, "mem0": side}}},
        "load": {"connections": 4, "phases": {"recall": {"rps": 300.0, "generator": "wrk"}}},
        "cold_start": {
            "repeats": 1,
            "import_ms": {"engram.handlers.api": 200.0},
            "import_ms_lambda_env": {"engram.handlers.api": 300.0},
        },
    }
    for name, data in files.items():
        (results / f"{name}.json").write_text(json.dumps(data))

    drawn = charts.main(results, tmp_path / "img")

    assert sorted(p.name for p in drawn) == [
        "cold_start.png",
        "recall_latency_vs_entries.png",
        "throughput.png",
        "vs_mem0.png",
    ]
    for path in drawn:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_given_no_results_when_drawing_then_no_chart_is_made(tmp_path: Path) -> None:
    assert charts.main(tmp_path, tmp_path / "img") == []


def test_given_the_bench_folder_then_every_benchmark_is_planned_within_ten_minutes() -> None:
    names = run_all.discover()
    assert {"vs_mem0", "load", "cold_start"} <= set(names)
    assert not set(names) & run_all.NOT_BENCHMARKS
    assert sum(run_all.PLANS.get(n, run_all.Plan()).budget_s for n in names) <= run_all.TOTAL_BUDGET_S
