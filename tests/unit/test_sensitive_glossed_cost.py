"""The reading of other languages' credential words in English (sensitive/glossed.py) on a long
text of those words: the English rules read the reading word by word, so it is read as far as
its first stretches (``_READ_MAX``), and a text of 100,000 characters of them costs what one
of 8,000 does (rv8: "密码：1 " again and again was a reading of 260,000 characters, ~5 s)."""

from __future__ import annotations

import time

import pytest
from engram.domain.sensitive import filter as sensitive_filter
from engram.domain.sensitive.glossed import _READ_MAX, glossed
from engram.domain.sensitive.prefilter import prefiltering


@pytest.mark.parametrize(
    ("unit", "length"),
    [
        ("密码：1 ", 100_000),  # 4.7 s on main (the rules 7.9 s, rv8)
        ("密码：1 ", 150_000),
        ("暗証番号 1 ", 100_000),
        ("код из смс 1 ", 100_000),
        ("ओटीपी १ २ ", 50_000),
        ("助记词 ", 100_000),  # (a recovery phrase's word: read with no value near)
        ("pass wifi 1 ", 100_000),
    ],
)
def test_a_long_text_of_glossed_words_is_read_in_bounded_time(unit: str, length: int) -> None:
    text = (unit * (length // len(unit) + 1))[:length]
    started = time.process_time()
    with prefiltering():
        sensitive_filter._in_english(text, None)
    assert time.process_time() - started < 1.5


def test_the_reading_stops_at_its_bound_without_cutting_a_value() -> None:
    text = "密码：Lantern88! " * 10_000
    read = glossed(text)
    assert read is not None
    assert len(read) < 3 * _READ_MAX
    assert read.rstrip().endswith("Lantern88!")


def test_a_value_in_the_first_stretches_of_a_long_text_is_still_found() -> None:
    text = "आपका ओटीपी ८३०२५१ है। " + "we walked the dog along the river. " * 3000
    with prefiltering():
        found = sensitive_filter._in_english(text, None)
    assert found is not None and found.rule == "secret"
