"""A rule's pattern tried only on a text holding a word it needs (sensitive/prefilter.py):
what it answers is what ``re`` answers, on every text; only the time differs."""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
import time
from typing import Any

import engram.domain.sensitive as sensitive_package
import pytest
from engram.domain.sensitive import find_sensitive, further_values, national_id_words
from engram.domain.sensitive.pattern_words import fold, needed_words
from engram.domain.sensitive.prefilter import Keyed, keyed, prefiltering

from tests.support import corpus_in_long_texts


def _keyed_patterns() -> dict[str, Keyed]:
    found = {}
    for info in pkgutil.iter_modules(sensitive_package.__path__):
        module = importlib.import_module(f"engram.domain.sensitive.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, Keyed):
                found[f"{info.name}.{name}"] = value
    return found


_KEYED = _keyed_patterns()


def test_rules_use_keyed_patterns() -> None:
    assert len(_KEYED) >= 10


@pytest.mark.parametrize(
    ("pattern", "flags", "words", "starts", "parts"),
    [
        # a word with no word character either side, or the start of one
        (r"(?<![\w])(?:otp|passcode)(?![\w])", re.I, {"otp", "passcode"}, (), ()),
        (r"\b(?:Password|pw)\s*[:=]", re.I, set(), ("password", "pw"), ()),
        (r"(?<![\w])(?:pin|host\s+key)(?![\w])", re.I, set(), ("host", "pin"), ()),
        # no edge before it: anywhere ("xToken"), in its case when the pattern keeps case
        (r"Token\s+\w+", 0, set(), (), ("Token",)),
        (r"(?i:Token)\s+\w+", 0, set(), (), ("token",)),
        (r"sozialversicherung|\bsvnr\b", re.I, {"svnr"}, (), ("sozialversicherung",)),
        # a lookahead's word is the text's, and a repeat needs its item once
        (r"\d+(?=\s*euro)", 0, set(), (), ("euro",)),
        (r"(?:ab){2,}c", 0, set(), (), ("ab",)),
    ],
)
def test_the_words_a_pattern_needs(pattern: str, flags: int, words: set[str], starts: Any, parts: Any) -> None:
    needs = needed_words(re.compile(pattern, flags))
    assert (set(needs.words), needs.starts, needs.parts) == (words, starts, parts)


@pytest.mark.parametrize("pattern", [r"abc|\d+", r"\d{3}-\d{4}", r"(?:password)?\s*\d+", r"a"])
def test_a_pattern_with_no_word_it_needs_is_refused(pattern: str) -> None:
    with pytest.raises(ValueError, match="no word"):
        keyed(pattern)


def test_fold_keeps_one_character_for_one() -> None:
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    assert len(fold(every)) == len(every)


def test_a_case_insensitive_word_is_found_in_every_spelling_re_matches() -> None:
    # Each character of a word a pattern needs, against every character re takes as the same
    # under IGNORECASE ("ſ" for "s", "K" (Kelvin) for "k", "İ" for "i", "ς" for "σ").
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000)
    needs = [p.needs for p in _KEYED.values() if p.needs.folded]
    letters = {c for n in needs for w in (*n.words, *n.starts, *n.parts, *n.leads) for c in w}
    letters |= set("abcdefghijklmnopqrstuvwxyzäöüßçñσ")
    for letter in sorted(letters):
        same = re.findall(re.escape(letter), every, re.IGNORECASE)
        assert {fold(c) for c in same} == {fold(letter)}, letter


def _answers(pattern: Any, text: str) -> Any:
    # (and from a few places on: a lookbehind reads the text before where the search starts)
    found = [(m.span(), m.groups()) for m in pattern.finditer(text)]
    later = [_span(pattern.search(text, pos)) for pos in (1, len(text) // 3, len(text) // 2)]
    return found, later, _span(pattern.search(text, 0, len(text) // 2))


def _span(m: re.Match[str] | None) -> Any:
    return None if m is None else (m.span(), m.groups())


def _answers_as_re(name: str) -> None:
    pattern = _KEYED[name]
    for text in corpus_in_long_texts():
        for variant in (text, text.upper()) if pattern.needs.folded else (text,):
            with prefiltering():
                got = _found(pattern, variant)
            assert got == _found(pattern.compiled, variant), (name, variant[:80])


# Every keyed pattern over the whole corpus (minutes), in four classes: a class is a unit of
# the suite's scheduler (tests/conftest.py: loadscope), so the four shares can run on four
# workers; as one module's cases they all ran on one worker, one after another.
_NAMES = sorted(_KEYED)


@pytest.mark.slow
class TestKeyedPatternsOnTheCorpusFirstShare:
    @pytest.mark.parametrize("name", _NAMES[0::4])
    def test_keyed_patterns_answer_as_re_on_every_corpus_text(self, name: str) -> None:
        _answers_as_re(name)


@pytest.mark.slow
class TestKeyedPatternsOnTheCorpusSecondShare:
    @pytest.mark.parametrize("name", _NAMES[1::4])
    def test_keyed_patterns_answer_as_re_on_every_corpus_text(self, name: str) -> None:
        _answers_as_re(name)


@pytest.mark.slow
class TestKeyedPatternsOnTheCorpusThirdShare:
    @pytest.mark.parametrize("name", _NAMES[2::4])
    def test_keyed_patterns_answer_as_re_on_every_corpus_text(self, name: str) -> None:
        _answers_as_re(name)


@pytest.mark.slow
class TestKeyedPatternsOnTheCorpusFourthShare:
    @pytest.mark.parametrize("name", _NAMES[3::4])
    def test_keyed_patterns_answer_as_re_on_every_corpus_text(self, name: str) -> None:
        _answers_as_re(name)


def _found(pattern: Any, text: str) -> Any:
    return [(m.span(), m.groups()) for m in pattern.finditer(text)], _span(pattern.search(text, len(text) // 2))


def test_a_keyed_pattern_answers_as_re_where_its_word_is_written_otherwise() -> None:
    filler = "we walked the dog along the river and met Sam. " * 8
    for text in ("SVNR 12 150780 J 123", "ſozialverſicherung 12 150780 J 123", "Rentenversicherung: 12 150780 J 123"):
        long = filler + text
        with prefiltering():
            assert national_id_words._RVNR_WORD.search(long) is not None
        assert national_id_words._RVNR_WORD.compiled.search(long) is not None


class _Counting:
    def __init__(self, compiled: re.Pattern[str]) -> None:
        self.compiled, self.calls = compiled, 0

    def __getattr__(self, name: str) -> Any:
        self.calls += 1
        return getattr(self.compiled, name)


def test_a_long_text_without_the_words_is_not_read_by_the_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _Counting(national_id_words._RVNR_WORD.compiled)
    monkeypatch.setattr(national_id_words._RVNR_WORD, "compiled", counting)
    ordinary = "We walked the dog along the river at 7 and met Sam, who has 2 cats and a garden. " * 120
    assert find_sensitive(ordinary) is None
    assert counting.calls == 0
    assert find_sensitive(ordinary + " Sozialversicherungsnummer 12 150780 J 123") is not None
    assert counting.calls > 0


def test_a_pattern_led_by_its_words_is_tried_only_where_they_start_a_word() -> None:
    pattern = keyed(r"(?<![\w])(?:pin|host\s+key)(?![\w])\s*:?\s*(\d{4})", re.IGNORECASE)
    assert pattern.needs.leads == ("host", "pin")
    filler = "we walked the dog along the river and met Sam at 1230. " * 6
    for text in (
        filler + "PIN: 4471 and spin 9911, pin 2290",  # "spin" holds "pin", not at a word's start
        filler + "xpin 1111 _pin 2222 HOST  KEY 3333 ſpin",
        "pin 5555 " + filler + "Pin:6666",
    ):
        with prefiltering():
            got = _answers(pattern, text)
        assert got == _answers(pattern.compiled, text)
        assert got[0]


def test_a_pure_check_is_asked_once_a_run_for_the_same_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # 96,000 characters of "the password is" asked value_further_on for each password word
    # (6,000 a filter run, each reading the words after it); the same words are asked once.
    asked: list[tuple[str, ...]] = []
    real = further_values._value_further_on

    def counting(words: list[str], before: str) -> bool:
        asked.append(tuple(words))
        return real(words, before)

    monkeypatch.setattr(further_values, "_value_further_on", counting)
    text = "the password is " * 300
    assert find_sensitive(text) == find_sensitive(text)
    assert 0 < len(asked) <= 2 * len(set(asked)) <= 20


def test_a_search_from_each_match_onwards_reads_in_linear_time() -> None:
    # A rule that asks again from where its last match ended (``search(text, pos)``) used to
    # walk the word's places from the text's start on every call: quadratic in the matches
    # (rv7). Where the places are now found by bisection, 30,000 calls stay well under a second.
    pattern = keyed(r"(?<![\w])pin(?![\w])\s*(\d)", re.IGNORECASE)
    assert pattern.needs.leads == ("pin",)
    text = "pin 1 " * 30000
    found, pos = 0, 0
    started = time.process_time()
    with prefiltering():
        while (m := pattern.search(text, pos)) is not None:
            found, pos = found + 1, m.end()
    assert time.process_time() - started < 1.0
    assert found == 30000
