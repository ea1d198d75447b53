"""Dream's LLM summaries: the Bedrock Converse adapter under botocore's Stubber, and the
per-run cost cap, which is enforced before each call so it is never exceeded."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber
from engram.adapters.bedrock_summarizer import SYSTEM_PROMPT, BedrockSummarizer, prompt
from engram.adapters.dream_queue import InMemoryDreamQueue
from engram.adapters.sqlite import SqliteStore
from engram.adapters.sqlite.dream_state import SqliteDreamState
from engram.domain.agent_config import AgentConfig, DreamConfig, UserMemoryConfig
from engram.domain.dream import SUMMARY_KEY_PREFIX
from engram.domain.dream_run import DreamRun, Trigger
from engram.domain.errors import StoreUnavailable, Throttled
from engram.domain.models import ChangeKind, Status
from engram.ports import EntryQuery, SummaryRequest
from engram.service.agents import AgentConfigService
from engram.service.dream import DreamService
from engram.service.memory import UpsertCommand
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import T0, ManualClock, engram_for, principal

MODEL = "anthropic.claude-3-haiku-20240307-v1:0"


@pytest.fixture
def client() -> Iterator[Any]:
    c = boto3.client("bedrock-runtime", region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x")
    yield c


def answer(text: str, inputs: int, outputs: int) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": inputs, "outputTokens": outputs, "totalTokens": inputs + outputs},
        "metrics": {"latencyMs": 120},
    }


def summarizer(client: Any) -> BedrockSummarizer:
    return BedrockSummarizer(client, model=MODEL, usd_per_million_input=0.25, usd_per_million_output=1.25)


REQUEST = SummaryRequest(("city: Paris", "pet: a dog called Rex"), "fact", 1000)


def test_given_facts_when_summarised_then_converse_is_called_as_the_service_model_expects(client: Any) -> None:
    s = summarizer(client)
    with Stubber(client) as stub:
        stub.add_response(
            "converse",
            answer("Lives in Paris and has a dog called Rex.", 120, 12),
            {
                "modelId": MODEL,
                "system": [{"text": SYSTEM_PROMPT}],
                "messages": [{"role": "user", "content": [{"text": prompt(REQUEST)}]}],
                "inferenceConfig": {"maxTokens": ANY, "temperature": 0.0},
            },
        )
        result = s.summarize(REQUEST)
        stub.assert_no_pending_responses()
    assert result.text == "Lives in Paris and has a dog called Rex."
    assert result.cost_micros == 45  # 120 x 0.25 + 12 x 1.25 micro-dollars


def test_given_any_usage_within_max_tokens_when_costed_then_the_reservation_bounds_it(client: Any) -> None:
    s = summarizer(client)
    bound = s.max_cost_micros(REQUEST)
    input_bound = len(SYSTEM_PROMPT.encode()) + len(prompt(REQUEST).encode())
    # A byte-level tokenizer makes at most one token per byte; output is capped by maxTokens.
    worst = answer("x", input_bound, s._max_tokens(REQUEST))
    with Stubber(client) as stub:
        stub.add_response("converse", worst)
        assert s.summarize(REQUEST).cost_micros <= bound


@pytest.mark.parametrize(
    ("code", "error"),
    [("ThrottlingException", Throttled), ("AccessDeniedException", StoreUnavailable)],
)
def test_given_bedrock_refuses_when_summarising_then_a_domain_error_is_raised(
    client: Any, code: str, error: type[Exception]
) -> None:
    with Stubber(client) as stub:
        stub.add_client_error("converse", service_error_code=code, http_status_code=400)
        with pytest.raises(error):
            summarizer(client).summarize(REQUEST)


# -- the cost cap ------------------------------------------------------------------------------------


def _with_summaries(tmp_path: Path, client: Any, max_cost: float) -> tuple[Any, DreamService, InMemoryDreamQueue]:
    clock = ManualClock()
    engram = engram_for(tmp_path, clock=clock)
    cfg = DreamConfig(
        enabled=True,
        summarize_interactions=True,
        summarize_min_entries=3,
        max_cost_per_run=max_cost,
        merge_duplicates=False,
    )
    engram.agents.put("t1", "agent-a", AgentConfig(user_memory_config=UserMemoryConfig(dream_config=cfg)))
    p = principal("t1", "agent-a")
    for u in range(4):
        engram.memory.upsert(
            p,
            f"u{u}",
            [UpsertCommand("city", "Paris"), UpsertCommand("pet", "a dog"), UpsertCommand("job", "baker")],
        )
    queue = InMemoryDreamQueue()
    service = DreamService(
        engram.store,
        engram.store,
        SqliteDreamState(engram.store.db),
        queue,
        engram.embedder,
        clock,
        AgentConfigService(engram.store, cache_seconds=0),
        summarizer(client),
        batch_users=1,
    )
    return engram, service, queue


def test_given_a_cap_of_two_and_a_half_reservations_when_calls_cost_ninety_percent_then_two_run(
    tmp_path: Path, client: Any
) -> None:
    s = summarizer(client)
    facts = ("city: Paris", "job: baker", "pet: a dog")
    reserve = s.max_cost_micros(SummaryRequest(facts, "fact", 1000))
    # Each call really costs about 90% of its reservation: a check of "spent < cap"
    # before calling would let a third call through and end at 2.7 reservations.
    outputs = s._max_tokens(SummaryRequest(facts, "fact", 1000))
    inputs = int((0.9 * reserve - outputs * 1.25) / 0.25)
    engram, service, queue = _with_summaries(tmp_path, client, max_cost=2.5 * reserve / 1_000_000)
    with Stubber(client) as stub:
        for _ in range(2):
            stub.add_response("converse", answer("Lives in Paris, bakes, has a dog.", inputs, outputs))
        run = service.start(Trigger.CLI)
        service.plan(run.run_id)
        while len(queue):
            for m in queue.receive():
                service.handle(m)
        stub.assert_no_pending_responses()  # and a third call would have found no response
    stats = service.state.run_stats(run.run_id)
    assert stats.summaries_written == 2 and stats.summaries_skipped_for_cost == 2
    assert stats.cost_micros <= 2.5 * reserve
    summaries = [
        e
        for u in range(4)
        for e in engram.store.list_entries("t1", f"u{u}", EntryQuery(now=T0 + timedelta(days=1))).items
        if e.key.startswith(SUMMARY_KEY_PREFIX)
    ]
    assert len(summaries) == 2 and all(e.confidence == 0.85 for e in summaries)
    sources = engram.store.history_of_user("t1", summaries[0].user_id)
    assert sum(1 for h in sources if h.change is ChangeKind.SUMMARIZED) == 3
    assert all(h.entry.status is Status.SUPERSEDED for h in sources if h.change is ChangeKind.SUMMARIZED)


def test_given_a_summary_with_a_secret_when_written_then_it_is_dropped(tmp_path: Path, client: Any) -> None:
    engram, service, queue = _with_summaries(tmp_path, client, max_cost=10.0)
    with Stubber(client) as stub:
        for _ in range(4):
            stub.add_response("converse", answer("Their password is hunter2, card 4111 1111 1111 1111.", 50, 10))
        run = service.start(Trigger.CLI)
        service.plan(run.run_id)
        while len(queue):
            for m in queue.receive():
                service.handle(m)
    stats = service.state.run_stats(run.run_id)
    assert stats.summaries_written == 0 and stats.cost_micros > 0
    assert len(engram.store.list_entries("t1", "u0", EntryQuery(now=T0 + timedelta(days=1))).items) == 3


@settings(max_examples=60, deadline=None)
@given(
    cap=st.integers(min_value=0, max_value=5_000),
    calls=st.lists(
        st.tuples(st.integers(min_value=1, max_value=2_000), st.floats(min_value=0, max_value=1)), max_size=30
    ),
)
def test_given_any_sequence_of_calls_when_reserved_then_committed_spend_never_exceeds_the_cap(
    cap: int, calls: list[tuple[int, float]]
) -> None:
    store = SqliteStore(":memory:")
    ledger = SqliteDreamState(store.db)
    ledger.create_run(DreamRun("dream_prop", T0, T0, Trigger.CLI))
    spent = 0
    for reserve, share in calls:
        room = cap - spent
        ok = ledger.reserve_cost("dream_prop", "t1", "agent-a", reserve, cap)
        assert ok == (reserve <= room)
        if ok:
            actual = int(reserve * share)
            ledger.settle_cost("dream_prop", "t1", "agent-a", reserve, actual)
            spent += actual
        assert spent <= cap
    row = store.db.conn().execute("SELECT committed, spent FROM dream_costs").fetchone()
    assert row is None or (row[0] == spent and row[1] == spent)


# -- the extractive summariser (no model: the local default) -------------------------------------

from engram.adapters.extractive_summarizer import ExtractiveSummarizer  # noqa: E402
from engram.domain.summaries import SEPARATOR, Extract, extract, near_identical  # noqa: E402


def test_given_spellings_of_one_fact_when_compared_then_they_are_one_and_close_facts_are_not() -> None:
    assert near_identical("favorite food: pizza", "Favourite foods: Pizza!")
    assert near_identical("pet: a dog", "pets: a dog")
    # One letter, one number or one relative makes another fact.
    assert not near_identical("likes: cats", "likes: bats")
    assert not near_identical("child 1: Ana", "child 2: Ana")
    assert not near_identical("sister name: Ana", "brother name: Ana")


def test_given_facts_when_summarised_extractively_then_it_is_free_and_deterministic() -> None:
    request = SummaryRequest(("city: Paris", "pet: a dog called Rex", "city: paris", "job: baker"), "fact", 1000)
    s = ExtractiveSummarizer()
    first = s.summarize(request)
    assert s.max_cost_micros(request) == 0 and first.cost_micros == 0
    assert first == s.summarize(request)
    assert first.text == "pet: a dog called Rex; city: Paris; job: baker"
    assert first.covered == (0, 1, 2, 3)


def test_given_a_previous_summary_when_summarised_again_then_its_items_come_first_and_stay() -> None:
    facts = ("summary.fact: city: Paris; job: baker", "hobby: sailing old boats", "job: Baker")
    made = extract(facts, "fact", 1000)
    assert made.text == "city: Paris; job: baker; hobby: sailing old boats"
    assert made.covered == (0, 1, 2)
    # No room for the new fact: it is not covered (it stays as it is), while a twin of
    # an item already in the summary is folded in.
    assert extract(facts, "fact", 24) == type(made)("city: Paris; job: baker", (0, 2))


_fact = st.text(alphabet=st.sampled_from("abcdeé xyz:12!"), min_size=0, max_size=30)


@settings(max_examples=150, deadline=None)
@given(facts=st.lists(_fact, max_size=12), max_chars=st.integers(min_value=1, max_value=120))
def test_given_any_facts_when_extracted_then_the_summary_fits_and_holds_only_covered_facts(
    facts: list[str], max_chars: int
) -> None:
    made = extract(facts, "fact", max_chars)
    assert len(made.text) <= max_chars
    assert made.covered == tuple(sorted(set(made.covered))) and all(0 <= i < len(facts) for i in made.covered)
    items = [i for i in made.text.split(SEPARATOR) if i]
    # Every item is a source fact as it was written (spaces tidied), and a covered one;
    # every covered fact is in the summary or a near-identical twin of an item.
    covered_lines = [" ".join(facts[i].split()) for i in made.covered]
    assert all(item in covered_lines for item in items)
    assert all(not facts[i].strip() or any(near_identical(facts[i], item) for item in items) for i in made.covered)
    assert extract(facts, "fact", max_chars) == made


def test_given_a_previous_summary_longer_than_the_room_when_summarised_then_none_of_its_items_is_dropped() -> None:
    # The agent lowered maxValueLength after the summary was written: carrying only the
    # items that fit would supersede the summary and drop "job: baker" from live memory.
    facts = ("summary.fact: city: Paris; job: baker", "hobby: sailing")
    assert extract(facts, "fact", 12) == Extract("", ())


def test_given_a_previous_group_summary_when_summarised_again_then_its_items_are_carried() -> None:
    from engram.domain.dream import summary_key
    from engram.domain.models import Visibility

    key = summary_key("fact", Visibility.GROUP, ("g1",))
    assert key != summary_key("fact") and key == summary_key("fact", Visibility.GROUP, ("g1",))
    facts = (f"{key}: team: blue", "desk: by the window")
    made = extract(facts, "fact", 1000)
    assert made.text == "team: blue; desk: by the window" and made.covered == (0, 1)
