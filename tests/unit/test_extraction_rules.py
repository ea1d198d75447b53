"""Rule-based extraction (behaviour item 14): Mona's patterns, made safe."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from engram.domain.extraction import Extraction, is_trivial
from engram.domain.extraction_rules import extract_facts

AT = datetime(2026, 1, 10, 9, 0, tzinfo=UTC)


def facts(text: str, at: datetime = AT) -> dict[str, tuple[str, str, float]]:
    return {f.key: (f.value, f.category, f.confidence) for f in extract_facts(text, at).facts}


class TestPatterns:
    @pytest.mark.parametrize(
        ("text", "key", "value", "category", "confidence"),
        [
            ("my name is Alice", "name", "Alice", "fact", 0.9),
            ("My name's bob", "name", "Bob", "fact", 0.9),
            ("my favorite food is pizza", "favorite_food", "pizza", "preference", 0.8),
            ("My favourite colour is deep blue.", "favorite_colour", "deep blue", "preference", 0.8),
            ("I like pizza", "likes:pizza", "pizza", "preference", 0.7),
            ("I really love the beach", "likes:beach", "the beach", "preference", 0.7),
            ("I don't like olives", "dislikes:olives", "olives", "preference", 0.7),
            ("I'm feeling tired", "feeling", "tired", "feeling", 0.5),
            ("I am so stressed right now", "feeling", "stressed", "feeling", 0.5),
            ("I just got back from work", "event:got_back_from", "I just got back from work", "event", 0.6),
            ("I live in Berlin, it's lovely", "location", "Berlin", "fact", 0.8),
            ("I work at Acme Corp", "employer", "Acme Corp", "fact", 0.8),
            ("I'm allergic to peanuts", "allergy:peanuts", "peanuts", "fact", 0.8),
            ("my dog is a beagle", "dog", "a beagle", "fact", 0.6),
        ],
    )
    def test_given_an_owned_statement_when_extracted_then_the_pattern_sets_key_value_and_confidence(
        self, text: str, key: str, value: str, category: str, confidence: float
    ) -> None:
        assert facts(text)[key] == (value, category, confidence)

    def test_confidences_stay_within_mona_range(self) -> None:
        text = (
            "My name is Alice. My favorite food is pizza. I like jazz. I'm feeling tired. I went to Rome. "
            "I live in Oslo. My car is a Volvo."
        )
        found = extract_facts(text, AT).facts
        assert len(found) == 7
        assert all(0.5 <= f.confidence <= 0.9 for f in found)

    def test_given_two_facts_in_one_sentence_then_both_are_taken(self) -> None:
        assert set(facts("my name is alice and I like pizza")) == {"name", "likes:pizza"}

    def test_filler_before_a_statement_is_ignored(self) -> None:
        assert facts("actually my favorite food is ramen")["favorite_food"][0] == "ramen"


class TestFilters:
    @pytest.mark.parametrize("text", ["ok", "Thanks!", "wkwk", "lol", "thank you", "👍", "ok thanks", "hahaha"])
    def test_trivial_messages_are_skipped_whole(self, text: str) -> None:
        assert is_trivial(text)
        assert extract_facts(text, AT) == Extraction(skipped="trivial")

    @pytest.mark.parametrize(
        ("text", "reason"),
        [
            ("maybe I like sushi?", "question"),
            ("Do you think I like sushi", "question"),
            ("I might like sushi", "uncertain"),
            ("If I lived in Paris I would love it", "uncertain"),
            ("I'm thinking about moving to Lisbon", "uncertain"),
            ("I wish I had a dog", "uncertain"),
            ("Pizza is great", "not_owned"),
        ],
    )
    def test_questions_uncertainty_hypotheticals_and_unowned_statements_are_dropped_and_counted(
        self, text: str, reason: str
    ) -> None:
        got = extract_facts(text, AT)
        assert got.facts == []
        assert got.dropped == {reason: 1}

    @pytest.mark.parametrize(
        "text",
        [
            "my card is 4111 1111 1111 1111",
            "my password is hunter2",
            "my ssn is 123-45-6789",
            "my card is [redacted]",
        ],
    )
    def test_sensitive_data_is_dropped_and_counted(self, text: str) -> None:
        got = extract_facts(text, AT)
        assert got.facts == []
        assert got.dropped == {"sensitive": 1}

    def test_a_sensitive_sentence_does_not_take_the_rest_of_the_message_down(self) -> None:
        got = extract_facts("My card is 4111 1111 1111 1111. I like tea.", AT)
        assert [f.key for f in got.facts] == ["likes:tea"]
        assert got.dropped == {"sensitive": 1}

    def test_ordinary_numbers_are_not_sensitive(self) -> None:
        assert facts("my phone model is 4111")["phone_model"][0] == "4111"


class TestIdentity:
    def test_names_and_the_agents_name_are_recognised(self) -> None:
        assert extract_facts("my name is Alice", AT).identity.name == "Alice"
        assert extract_facts("please call me Ali", AT).identity.nickname == "Ali"
        assert extract_facts("I'll call you Jarvis", AT).identity.agent_name == "Jarvis"
        assert extract_facts("your name is Friday", AT).identity.agent_name == "Friday"

    @pytest.mark.parametrize("text", ["I'll call you tomorrow", "call me later", "I'll call you back"])
    def test_calling_someone_is_not_naming_them(self, text: str) -> None:
        got = extract_facts(text, AT)
        assert got.identity.fields() == ()
        assert got.facts == []


class TestRelativeTimes:
    def test_yesterday_resolves_against_the_message_time_not_processing_time(self) -> None:
        sent = datetime(2026, 1, 10, 22, 0, tzinfo=UTC)
        (fact,) = extract_facts("Yesterday I went to Paris.", sent).facts
        assert fact.valid_from is not None and fact.valid_from.date() == date(2026, 1, 9)
        assert "2026-01-09" in fact.value

    def test_the_users_own_day_counts(self) -> None:
        # 00:30 in Berlin is still the previous day in UTC: "yesterday" is Berlin's.
        sent = datetime(2026, 1, 10, 0, 30, tzinfo=timezone(timedelta(hours=1)))
        (fact,) = extract_facts("I went to the dentist yesterday", sent).facts
        assert fact.valid_from is not None and fact.valid_from.date() == date(2026, 1, 9)

    def test_next_week_is_the_week_after_the_message(self) -> None:
        (fact,) = extract_facts("I have a job interview next week", AT).facts
        assert fact.valid_from is not None and fact.valid_from.date() == date(2026, 1, 12)
        assert fact.category == "event"

    def test_a_feeling_keeps_no_date_in_its_value(self) -> None:
        assert facts("I'm so tired today")["feeling"][0] == "tired"
