"""A long alternation searched phrase by phrase, each keyed on its own words.

``keyed`` (prefilter.py) leads a pattern from its first words only when every alternative
starts a word with a known one; some hundred death phrases in twenty languages ("ya no
funciona", "a été changé", "已经改") do not, so ``re`` tried each at each character.

``alternatives`` splits the pattern at its top-level ``|`` and keys each phrase apart. The
whole matches where one of its phrases does, so its first match is the whole's ``match`` at
the first place a phrase matches (alternatives tried in order, as ``re`` tries them);
``finditer`` searches so again from each match's end, as ``re`` does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engram.domain.sensitive.prefilter import SHORT as _SHORT
from engram.domain.sensitive.prefilter import Keyed, keyed

__all__ = ["Alternatives", "alternatives"]

_END = 2**63 - 1  # (re's own default end: the end of any text)
# A back reference or a conditional names a group of another phrase: such a pattern is not split.
_REFERS = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


class Alternatives:
    """A pattern (``whole``, keyed when it can be) and its top-level ``phrases``; a short
    text is read by the whole (cheaper than a hundred phrases each reading it)."""

    __slots__ = ("compiled", "phrases", "whole")

    def __init__(self, whole: Keyed | re.Pattern[str], phrases: tuple[Keyed | re.Pattern[str], ...]) -> None:
        self.whole, self.phrases = whole, phrases
        self.compiled = whole.compiled if isinstance(whole, Keyed) else whole

    def search(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        if len(text) < _SHORT:
            return self.compiled.search(text, pos, endpos)
        first = -1
        for phrase in self.phrases:
            m = phrase.search(text, pos, endpos)
            if m is not None and (first < 0 or m.start() < first):
                first = m.start()
        return None if first < 0 else self.compiled.match(text, first, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        # (each phrase's next match is kept until passed: each phrase reads the text once)
        if len(self.phrases) < 2 or len(text) < _SHORT:
            yield from self.whole.finditer(text, pos, endpos)
            return
        nexts = [phrase.search(text, pos, endpos) for phrase in self.phrases]
        while True:
            first = min((m.start() for m in nexts if m is not None), default=-1)
            if first < 0:
                return
            m = self.compiled.match(text, first, endpos)
            if m is None:  # (never: where a phrase matches, the whole does)
                return
            yield m
            if m.end() == first:  # (empty: re's own finditer goes on, past this same match)
                rest = self.compiled.finditer(text, first, endpos)
                next(rest)
                yield from rest
                return
            pos = m.end()
            for i, found in enumerate(nexts):
                if found is not None and found.start() < pos:
                    nexts[i] = self.phrases[i].search(text, pos, endpos)


def _keyed_or_compiled(pattern: str, flags: int) -> Keyed | re.Pattern[str]:
    try:
        return keyed(pattern, flags)
    except ValueError:  # (no word every match needs: read as re reads it)
        return re.compile(pattern, flags)


def alternatives(pattern: str, flags: int = 0) -> Alternatives:
    """``keyed(pattern, flags)``, whose ``search`` reads each top-level phrase apart."""
    whole = _keyed_or_compiled(pattern, flags)
    compiled = whole.compiled if isinstance(whole, Keyed) else whole
    phrases = split_at_bars(pattern)
    if len(phrases) < 2 or _REFERS.search(pattern):
        return Alternatives(whole, (whole,))
    # (the whole pattern's flags, inline ones too: a phrase is read as it is read in the whole)
    return Alternatives(whole, tuple(_keyed_or_compiled(p, compiled.flags) for p in phrases))


def split_at_bars(pattern: str) -> list[str]:
    """The pattern's top-level alternatives: split at each ``|`` outside brackets, a class
    and an escape."""
    parts, depth, start, i, n = [], 0, 0, 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = _class_end(pattern, i)
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


def _class_end(pattern: str, i: int) -> int:
    """Just after the class opened at ``i`` (a "]" first, or after "^", is a member)."""
    i += 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return i + 1
