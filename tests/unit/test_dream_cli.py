"""``engram dream`` on the embedded store: one process or a pool, the same result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engram.container import build
from engram.local.cli import main
from engram.service.memory import UpsertCommand
from engram.settings import Settings

from tests.support import principal


def _seed(data_dir: Path, users: int) -> None:
    engram = build(Settings(data_dir=data_dir))
    for u in range(users):
        engram.memory.upsert(
            principal("t1", "agent-a"),
            f"u{u}",
            [UpsertCommand("city", "Paris"), UpsertCommand("mood", "fine", category="context")],
        )


@pytest.mark.parametrize("workers", [1, 2])
def test_given_due_users_when_engram_dream_runs_then_it_reports_them_and_a_second_run_finds_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: int
) -> None:
    _seed(tmp_path, 5)
    assert main(["--data-dir", str(tmp_path), "dream", "--json", "--workers", str(workers)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["status"] == "completed"
    assert report["users_processed"] == 5 and report["entries_read"] == 10
    assert main(["--data-dir", str(tmp_path), "dream", "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["users_processed"] == 0


def test_given_a_terminal_when_engram_dream_runs_then_it_prints_a_summary_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(tmp_path, 2)
    assert main(["--data-dir", str(tmp_path), "dream"]) == 0
    out = capsys.readouterr().out
    assert "users processed" in out and "entries read" in out and "users/s" in out


def test_given_a_terminal_when_engram_dream_runs_then_the_bar_advances_every_few_users(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.local import dream_runner
    from rich.console import Console

    _seed(tmp_path, 12)
    batches: list[int] = []
    original = dream_runner.run_dream

    def counting(*args: object, on_batch: object = None, **kwargs: object) -> object:
        def seen(result: object) -> None:
            batches.append(result.processed)  # type: ignore[attr-defined]
            on_batch(result)  # type: ignore[operator]

        return original(*args, on_batch=seen, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(dream_runner, "run_dream", counting)
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    assert main(["--data-dir", str(tmp_path), "dream"]) == 0
    # 12 users in batches of 5: the bar moved three times, not once from 0 to done.
    assert batches == [5, 5, 2]


# -- issue #17, item 10: the CLI runs on the settings' clock and with the configured summarizer --


@pytest.mark.parametrize("workers", [1, 2])
def test_given_a_started_clock_when_engram_dream_runs_then_it_expires_by_that_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    from datetime import UTC, datetime, timedelta

    from engram.domain.agent_config import AgentConfig, UserMemoryConfig

    engram = build(Settings(data_dir=tmp_path))
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=UserMemoryConfig(ttl_hours={"context": 24})))
    for u in range(3):
        engram.memory.upsert(principal("t1", "agent-a"), f"u{u}", [UpsertCommand("mood", "fine", category="context")])
    # When dream runs with the clock the server would have two days on (ENGRAM_CLOCK_START)
    monkeypatch.setenv("ENGRAM_CLOCK_START", (datetime.now(UTC) + timedelta(days=2)).isoformat())
    assert main(["--data-dir", str(tmp_path), "dream", "--json", "--workers", str(workers)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    # Then the day-long moods are over by that clock, in this process and in its workers
    assert report["users_processed"] == 3 and report["expired"] == 3


def test_given_a_configured_summarizer_when_engram_dream_runs_then_it_summarises(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import boto3
    from botocore.stub import Stubber
    from engram.adapters.bedrock_summarizer import BedrockSummarizer
    from engram.domain.agent_config import AgentConfig, DreamConfig, SemanticDedupConfig, UserMemoryConfig

    engram = build(Settings(data_dir=tmp_path))
    dream = DreamConfig(enabled=True, summarize_interactions=True, summarize_min_entries=3, merge_duplicates=False)
    umc = UserMemoryConfig(dream_config=dream, semantic_dedup=SemanticDedupConfig(enabled=False))
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=umc))
    facts = [UpsertCommand("city", "Paris"), UpsertCommand("pet", "a dog"), UpsertCommand("job", "baker")]
    engram.memory.upsert(principal("t1", "agent-a"), "u1", facts)
    client = boto3.client("bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    bedrock = BedrockSummarizer(client, model="m", usd_per_million_input=0.25, usd_per_million_output=1.25)
    made: list[Settings] = []

    def from_settings(settings: Settings) -> BedrockSummarizer:
        made.append(settings)
        return bedrock

    monkeypatch.setattr(BedrockSummarizer, "from_settings", staticmethod(from_settings))
    monkeypatch.setenv("ENGRAM_DREAM_SUMMARIZER", "bedrock")
    reply = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Lives in Paris, has a dog, bakes."}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 200, "outputTokens": 20, "totalTokens": 220},
        "metrics": {"latencyMs": 120},
    }
    with Stubber(client) as stub:
        stub.add_response("converse", reply)
        assert main(["--data-dir", str(tmp_path), "dream", "--json"]) == 0
        stub.assert_no_pending_responses()
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert made and report["summaries_written"] == 1 and report["entries_summarized"] == 3
    assert report["cost_micros"] > 0


def test_given_an_agent_that_summarises_when_engram_dream_runs_with_nothing_configured_then_facts_are_summarised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime, timedelta

    from engram.domain.agent_config import AgentConfig, DreamConfig, Guardrails, SemanticDedupConfig, UserMemoryConfig
    from engram.domain.models import ChangeKind, Status
    from engram.ports import EntryQuery

    monkeypatch.delenv("ENGRAM_DREAM_SUMMARIZER", raising=False)
    engram = build(Settings(data_dir=tmp_path))
    # Given an agent that asks dream to summarise its facts (at 3 or more), with
    # room for 100 characters in an entry, and write-time dedup off so the same fact
    # can be stored twice under two spellings
    dream = DreamConfig(enabled=True, summarize_interactions=True, summarize_min_entries=3, merge_duplicates=False)
    umc = UserMemoryConfig(
        dream_config=dream,
        guardrails=Guardrails(max_value_length=100),
        semantic_dedup=SemanticDedupConfig(enabled=False),
    )
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=umc))
    facts = [
        UpsertCommand("favorite_food", "pizza"),
        UpsertCommand("city", "Paris"),
        UpsertCommand("hobby", "restoring old sailing boats on weekends"),
        UpsertCommand("favourite_foods", "Pizza!"),
        UpsertCommand("pet", "a dog called Rex"),
        UpsertCommand("job", "baker"),
    ]
    engram.memory.upsert(principal("t1", "agent-a"), "u1", facts)

    # When `engram dream` runs with no summariser configured (the local default)
    assert main(["--data-dir", str(tmp_path), "dream", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])

    # Then one summary is written, free, from the facts themselves: the most informative
    # first, the two spellings of one fact once, within the 100 characters
    assert report["summaries_written"] == 1 and report["cost_micros"] == 0
    now = datetime.now(UTC) + timedelta(minutes=1)
    live = {e.key: e for e in engram.store.list_entries("t1", "u1", EntryQuery(now=now)).items}
    summary = live["summary.fact"]
    assert (
        summary.value == "hobby: restoring old sailing boats on weekends; pet: a dog called Rex; favorite food: pizza"
    )
    assert report["entries_summarized"] == 4
    # and the facts that did not fit stay as they were: nothing leaves live memory
    # without being in a summary
    assert sorted(live) == ["city", "job", "summary.fact"]
    # and each summarised entry records where it went
    history = engram.store.history_of_user("t1", "u1")
    folded = {h.entry.key: h for h in history if h.change is ChangeKind.SUMMARIZED}
    assert sorted(folded) == ["favorite_food", "favourite_foods", "hobby", "pet"]
    assert all(h.entry.status is Status.SUPERSEDED and h.entry.superseded_by == summary.id for h in folded.values())

    # When dream runs again after nothing changed, the summary stands as it is
    engram.memory.upsert(principal("t1", "agent-a"), "u1", [UpsertCommand("city", "Paris")])
    assert main(["--data-dir", str(tmp_path), "dream", "--json"]) == 0
    again = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert again["users_processed"] == 1 and again["summaries_written"] == 0


def test_given_an_injected_clock_when_dream_runs_in_worker_processes_then_they_run_on_it(tmp_path: Path) -> None:
    from datetime import UTC, datetime, timedelta

    from engram.domain.agent_config import AgentConfig, UserMemoryConfig
    from engram.domain.models import ChangeKind
    from engram.local.dream_runner import run_dream

    from tests.support import ManualClock

    settings = Settings(data_dir=tmp_path)
    engram = build(settings)
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=UserMemoryConfig(ttl_hours={"context": 24})))
    for u in range(4):
        engram.memory.upsert(principal("t1", "agent-a"), f"u{u}", [UpsertCommand("mood", "fine", category="context")])
    # Given a clock a caller injects, a year on
    later = datetime.now(UTC) + timedelta(days=365)
    # When dream runs with two worker processes on it
    result = run_dream(settings, workers=2, clock=ManualClock(later))
    assert result.stats.expired == 4
    # Then every change the workers made is dated by that clock, not by the wall clock
    expiries = [
        h for u in range(4) for h in engram.store.history_of_user("t1", f"u{u}") if h.change is ChangeKind.EXPIRED
    ]
    assert len(expiries) == 4
    assert all(later <= h.at < later + timedelta(minutes=10) for h in expiries)


def test_given_an_agents_own_and_group_facts_when_dream_summarises_both_then_neither_summary_replaces_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from datetime import UTC, datetime, timedelta

    from engram.domain.agent_config import AgentConfig, DreamConfig, SemanticDedupConfig, UserMemoryConfig
    from engram.domain.models import Visibility
    from engram.ports import EntryQuery

    monkeypatch.delenv("ENGRAM_DREAM_SUMMARIZER", raising=False)
    engram = build(Settings(data_dir=tmp_path))
    dream = DreamConfig(enabled=True, summarize_interactions=True, summarize_min_entries=3, merge_duplicates=False)
    umc = UserMemoryConfig(dream_config=dream, semantic_dedup=SemanticDedupConfig(enabled=False))
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=umc))
    writer = principal("t1", "agent-a", groups=("g1",))
    # Given one agent's own facts and the facts it shares with group g1: two partitions
    # that dream summarises apart (whoever sees one does not necessarily see the other)
    own = [UpsertCommand("city", "Paris"), UpsertCommand("pet", "a dog"), UpsertCommand("job", "baker")]
    shared = [
        UpsertCommand(k, v, visibility=Visibility.GROUP, group_ids=("g1",))
        for k, v in (("team", "blue"), ("desk", "by the window"), ("shift", "mornings"))
    ]
    engram.memory.upsert(writer, "u1", [*own, *shared])

    # When `engram dream` summarises both partitions
    assert main(["--data-dir", str(tmp_path), "dream", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["summaries_written"] == 2

    # Then both summaries are live, each in its own partition, and every fact that left
    # live memory is in one of them (one summary superseding the other would drop the
    # first partition's facts from live memory)
    now = datetime.now(UTC) + timedelta(minutes=1)
    live = engram.store.list_entries("t1", "u1", EntryQuery(now=now)).items
    text = " ".join(e.value for e in live)
    for fact in ("Paris", "a dog", "baker", "blue", "by the window", "mornings"):
        assert fact in text, fact
    assert sorted(e.visibility.value for e in live) == ["group", "self"]
