"""A long alternation searched phrase by phrase (sensitive/alternatives.py): what it answers is
what ``re`` answers for the whole pattern, on every text; only the time differs."""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any

import engram.domain.sensitive as sensitive_package
import pytest
from engram.domain.sensitive import dead_values
from engram.domain.sensitive.alternatives import Alternatives, alternatives, split_at_bars
from engram.domain.sensitive.prefilter import prefiltering

from tests.support import corpus_in_long_texts


@pytest.mark.parametrize(
    ("pattern", "phrases"),
    [
        (r"a|b", ["a", "b"]),
        (r"(?:a|b)c|d", ["(?:a|b)c", "d"]),
        (r"[|]x|\|y|[^]|]z", ["[|]x", r"\|y", "[^]|]z"]),
        (r"[\]|]a|b", [r"[\]|]a", "b"]),
        (r"abc", ["abc"]),
    ],
)
def test_a_pattern_is_split_at_its_top_level_bars_only(pattern: str, phrases: list[str]) -> None:
    assert split_at_bars(pattern) == phrases


def _span(m: re.Match[str] | None) -> Any:
    return None if m is None else (m.span(), m.group(), m.groups())


_FILLER = "we walked the dog along the river and met Sam at 1230, who was late. " * 6


_CASES = [
    _FILLER + "the old code 0052 won't work anymore, it has been changed",
    _FILLER + "PIN was 1234, we changed it; ya no funciona",
    "已经改了 " + _FILLER + "does not work",
    _FILLER + "is changed to 5 and then was replaced",  # ("is changed to" is no death; "was replaced" is)
    _FILLER + "was replaced, was replaced; was changed was changed. no longer works " * 4,
    _FILLER,
    "short: was replaced, ya no funciona, changed it",
]


def _finds(pattern: Any, text: str, pos: int = 0, end: int = 2**63 - 1) -> Any:
    return [_span(m) for m in pattern.finditer(text, pos, end)]


@pytest.mark.parametrize("text", _CASES)
def test_the_death_words_answer_as_the_whole_pattern(text: str) -> None:
    searched = dead_values._DEAD
    assert len(searched.phrases) > 50
    for variant in (text, text.upper()):
        for pos, end in ((0, len(variant)), (3, len(variant) - 2), (len(variant) // 2, len(variant)), (0, 40)):
            with prefiltering():
                got = _span(searched.search(variant, pos, end)), _finds(searched, variant, pos, end)
            assert got == (
                _span(searched.compiled.search(variant, pos, end)),
                _finds(searched.compiled, variant, pos, end),
            )


def test_earlier_phrases_win_where_two_start_at_one_place() -> None:
    # (the whole pattern tries its alternatives in order at the first place one matches)
    searched = alternatives(r"ab\w*|a\w+c|x", re.IGNORECASE)
    for text in ("zz abbbc", "zz axxc ab", _FILLER + "ABC x", _FILLER + "abxc axc x abc " * 5):
        with prefiltering():
            assert _span(searched.search(text)) == _span(searched.compiled.search(text))
            assert _finds(searched, text) == _finds(searched.compiled, text)


@pytest.mark.parametrize("pattern", [r"(?<=a)|b\w*", r"x*|\bk", r"\b(?:go|stop)\b|(?=z)"])
def test_a_pattern_matching_nothing_finds_as_re_finds(pattern: str) -> None:
    # (re's own rule after an empty match: the next may not be empty at the same place)
    searched = alternatives(pattern)
    for text in (_FILLER + "ab bbx go stop z kz", "ab bbx go stop z"):
        with prefiltering():
            assert _finds(searched, text) == _finds(searched.compiled, text)
            assert _finds(searched, text, 5, len(text) - 3) == _finds(searched.compiled, text, 5, len(text) - 3)


def test_a_pattern_whose_phrases_refer_to_each_other_is_not_split() -> None:
    assert len(alternatives(r"(a)x|\1y").phrases) == 1
    assert len(alternatives(r"(?P<n>a)x|(?P=n)y").phrases) == 1


def _alternatives() -> dict[str, Alternatives]:
    found = {}
    for info in pkgutil.iter_modules(sensitive_package.__path__):
        module = importlib.import_module(f"engram.domain.sensitive.{info.name}")
        found |= {f"{info.name}.{k}": v for k, v in vars(module).items() if isinstance(v, Alternatives)}
    return found


_ALTERNATIVES = _alternatives()


def _answers(pattern: Any, text: str) -> Any:
    third = len(text) // 3
    return (
        _finds(pattern, text),
        _span(pattern.search(text, len(text) // 2)),
        _span(pattern.search(text, third, third + 90)),
    )


def _answers_as_re(share: int) -> None:
    for name, searched in sorted(_ALTERNATIVES.items()):
        for text in corpus_in_long_texts()[share::4]:
            for variant in (text, text.upper()):
                with prefiltering():
                    got = _answers(searched, variant)
                assert got == _answers(searched.compiled, variant), (name, variant[:80])


# Every phrase-searched pattern over the whole corpus's long texts, in four classes: a class
# is a unit of the suite's scheduler (tests/conftest.py: loadscope), so the four shares can
# run on four workers (the death words were the keyed check's slowest case: 138 s in one CI
# worker, as a keyed pattern).
@pytest.mark.slow
class TestPhrasesOnTheCorpusFirstShare:
    def test_phrase_searched_patterns_answer_as_re_on_every_corpus_text(self) -> None:
        _answers_as_re(0)


@pytest.mark.slow
class TestPhrasesOnTheCorpusSecondShare:
    def test_phrase_searched_patterns_answer_as_re_on_every_corpus_text(self) -> None:
        _answers_as_re(1)


@pytest.mark.slow
class TestPhrasesOnTheCorpusThirdShare:
    def test_phrase_searched_patterns_answer_as_re_on_every_corpus_text(self) -> None:
        _answers_as_re(2)


@pytest.mark.slow
class TestPhrasesOnTheCorpusFourthShare:
    def test_phrase_searched_patterns_answer_as_re_on_every_corpus_text(self) -> None:
        _answers_as_re(3)
