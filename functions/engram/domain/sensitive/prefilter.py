"""A rule's pattern tried only on a text holding one of the words it needs.

The filter runs on every stored message, and most of its cost on a long one was patterns
read over the whole text from every position: ``re`` has no fast start for an alternation
of words under IGNORECASE ("(?:password|passwort|contraseña|...)"), so it tries each of them
at each character. ``keyed(pattern, flags)`` compiles a pattern as ``re.compile`` does and
works out, from its parse, the words one of which every match must hold (a literal run of
each alternative, the longest there is); a long text holding none of them is answered
without the pattern ("no match"), one that holds one is read by the pattern as before.
What a pattern finds is the same either way: the words are only what it cannot match
without.

A case-insensitive pattern's words are looked for in the text as ``fold`` writes it (lower
case, and the letters ``re`` takes as the same letter written as one: "ſ" is "s", "ı" is
"i"), so a word is never missed for its case. Each text is folded once while the filter
reads it (``prefiltering()``, entered by the filter's entry points), and each pattern's
answer for a text is remembered there too (a loop calling ``.match(text, pos)`` asks once);
nothing outlives the block.

A new rule plugs in by writing ``keyed(r"...", re.IGNORECASE)`` where it would write
``re.compile``: ``keyed`` refuses (ValueError, at import) a pattern with no word it needs,
and the pattern is then compiled with ``re.compile`` as before (a shape of digits has no
word). Words that occur in most text ("for", "with", "code") keep no text from the pattern;
the pattern then costs what it did, plus a few microseconds.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from engram.domain.sensitive.pattern_words import Needs, fold, is_word_char, needed_words

__all__ = ["SHORT", "Keyed", "answered_once", "keyed", "prefiltering"]

# A text shorter than this is read by the pattern straight away (looking for the words would
# cost about as much).
SHORT = 256
_END = 2**63 - 1  # (re's own default end: the end of any text)


class _Read:
    """What is known of one text while the filter reads it: its fold, where each word looked
    for starts a word of it, and each pattern's answers."""

    __slots__ = ("_folded", "_places", "answers", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: str | None = None
        self._places: dict[tuple[str, bool], list[int]] = {}
        self.answers: dict[int, bool] = {}
        self.starts: dict[int, list[int]] = {}

    def folded(self) -> str:
        if self._folded is None:
            self._folded = fold(self.text)
        return self._folded

    def places(self, word: str, folded: bool) -> list[int]:
        """Where ``word`` starts a word of the text (no word character before it), in order.
        (Word characters are read in the text as written, as ``re`` reads them: folding keeps
        each one a word character but "\u0345", which no word of ``pattern_words`` holds.)"""
        found = self._places.get((word, folded))
        if found is None:
            text, seen = self.text, (self.folded() if folded else self.text)
            found = self._places[(word, folded)] = []
            at = seen.find(word)
            while at >= 0:
                if at == 0 or not is_word_char(text[at - 1]):
                    found.append(at)
                at = seen.find(word, at + 1)
        return found

    def is_word(self, word: str, folded: bool) -> bool:
        """``word`` is a word of the text (no word character on either side)."""
        text = self.text
        return any(
            at + len(word) >= len(text) or not is_word_char(text[at + len(word)]) for at in self.places(word, folded)
        )


_READING: ContextVar[dict[str, _Read] | None] = ContextVar("engram_sensitive_prefilter", default=None)


_ANSWERS: ContextVar[dict[tuple[str, Hashable], bool] | None] = ContextVar("engram_sensitive_run_answers", default=None)


@contextmanager
def prefiltering() -> Iterator[None]:
    """Remember what is known of each text until the outermost block ends."""
    if _READING.get() is not None:
        yield
        return
    token, answers = _READING.set({}), _ANSWERS.set({})
    try:
        yield
    finally:
        _ANSWERS.reset(answers)
        _READING.reset(token)


def answered_once(name: str, key: Hashable, check: Callable[[], bool]) -> bool:
    """``check()``, asked once per filter run for the same ``name`` and ``key`` (a pure
    check of what ``key`` holds): a long text of the same clause again and again asks it
    for each clause. Outside a run, asked every time."""
    answers = _ANSWERS.get()
    if answers is None:
        return check()
    found = answers.get((name, key))
    if found is None:
        found = answers[(name, key)] = check()
    return found


def _read(text: str) -> _Read:
    reading = _READING.get()
    if reading is None:
        return _Read(text)
    read = reading.get(text)
    if read is None:
        read = reading[text] = _Read(text)
    return read


class Keyed:
    """A compiled pattern and what its matches need (``pattern_words.Needs``): its methods
    answer as ``re.Pattern``'s. When every match starts with one of ``leads`` at a word's
    start, ``search`` and ``finditer`` try the pattern only where a word so starting is."""

    __slots__ = ("compiled", "needs", "pattern")

    def __init__(self, compiled: re.Pattern[str], needs: Needs) -> None:
        self.compiled, self.needs = compiled, needs
        self.pattern = compiled.pattern

    def may_match(self, text: str) -> bool:
        """False when ``text`` holds none of what a match needs."""
        if len(text) < SHORT:
            return True
        read = _read(text)
        answer = read.answers.get(id(self))
        if answer is None:
            answer = read.answers[id(self)] = self._holds(read)
        return answer

    def _holds(self, read: _Read) -> bool:
        needs, folded = self.needs, self.needs.folded
        if any(read.is_word(word, folded) for word in needs.words):
            return True
        if any(read.places(start, folded) for start in needs.starts):
            return True
        seen = read.folded() if folded else read.text
        return any(part in seen for part in needs.parts)

    def _starting(self, read: _Read, starts: tuple[str, ...]) -> list[int]:
        """Where the text's words starting with one of ``starts`` start, in order."""
        return sorted({at for start in starts for at in read.places(start, self.needs.folded)})

    def _led(self, text: str, pos: int, endpos: int) -> Iterator[re.Match[str]]:
        """``finditer``, the pattern tried only where a word it starts with starts (a match
        anywhere else would start with no such word). Each try is ``match`` at that place,
        which is what a search reaching it tries; lookbehinds see the text before it."""
        read = _read(text)
        starts = read.starts.get(id(self))
        if starts is None:
            starts = read.starts[id(self)] = self._starting(read, self.needs.leads)
        # The first place at or after ``pos`` is found by bisection: a rule asking again from
        # its last match's end would otherwise walk every earlier place on every call.
        end = pos
        for i in range(bisect_left(starts, pos), len(starts)):
            at = starts[i]
            if at > endpos:
                return  # (no match starts past the end)
            if at < end:
                continue
            m = self.compiled.match(text, at, endpos)
            if m is not None:
                yield m
                end = m.end()

    def _leads_here(self, text: str) -> bool:
        return bool(self.needs.leads) and len(text) >= SHORT

    def search(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        if not self.may_match(text):
            return None
        if self._leads_here(text):
            return next(self._led(text, pos, endpos), None)
        return self.compiled.search(text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = _END) -> Iterator[re.Match[str]]:
        if not self.may_match(text):
            return iter(())
        if self._leads_here(text):
            return self._led(text, pos, endpos)
        return self.compiled.finditer(text, pos, endpos)

    def match(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compiled.match(text, pos, endpos) if self.may_match(text) else None

    def fullmatch(self, text: str, pos: int = 0, endpos: int = _END) -> re.Match[str] | None:
        return self.compiled.fullmatch(text, pos, endpos) if self.may_match(text) else None

    def findall(self, text: str, pos: int = 0, endpos: int = _END) -> list[Any]:
        return self.compiled.findall(text, pos, endpos) if self.may_match(text) else []

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count) if self.may_match(text) else text


def keyed(pattern: str, flags: int = 0) -> Keyed:
    """``re.compile(pattern, flags)``, tried only on a text holding a word it needs."""
    compiled = re.compile(pattern, flags)
    needs = needed_words(compiled)
    if needs.shortest() < 2:
        raise ValueError(f"no word of two characters or more that every match needs: {pattern[:80]!r}")
    return Keyed(compiled, needs)
