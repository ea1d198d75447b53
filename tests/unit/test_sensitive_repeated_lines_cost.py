"""Long texts of one line again and again (a form pasted many times, a log): each rule asks
what it needs of the whole text once, not once per line (tests/unit/test_sensitive_cost.py
checks the rest of the filter's cost; these are the cases found quadratic)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from engram.domain.sensitive import bank_account_forms, find_sensitive, passwords_other_languages
from engram.domain.sensitive.categories import folded_words
from engram.domain.sensitive.prefilter import keyed, prefiltering


class _Counting:
    def __init__(self, pattern: Any) -> None:
        self.pattern, self.calls = pattern, 0

    def __getattr__(self, name: str) -> Any:
        self.calls += 1
        return getattr(self.pattern, name)


def _repeated(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


_FORM_LINES = ["Routing: 021000021\nAccount: x\n", "Routing: 011000015\nAccount: n/a\n"]


@pytest.mark.parametrize("unit", _FORM_LINES)
def test_a_form_pasted_many_times_is_read_for_its_withheld_account_once(
    unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (each "Routing:" field asked whether the account was withheld, reading the whole text:
    # 667 readings of 20,000 characters, 2 s idle and 6.9 s under load)
    counting = _Counting(bank_account_forms._WITHHELD)
    monkeypatch.setattr(bank_account_forms, "_WITHHELD", counting)
    assert find_sensitive(_repeated(unit, 20_000)) is None
    assert counting.calls <= 3


@pytest.mark.parametrize("unit", [*_FORM_LINES, "Routing: 011000015\nAccount: 12345678\n"])
def test_a_form_pasted_many_times_is_read_in_bounded_time(unit: str) -> None:
    text = _repeated(unit, 40_000)
    started = time.process_time()
    find_sensitive(text)
    assert time.process_time() - started < 3.0  # (7 s idle before)


def test_the_account_withheld_beside_a_routing_number_is_still_read_so() -> None:
    # (the answer is remembered, not changed: a branch code alone is no account)
    assert find_sensitive("Routing: 074000023  Account: [illegible]") is None
    found = find_sensitive("Routing: 074000023\nAccount: 48213399")
    assert found is not None and found.rule == "bank_account"


def test_the_clause_before_a_password_word_is_read_once_for_each_place(monkeypatch: pytest.MonkeyPatch) -> None:
    # (密码 is a word of two of the rule's patterns: its clause was read twice)
    read: list[int] = []
    real = passwords_other_languages.value_opening_clause

    def reading(text: str, start: int, *args: Any, **kwargs: Any) -> Any:
        read.append(start)
        return real(text, start, *args, **kwargs)

    monkeypatch.setattr(passwords_other_languages, "value_opening_clause", reading)
    text = _repeated("密码：1 ", 600)
    assert not passwords_other_languages.password_before_its_word(text, folded_words(text))
    assert read and len(read) == len(set(read))
    assert passwords_other_languages.password_before_its_word("Osaka#2019 は私のパスワードです", frozenset())


def test_a_keyed_search_in_a_window_walks_no_place_past_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # (a death said within 90 characters of a value, dead_values.py: each window's search
    # tried the pattern at every place of its word to the end of the text)
    pattern = keyed(r"\bpassword\s+\w+", re.IGNORECASE)
    text = "password one, " + "the password was kept. " * 2000
    counting = _Counting(pattern.compiled)
    monkeypatch.setattr(pattern, "compiled", counting)
    with prefiltering():
        assert pattern.search(text, 20, 30) is None
        found = pattern.search(text, 20, 120)
    assert found is not None and found.group() == "password was"
    assert counting.calls <= 5  # (2,000 tries before)
    assert counting.pattern.search(text, 20, 30) is None
