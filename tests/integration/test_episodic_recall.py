"""Recall over past conversations, time in questions, and one ranking for every search (#19; #17 item 9).

Over the API in-process (the same gateway ``engram serve`` uses), on the hashing embedder
the suite runs with (tests/conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from engram.domain.conversation import Message, MessageRole, message_search_text
from engram.domain.models import Role
from engram.domain.serialization import parse_ts
from engram.domain.temporal import question_window

from tests.integration.conftest import Api

USER = "/v1/users/maya"


@pytest.fixture
def writer(api: Api) -> str:
    return api.key("acme", "alpha", Role.WRITER)


def tell(api: Api, key: str, thread: str, *turns: tuple[str, str, str, str]) -> None:
    """Turns as (message id, speaker, when said, what)."""
    messages = [
        {
            "id": mid,
            "role": "user" if speaker == "Maya" else "assistant",
            "content": text,
            "timestamp": at,
            "metadata": {"speaker": speaker},
        }
        for mid, speaker, at, text in turns
    ]
    r = api.call("POST", f"{USER}/threads/{thread}/messages", key, json_body={"messages": messages})
    assert r.status == 200, r.body
    # Messages are indexed by the extraction worker, after the append answers.
    worker = api.engram.conversation.worker
    assert worker is None or worker.wait_idle(10)


def recall(api: Api, key: str, message: str, **extra: Any) -> Any:
    r = api.call("POST", f"{USER}/recall", key, json_body={"message": message, "topK": 10, **extra})
    assert r.status == 200, r.body
    return r.json()


def test_given_past_conversations_when_recalling_then_the_messages_that_answer_come_back_with_provenance(
    api: Api, writer: str
) -> None:
    # Given two past sessions, the answer said in passing in the first
    tell(
        api,
        writer,
        "session-1",
        ("s1-1", "Maya", "2023-05-07T18:00:00+00:00", "Hey! How have you been?"),
        ("s1-2", "Leo", "2023-05-07T18:01:00+00:00", "Busy but good, you?"),
        ("s1-3", "Maya", "2023-05-07T18:02:00+00:00", "We brought home a beagle puppy from the shelter yesterday!"),
    )
    tell(
        api,
        writer,
        "session-2",
        ("s2-1", "Maya", "2023-06-02T09:00:00+00:00", "The weather finally turned nice."),
    )
    # When the agent recalls for a question in a new turn
    body = recall(api, writer, "Which shelter puppy did Maya bring home?", excludeThreadId="session-now")
    # Then the turn that answers is an episode, with where and when it was said and by whom
    top = body["episodes"][0]
    assert top["content"].startswith("We brought home a beagle puppy")
    prov = top["provenance"]
    assert (prov["threadId"], prov["messageId"], prov["speaker"], prov["role"]) == ("session-1", "s1-3", "Maya", "user")
    assert parse_ts(prov["saidAt"]) == parse_ts("2023-05-07T18:02:00+00:00")
    assert top["tier"] == 2 and top["rank"] >= 1 and top["parts"]["total"] == top["score"]
    assert "bm25" in prov["matchedBy"] and top["why"].startswith("relevant to the message")
    # And the block shows it under its own heading, dated and attributed
    assert "From past conversations:\n- [2023-05-07] Maya: We brought home a beagle puppy" in body["context"]
    # Small talk that shares no word with the question is not there
    assert all("weather" not in e["content"] for e in body["episodes"])


def test_recall_leaves_out_the_current_thread_and_episodes_on_request(api: Api, writer: str) -> None:
    tell(api, writer, "now", ("n1", "Maya", "2023-05-07T18:02:00+00:00", "The beagle puppy chewed my shoes"))
    assert recall(api, writer, "beagle puppy")["episodes"]
    assert recall(api, writer, "beagle puppy", excludeThreadId="now")["episodes"] == []
    assert recall(api, writer, "beagle puppy", episodes=False)["episodes"] == []


def test_episodes_are_the_calling_agents_own_threads_only(api: Api, writer: str) -> None:
    tell(api, writer, "s", ("m1", "Maya", "2023-05-07T18:02:00+00:00", "The beagle puppy chewed my shoes"))
    other = api.key("acme", "beta", Role.WRITER)
    stranger = api.key("globex", "alpha", Role.WRITER)
    assert recall(api, other, "beagle puppy")["episodes"] == []
    assert recall(api, stranger, "beagle puppy")["episodes"] == []


def test_given_a_question_naming_a_month_when_recalling_then_what_was_said_in_it_ranks_first(
    api: Api, writer: str
) -> None:
    tell(
        api,
        writer,
        "s1",
        ("a", "Maya", "2023-03-10T10:00:00+00:00", "We adopted a kitten from the rescue"),
        ("b", "Maya", "2023-06-12T10:00:00+00:00", "We adopted a puppy from the rescue"),
        ("c", "Maya", "2023-09-03T10:00:00+00:00", "We adopted a parrot from the rescue"),
    )
    body = recall(api, writer, "What did Maya adopt in June 2023?")
    assert body["timeWindow"]["text"] == "June 2023"
    first = body["episodes"][0]
    assert first["provenance"]["messageId"] == "b"
    assert first["parts"]["time"] == 1.0 and "time" in first["provenance"]["matchedBy"]


def test_relative_times_in_a_message_are_indexed_as_the_dates_they_meant() -> None:
    said = parse_ts("2023-05-07T18:02:00+00:00")
    m = Message("t", "u", "th", "m1", 1, MessageRole.USER, "I went to the support group yesterday", said, "a", said, 9)
    text = message_search_text(m.evolve(metadata={"speaker": "Caroline"}))
    assert text.startswith("Caroline: I went to the support group yesterday")
    assert "yesterday = 2023-05-06" in text


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did she do in June 2023?", "2023-06-01", "2023-07-01"),
        ("what happened on 7 May 2023", "2023-05-07", "2023-05-08"),
        ("what happened on May 7, 2023", "2023-05-07", "2023-05-08"),
        ("anything in March?", "2024-03-01", "2024-04-01"),
        ("what did I say last week", "2024-06-03", "2024-06-10"),
        ("what did I do yesterday", "2024-06-11", "2024-06-12"),
    ],
)
def test_time_spans_in_questions(question: str, start: str, end: str) -> None:
    window = question_window(question, parse_ts("2024-06-12T12:00:00+00:00"))
    assert window is not None
    assert (window.start.date().isoformat(), window.end.date().isoformat()) == (start, end)


def test_a_question_without_a_time_has_no_window() -> None:
    now = parse_ts("2024-06-12T12:00:00+00:00")
    assert question_window("When did Maya adopt a puppy?", now) is None
    assert question_window("May I ask what you like?", now) is None


def test_given_memories_when_searching_for_a_word_nobody_used_then_nothing_comes_back(api: Api, writer: str) -> None:
    # #17 item 9: search returned every entry at score ~0
    for key, value in (("dog_name", "Rex"), ("favorite_food", "ramen"), ("home_city", "Lisbon")):
        assert api.call("PUT", f"{USER}/memories", writer, json_body={"key": key, "value": value}).status == 200
    tell(api, writer, "s", ("m1", "Maya", "2023-05-07T18:02:00+00:00", "My dog Rex loves the beach"))
    for path in ("/memories/search", "/messages/search", "/long-term-memory/search", "/archival/search"):
        r = api.call("GET", USER + path, writer, query="q=zebra")
        assert r.status == 200, (path, r.body)
        assert r.json()["items"] == [], path
    assert recall(api, writer, "zebra")["memories"] == []
    assert recall(api, writer, "zebra")["episodes"] == []


def test_every_search_hit_says_why_it_matched(api: Api, writer: str) -> None:
    assert api.call("PUT", f"{USER}/memories", writer, json_body={"key": "dog_name", "value": "Rex"}).status == 200
    tell(api, writer, "s", ("m1", "Maya", "2023-05-07T18:02:00+00:00", "My dog Rex loves the beach"))
    for path in ("/memories/search", "/messages/search", "/long-term-memory/search"):
        items = api.call("GET", USER + path, writer, query="q=dog Rex").json()["items"]
        assert items, path
        for hit in items:
            assert hit["parts"]["total"] == pytest.approx(hit["score"]), path
            assert "bm25" in hit["matchedBy"] and hit["why"].startswith("relevant to the query"), path


def test_tier1_items_carry_their_score_parts(api: Api, writer: str) -> None:
    body = {"key": "favorite_food", "value": "ramen", "category": "preference"}
    assert api.call("PUT", f"{USER}/memories", writer, json_body=body).status == 200
    pref = recall(api, writer, "what food should I cook tonight")["tier1"]["preferences"][0]
    assert pref["tier"] == 1 and pref["parts"] is not None
    assert pref["why"].startswith("core preference") and "against the message" in pref["why"]
