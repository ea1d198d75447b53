"""A long alternation searched phrase by phrase (sensitive/alternatives.py): what it answers is
what ``re`` answers for the whole pattern, on every text; only the time differs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from engram.domain.sensitive import dead_values
from engram.domain.sensitive.alternatives import alternatives, split_at_bars
from engram.domain.sensitive.prefilter import prefiltering

from bench.sensitive_corpus import PARTS, load
from bench.sensitive_holdout import benign_corpus


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


@pytest.mark.parametrize(
    "text",
    [
        _FILLER + "the old code 0052 won't work anymore, it has been changed",
        _FILLER + "PIN was 1234, we changed it; ya no funciona",
        "已经改了 " + _FILLER + "does not work",
        _FILLER + "is changed to 5 and then was replaced",  # ("is changed to" is no death; "was replaced" is)
        _FILLER,
        "short: was replaced",
    ],
)
def test_the_death_words_answer_as_the_whole_pattern(text: str) -> None:
    searched = dead_values._DEATH_SAID
    assert len(searched.phrases) > 50
    for variant in (text, text.upper()):
        for pos, end in ((0, len(variant)), (3, len(variant) - 2), (len(variant) // 2, len(variant))):
            with prefiltering():
                got = _span(searched.search(variant, pos, end))
            assert got == _span(dead_values._DEAD.compiled.search(variant, pos, end)), (variant[-60:], pos)


def test_earlier_phrases_win_where_two_start_at_one_place() -> None:
    # (the whole pattern tries its alternatives in order at the first place one matches)
    searched = alternatives(r"ab\w*|a\w+c|x", re.IGNORECASE)
    for text in ("zz abbbc", "zz axxc ab", _FILLER + "ABC x"):
        with prefiltering():
            assert _span(searched.search(text)) == _span(searched.compiled.search(text))


def test_a_pattern_whose_phrases_refer_to_each_other_is_not_split() -> None:
    assert len(alternatives(r"(a)x|\1y").phrases) == 1
    assert len(alternatives(r"(?P<n>a)x|(?P=n)y").phrases) == 1


# In four shares, so that the suite's workers share it (a minute over the whole corpus in CI).
@pytest.mark.slow
@pytest.mark.parametrize("share", range(4))
def test_the_death_words_answer_as_re_on_every_corpus_text(share: int) -> None:
    rows = [t for source in benign_corpus().values() for _, t in source]
    rows += [s.text for paths in PARTS.values() for s in load(paths)]
    texts = rows + ["\n".join(rows[i : i + 40]) for i in range(0, len(rows), 40)]
    for text in texts[share::4]:
        with prefiltering():
            got = _span(dead_values._DEATH_SAID.search(text))
        assert got == _span(dead_values._DEAD.compiled.search(text)), text[:80]
