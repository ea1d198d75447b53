"""Pure conversation rules: token window, redaction, rolling summary, relative times."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from engram.domain import conversation as conversation_module
from engram.domain.conversation import (
    REDACTED,
    Message,
    MessageRole,
    estimate_tokens,
    fit_window,
    redact_sensitive,
    roll_summary,
)
from engram.domain.conversation_codec import message_from_dict, message_to_dict
from engram.domain.relative_time import find_relative_times, resolve_in_text
from engram.domain.sensitive import SensitiveMatch, find_by_rules, find_sensitive
from engram.domain.sensitive import redaction as redaction_module
from engram.domain.sensitive.categories import sensitive_match
from hypothesis import example, given
from hypothesis import strategies as st

T0 = datetime(2026, 1, 15, 10, 0, tzinfo=UTC)


def msg(
    seq: int, content: str = "hello there", role: MessageRole = MessageRole.USER, tokens: int | None = None
) -> Message:
    return Message(
        "t1",
        "u1",
        "th",
        f"m{seq}",
        seq,
        role,
        content,
        T0 + timedelta(minutes=seq),
        "agent-a",
        T0,
        estimate_tokens(content) if tokens is None else tokens,
    )


class TestWindow:
    def test_last_n_takes_the_newest_and_returns_them_oldest_first(self) -> None:
        newest_first = [msg(i) for i in range(10, 0, -1)]
        w = fit_window(newest_first, last=3, token_budget=None)
        assert [m.seq for m in w.messages] == [8, 9, 10]
        assert w.truncated

    def test_a_token_budget_trims_the_oldest_first(self) -> None:
        newest_first = [msg(i, tokens=10) for i in range(5, 0, -1)]
        w = fit_window(newest_first, last=None, token_budget=25)
        assert [m.seq for m in w.messages] == [4, 5]
        assert w.tokens == 20

    @given(
        tokens=st.lists(st.integers(min_value=1, max_value=50), min_size=0, max_size=40),
        last=st.none() | st.integers(min_value=1, max_value=50),
        budget=st.none() | st.integers(min_value=1, max_value=500),
    )
    def test_both_limits_compose_whichever_bites_first(
        self, tokens: list[int], last: int | None, budget: int | None
    ) -> None:
        newest_first = [msg(len(tokens) - i, tokens=t) for i, t in enumerate(tokens)]
        w = fit_window(newest_first, last, budget)
        kept = [m.seq for m in w.messages]
        # A suffix of the conversation, in order, within both limits, and maximal.
        assert kept == sorted(kept)
        assert kept == [m.seq for m in reversed(newest_first[: len(kept)])]
        assert last is None or len(kept) <= last
        assert budget is None or w.tokens <= budget
        if len(kept) < len(newest_first):
            nxt = newest_first[len(kept)]
            assert (last is not None and len(kept) == last) or (budget is not None and w.tokens + nxt.tokens > budget)

    def test_token_estimate_grows_with_the_text(self) -> None:
        assert estimate_tokens("") == 4
        assert estimate_tokens("a" * 400) == 104


class TestRedaction:
    def test_a_card_number_alone_is_replaced(self) -> None:
        text, rules = redact_sensitive("my card is 4111 1111 1111 1111, expiring soon")
        assert text == f"my card is {REDACTED}, expiring soon"
        assert rules == ("payment_card",)

    def test_a_secret_statement_loses_its_clause_only(self) -> None:
        text, rules = redact_sensitive("I like tea. My password is hunter2. Bye")
        assert "hunter2" not in text and "I like tea." in text and "Bye" in text
        assert rules == ("secret",)

    def test_clean_text_is_untouched(self) -> None:
        assert redact_sensitive("call me at 555-1234 tomorrow") == ("call me at 555-1234 tomorrow", ())

    @pytest.mark.parametrize(
        "text", ["my ssn is 123.45.6789", "001.01.0001", "ssn: 219.09.9999. thanks", ",,. 123.45.6789"]
    )
    def test_a_number_written_with_dots_is_redacted_whole(self, text: str) -> None:
        cleaned, rules = redact_sensitive(text)
        assert rules == ("government_id",) and "[redacted]" in cleaned
        assert find_sensitive(cleaned) is None

    def test_a_number_written_with_dots_is_replaced_alone(self) -> None:
        assert redact_sensitive("my ssn is 123.45.6789, call me") == (
            "my ssn is [redacted], call me",
            ("government_id",),
        )

    @pytest.mark.parametrize("text", [",a, b", ". hi", "...", "a.b. c!", ";x\n\n,y"])
    def test_redaction_of_nothing_sensitive_keeps_every_character(self, text: str) -> None:
        assert redact_sensitive(text + " 4111 1111 1111 1111")[0] == text + " [redacted]"

    @pytest.mark.parametrize(
        ("text", "values", "kept"),
        [
            # the filter reads a card broken over lines, and ids listed after one word, as one
            ("My card number is below.\n4111 1111\n1111 1111", ["4111", "1111"], ["My card number is below.\n"]),
            (
                "NHS numbers for the kids. Tom: 943 476 5919. Sue: 943 476 5870. Pick-up at 15:30.",
                ["5919", "5870"],
                ["NHS numbers for the kids. Tom: ", ". Sue: ", ". Pick-up at 15:30."],
            ),
        ],
    )
    def test_a_value_named_in_another_sentence_is_redacted(self, text: str, values: list[str], kept: list[str]) -> None:
        assert find_sensitive(text) is not None
        cleaned, rules = redact_sensitive(text)
        assert find_sensitive(cleaned) is None and rules
        assert not any(v in cleaned for v in values)
        assert all(k in cleaned for k in kept)  # the rest of the message stays as written

    def test_a_long_message_of_short_lines_costs_one_filter_run_a_line(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # lines of digits the filter reads as one id only together (after the word naming
        # them; bare lines of "12" are no id since 18m): the search across sentences must
        # not cost a run per line and window (seconds at a few thousand lines)
        text = "passport numbers\n" + "12\n" * 400
        runs = []
        real = conversation_module.find_sensitive
        monkeypatch.setattr(conversation_module, "find_sensitive", lambda t: runs.append(t) or real(t))
        cleaned, rules = redact_sensitive(text)
        assert rules and real(cleaned) is None
        assert len(runs) <= 400 + 10

    def test_a_long_message_the_learned_stage_alone_objects_to_is_not_wiped(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # The learned stage reads a long message in windows across sentences, and everyday
        # text (90 short lines, "Set an alarm for 6:45" among them) tripped it with no sentence
        # tripping alone: the whole message became "[redacted]". Simulated here, so the test
        # does not hang on one model's weights.
        real = conversation_module.find_sensitive

        def learned(text: str) -> SensitiveMatch | None:
            return real(text) or (sensitive_match("secret") if text.count(". ") >= 3 else None)

        monkeypatch.setattr(conversation_module, "find_sensitive", learned)
        text = "We walked the dog at 6. " * 40
        cleaned, rules = redact_sensitive(text)
        assert rules and cleaned.count("We walked the dog at ") == 40

    def test_a_long_clause_the_learned_stage_alone_flags_loses_its_values_not_its_words(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # A log line of key=value pairs (no stop, comma or newline: one clause) that only the
        # learned stage flags was replaced whole: 30,000 characters became "[redacted]".
        # Simulated (the stage flags a piece holding a user's value), so the test does not hang
        # on one model's weights: the weights retrained in 21d no longer flag this line at all.
        real = conversation_module.find_sensitive

        def learned(text: str) -> SensitiveMatch | None:
            return real(text) or (sensitive_match("secret") if re.search(r"alice\d", text) else None)

        monkeypatch.setattr(conversation_module, "find_sensitive", learned)
        log = " ".join(
            f"user=alice{i} host=web{i} status=ok latency_ms={i * 3} region=eu-west-1 token_kind=bearer"
            for i in range(300)
        )
        assert find_by_rules(log) is None and learned(log) is not None  # the stage alone
        cleaned, rules = redact_sensitive(log)
        assert rules == ("secret",)
        assert cleaned.count("status=ok") == 300 and cleaned.count("token_kind=bearer") == 300
        assert cleaned.count("user=[redacted] host=[redacted]") == 300
        assert "alice" not in cleaned and "web1" not in cleaned and "eu-west-1" not in cleaned

    def test_a_short_clause_the_learned_stage_alone_flags_keeps_its_words(self) -> None:
        text = "wifi: violet-Sunshine42 and the dog is Rex"
        assert find_by_rules(text) is None and find_sensitive(text) is not None
        assert redact_sensitive(text) == ("wifi: [redacted] and the dog is Rex", ("secret",))

    @pytest.mark.parametrize(
        "text",
        [
            "my password is hunter two",  # no digit: a rule names it, the clause goes whole
            "I like tea. The wifi password is hunter two and the dog is Rex",
            " ".join(f"user=alice{i} status=ok" for i in range(200)) + " password=Kiwi!Fruit7 done",
            "wifi: violet-Sunshine42 and the dog is Rex. The router PIN is 4821.",
        ],
    )
    def test_a_secret_a_rule_finds_still_leaves_nothing(self, text: str) -> None:
        cleaned, rules = redact_sensitive(text)
        assert rules and find_sensitive(cleaned) is None
        for value in ("hunter two", "Kiwi!Fruit7", "Sunshine42", "4821"):
            assert value not in cleaned

    def test_what_the_learned_stage_alone_flags_goes_in_a_clause_of_any_length(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # Simulated so it does not hang on one model's weights: the "model" flags "zebra crossing",
        # which has no value-shaped word to remove and which no rule reads. Before, a clause
        # over 200 characters kept it while the message recorded "secret" in its redactions:
        # a redaction that did not happen. Now the run the model flags goes, whatever the
        # clause's length, and the words around it stay.
        real = redaction_module.find_sensitive

        def learned(text: str, key: str = "") -> SensitiveMatch | None:
            return real(text) or (sensitive_match("secret") if "zebra crossing" in text else None)

        monkeypatch.setattr(conversation_module, "find_sensitive", learned)
        monkeypatch.setattr(redaction_module, "find_sensitive", learned)
        short = "the code is zebra crossing and the dog is Rex"
        assert redact_sensitive(f"Hi. {short}. Bye") == (
            f"Hi. the code is {REDACTED} and the dog is Rex. Bye",
            ("secret",),
        )
        walk = "we walked the dog along the river " * 8
        assert redact_sensitive(f"the code is zebra crossing and {walk}") == (
            f"the code is {REDACTED} and {walk}",
            ("secret",),
        )

    @given(st.text(alphabet=st.sampled_from("0123456789 -abcdeis:."), max_size=80))
    @example("001.01.0001")
    def test_what_redaction_leaves_never_trips_the_filter(self, text: str) -> None:
        cleaned, _ = redact_sensitive(text)
        assert find_sensitive(cleaned) is None


class TestSummary:
    def test_turns_fold_in_and_trivia_and_redactions_stay_out(self) -> None:
        text = roll_summary(
            None,
            [msg(1, "my favorite food is pizza"), msg(2, "ok"), msg(3, f"my card is {REDACTED}")],
        )
        assert "pizza" in text and REDACTED not in text and "- user" in text
        assert len(text.splitlines()) == 1

    def test_the_oldest_lines_go_first_when_over_budget(self) -> None:
        text = roll_summary(None, [msg(i, f"I like food number {i}") for i in range(1, 50)], max_chars=300)
        assert len(text) <= 300
        assert "number 49" in text and "number 1 " not in text + " "

    def test_it_is_a_pure_function(self) -> None:
        turns = [msg(1, "I live in Oslo"), msg(2, "Nice! Oslo is lovely.", MessageRole.ASSISTANT)]
        assert roll_summary("- earlier", turns) == roll_summary("- earlier", turns)


class TestRelativeTime:
    @pytest.mark.parametrize(
        ("phrase", "expected"),
        [
            ("yesterday", date(2026, 1, 14)),
            ("tomorrow", date(2026, 1, 16)),
            ("today", date(2026, 1, 15)),
            ("the day before yesterday", date(2026, 1, 13)),
            ("3 days ago", date(2026, 1, 12)),
            ("in two weeks", date(2026, 1, 29)),
            ("next week", date(2026, 1, 19)),
            ("last week", date(2026, 1, 5)),
            ("next month", date(2026, 2, 1)),
            ("next friday", date(2026, 1, 23)),
            ("last monday", date(2026, 1, 12)),
        ],
    )
    def test_phrases_resolve_against_the_anchor(self, phrase: str, expected: date) -> None:
        (found,) = find_relative_times(f"it happens {phrase}", T0)  # T0 is a Thursday
        assert found.start == expected

    def test_text_is_rewritten_with_dates(self) -> None:
        assert resolve_in_text("went to Paris yesterday", T0)[0] == "went to Paris on 2026-01-14"


def test_a_message_survives_its_dict_form_with_its_utc_offset() -> None:
    from datetime import timezone

    m = msg(1).evolve(
        timestamp=datetime(2026, 1, 10, 0, 30, tzinfo=timezone(timedelta(hours=1))), metadata={"steps": [1]}
    )
    back = message_from_dict(message_to_dict(m))
    assert back == m and back.timestamp.utcoffset() == timedelta(hours=1)
