"""The learned stage as retrained in session 22e (M1-M4 in its training parts, and hand-written
families of counts and tallies and of talk about a secret with no value in it,
bench/sensitive_train_talk.py): a count of votes or people is no code.

21d's weights refused a tally ("the votes were 4471 to 2291, with 3380 abstaining", 2.44: a
four-digit number leans to "code" everywhere since K and L's many door and backup codes) and a
head count written in Urdu (1.76). The cases here are not in the trainer's families (other
words, other layouts); the rules pass all of them, so these say what the model learned, not
what a rule decides. The guards are the same shapes named as codes, which must still be refused.
"""

from __future__ import annotations

import pytest
from engram.domain.sensitive import find_by_rules, find_sensitive


@pytest.mark.parametrize(
    "text",
    [
        # seen red on main (21d's weights, 4586093): refused as secret (2.44 and 1.76)
        "the votes were 4471 to 2291, with 3380 abstaining",
        "جلسے میں 4471 لوگ آئے اور 2291 نے ووٹ دیا",
    ],
)
def test_a_count_of_people_or_votes_is_no_code(text: str) -> None:
    assert find_by_rules(text) is None  # the model's own verdict, not a rule's
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "the club has 2340 members and 1190 of them voted",
        "job finished: 48213 rows read, 4471 written, 2291 rejected",
        "সভায় 2291 জন উপস্থিত ছিলেন, ভোট দিয়েছেন 1840 জন",
        "Hey, the keysafe combo was changed this morning, text me when you land and I'll share it",
        "ওয়াইফাই পাসওয়ার্ড বদলেছি, এসে জিজ্ঞেস করো",
    ],
)
def test_counts_and_talk_without_a_value_still_pass(text: str) -> None:
    assert find_sensitive(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "The keysafe combo is now 4471",
        "kody do skrytek: 4471, 2291, 3380",
        "ogni appartamento ha il suo codice: 1A 4471, 2B 2291, 3C 3380",
    ],
)
def test_the_same_numbers_named_as_codes_are_refused_by_the_model(text: str) -> None:
    assert find_by_rules(text) is None
    found = find_sensitive(text)
    assert found is not None and found.rule == "secret"
