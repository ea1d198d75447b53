"""What every match of a pattern needs, worked out from ``re``'s own parse: the words one
of which it must hold, and the words it must start with (``prefilter.py`` tries a pattern
only on a text holding them, and only where they start).

A run of literal characters is what a match holds wherever the pattern has one: a literal,
an alternation of literals (one of them), a repeat of one at least once, a lookahead's
(the text holds it). Of the runs every match needs one of, the most telling set is kept:
words at a word's edge (looked up among the text's words), then the longest shortest run.
What no run can be said of (a class, a back reference, a repeat that may be absent) gives
nothing, and a pattern made only of those has no needs: ``keyed`` refuses it.
"""

from __future__ import annotations

import importlib
import re
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import product
from typing import Any

__all__ = ["Needs", "fold", "is_word_char", "needed_words"]

# re's own parser (the one re.compile uses): a pattern's literals, alternatives and repeats.
_parser: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

# How many runs one pattern's alternatives may give before a run of literals is cut.
_MAX_WORDS = 64


# Letters ``re`` matches as one under IGNORECASE that ``str.lower`` leaves apart (re's
# ``_equivalences``), and "İ", whose ``lower()`` is two characters ("i" and a dot above).
# tests/unit/test_sensitive_prefilter.py checks every character against re itself.
_EQUIVALENT = (
    "iı",
    "sſ",
    "\u00b5\u03bc",
    "\u03b9\u0345\u1fbe",
    "\u0390\u1fd3",
    "\u03b0\u1fe3",
    "\u03b2\u03d0",
    "\u03b5\u03f5",
    "\u03b8\u03d1",
    "\u03ba\u03f0",
    "\u03c0\u03d6",
    "\u03c1\u03f1",
    "\u03c3\u03c2",
    "\u03c6\u03d5",
    "\u1e61\u1e9b",
    "\ufb05\ufb06",
    # Cyrillic's old letter shapes (U+1C80-U+1C87), which re takes as в, д, о, с, т, ъ, ѣ
    "\u0432\u1c80",
    "\u0434\u1c81",
    "\u043e\u1c82",
    "\u0441\u1c83",
    "\u0442\u1c84\u1c85",
    "\u044a\u1c86",
    "\u0463\u1c87",
)
_BEFORE_LOWER = str.maketrans({"\u0130": "i"} | {c: group[0] for group in _EQUIVALENT for c in group[1:]})
_AFTER_LOWER = str.maketrans({c: group[0] for group in _EQUIVALENT for c in group[1:]})
_UNUSUAL_BEFORE = re.compile("[" + "".join(map(chr, _BEFORE_LOWER)) + "]")
_UNUSUAL_AFTER = re.compile("[" + "".join(map(chr, _AFTER_LOWER)) + "]")


def fold(text: str) -> str:
    """``text`` in lower case, each letter as its class under ``re.IGNORECASE`` (one
    character for one: a word in a text is a word in its fold)."""
    if text.isascii():
        return text.lower()
    # (str.translate reads a dict per character: only a text holding one of them pays it)
    if _UNUSUAL_BEFORE.search(text):
        text = text.translate(_BEFORE_LOWER)
    lowered = text.lower()
    return lowered.translate(_AFTER_LOWER) if _UNUSUAL_AFTER.search(lowered) else lowered


@dataclass(frozen=True, slots=True)
class Needs:
    """What every match of a pattern needs: one of ``words`` as a word of the text (a run of
    word characters with none on either side), or a word of the text starting with one of
    ``starts``, or one of ``parts`` anywhere in it; folded (``fold``) when the pattern
    ignores case anywhere. ``leads``: when every match starts at a word's start with one of
    them, they (else empty)."""

    folded: bool
    words: frozenset[str]
    starts: tuple[str, ...]
    parts: tuple[str, ...]
    leads: tuple[str, ...] = ()

    def shortest(self) -> int:
        return min(map(len, [*self.words, *self.starts, *self.parts]), default=0)


# In the literal runs worked out below, "no word character here" (``\b`` beside a word
# character, ``(?<![\w])``, ``(?!\w)``, ``^``, ``$``): it matches no character.
_EDGE = "\0"


def needed_words(compiled: re.Pattern[str]) -> Needs:
    """What every match of ``compiled`` needs (nothing known: no words, starts or parts)."""
    token = _SEEN.set({})
    try:
        return _needed_words(compiled)
    finally:
        _SEEN.reset(token)


def _needed_words(compiled: re.Pattern[str]) -> Needs:
    parsed = _parser.parse(compiled.pattern, compiled.flags)
    folded = bool(parsed.state.flags & _c.SRE_FLAG_IGNORECASE) or _ignores_case_inside(parsed)
    # (under re.ASCII, \w is not the text's words' \w)
    by_words = not compiled.flags & re.ASCII
    leads = _leads(_folded(_starts(parsed), folded)) if by_words else ()
    exact, needed = _sequence(parsed)
    runs = _best([exact, needed])
    if runs is None:
        return Needs(folded, frozenset(), (), (), leads)
    words, starts, parts = set(), set(), set()
    for run in _folded(runs, folded):
        word, whole = _word_in(run) if by_words else (None, False)
        if word is not None and _NOT_ALWAYS_A_WORD in word:
            parts.add(run.replace(_EDGE, ""))
        elif word is not None and whole:
            words.add(word)
        elif word is not None and len(word) >= 2:
            starts.add(word)
        else:
            parts.add(run.replace(_EDGE, ""))
    # a part holding another is found wherever that one is looked for
    kept = sorted(p for p in parts if not any(o != p and o in p for o in parts))
    return Needs(folded, frozenset(words), tuple(sorted(starts)), tuple(kept), leads)


def _folded(runs: set[str], folded: bool) -> set[str]:
    return {fold(run) for run in runs} if folded else runs


# "ι" under IGNORECASE is also "\u0345", no word character: a word holding it is not always
# one of the text's words, so it is looked for as a part.
_NOT_ALWAYS_A_WORD = "ι"


def _leads(runs: set[str]) -> tuple[str, ...]:
    """The words every match starts with at a word's start, when each run is an edge then
    two word characters or more."""
    leads = set()
    for run in runs:
        body = run.lstrip(_EDGE)
        word = body[: next((i for i, char in enumerate(body) if not is_word_char(char)), len(body))]
        if body == run or len(word) < 2 or _NOT_ALWAYS_A_WORD in word:
            return ()
        leads.add(word)
    return tuple(sorted(leads))


def is_word_char(char: str) -> bool:
    """A character of ``\\w`` as ``re`` reads a ``str``: a letter, a digit, "_"."""
    return char.isalnum() or char == "_"


def _word_in(run: str) -> tuple[str | None, bool]:
    """The longest run of word characters in ``run`` with no word character on either side
    (an edge or a character of the run that is none), and True; else the one the run ends
    with after an edge (the start of a word of the text), and False; else None."""
    found: list[str] = []
    current, bounded, before = "", False, False  # (``before``: an edge or a non-word char came last)
    for char in run:
        if is_word_char(char):
            if not current:
                bounded = before
            current += char
            before = False
            continue
        if current and bounded:
            found.append(current)
        current = ""
        before = char == _EDGE or not is_word_char(char)
    if found:
        return max(found, key=len), True
    return (current, False) if current and bounded else (None, False)


_Words = set[str] | None


def _size(run: str) -> int:
    return len(run) - run.count(_EDGE)


def _best(candidates: list[_Words]) -> _Words:
    """The most telling of several sets each of which a match needs one of: the longest
    shortest run, then the fewest runs, then the most runs at a word's edge."""
    best: _Words = None
    for runs in candidates:
        if not runs or min(map(_size, runs)) == 0:
            continue
        if best is None or _telling(runs) > _telling(best):
            best = runs
    return best


def _telling(runs: set[str]) -> tuple[bool, int, int]:
    # (runs at a word's start are looked up among the text's words, not read through it)
    return all(_EDGE in run for run in runs), min(map(_size, runs)), -len(runs)


def _sequence(items: Any) -> tuple[_Words, _Words]:
    """(every text the sequence matches, if few and known; runs one of which it needs)."""
    candidates: list[_Words] = []
    run: set[str] = {""}
    whole: _Words = {""}
    for op, av in items:
        exact, needed = _node(op, av)
        candidates.append(needed)
        if exact is None:
            # the run goes on into how the node starts ("(?<![\w])(?:pin|host\s+key)": a
            # word starting "pin" or "host")
            candidates.append(_joined(run, _start(op, av)) or run)
            run, whole = {""}, None
            continue
        if len(run) * len(exact) > _MAX_WORDS:
            candidates.append(run)
            run = set(exact)
        else:
            run = {a + b for a, b in product(run, exact)}
        whole = _joined(whole, exact)
    candidates.append(run)
    return whole, _best(candidates)


def _start(op: Any, av: Any) -> set[str]:
    """Runs one of which every match of a node starts with ({""}: none known)."""
    exact, _ = _node(op, av)
    if exact is not None:
        return exact
    if op is _c.SUBPATTERN:
        return _starts(av[3])
    if op is _c.ATOMIC_GROUP:
        return _starts(av)
    if op is _c.BRANCH:
        union = set().union(*(_starts(alternative) for alternative in av[1]))
        return union if len(union) <= _MAX_WORDS else {""}
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT) and av[0] > 0:
        return _starts(av[2])
    return {""}


def _starts(items: Any) -> set[str]:
    run: set[str] = {""}
    for op, av in items:
        exact, _ = _node(op, av)
        if exact is None:
            return _joined(run, _start(op, av)) or run
        joined = _joined(run, exact)
        if joined is None:
            return run
        run = joined
    return run


def _joined(left: _Words, right: set[str]) -> _Words:
    if left is None or len(left) * len(right) > _MAX_WORDS:
        return None
    return {a + b for a, b in product(left, right)}


_BEGINNINGS = (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING, _c.AT_BEGINNING_LINE)
_EDGES = frozenset([_c.AT_BOUNDARY, *_BEGINNINGS, _c.AT_END, _c.AT_END_STRING, _c.AT_END_LINE])
_NO_WORD_CLASSES = frozenset([_c.CATEGORY_WORD, _c.CATEGORY_NOT_SPACE])


def _node(op: Any, av: Any) -> tuple[_Words, _Words]:
    # (a node is read again for how it starts: each is worked out once per pattern, or a
    # pattern of nested alternatives cost tens of milliseconds at import)
    seen = _SEEN.get()
    if seen is None:
        return _node_read(op, av)
    found = seen.get((op, id(av)))
    if found is None:
        found = seen[(op, id(av))] = _node_read(op, av)
    return found


_SEEN: ContextVar[dict[tuple[Any, int], tuple[_Words, _Words]] | None] = ContextVar(
    "engram_pattern_words_seen", default=None
)


def _node_read(op: Any, av: Any) -> tuple[_Words, _Words]:
    if op is _c.LITERAL:
        return {chr(av)}, None
    if op is _c.AT:
        # (``\b`` beside a word character: none on the other side; beside another, no word)
        return ({_EDGE} if av in _EDGES else {""}), None
    if op is _c.ASSERT_NOT:
        return ({_EDGE} if _no_word_char(av[1]) else {""}), None  # (matches no character)
    if op is _c.ASSERT:
        return {""}, _best(list(_sequence(av[1])))
    if op is _c.SUBPATTERN:
        return _sequence(av[3])
    if op is _c.ATOMIC_GROUP:
        return _sequence(av)
    if op is _c.IN:
        return _one_of(av), None
    if op is _c.BRANCH:
        return _branch(av[1])
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return _repeat(*av)
    return None, None  # any character, a class, a back reference: no word known


def _no_word_char(items: Any) -> bool:
    r"""A lookaround's one character of a class holding every word character (``[\w'.]``,
    ``\w``, ``\S``): refused, the character beside is no word character (or none is)."""
    if len(items) != 1 or items[0][0] is not _c.IN:
        return False
    members = items[0][1]
    if any(op is _c.NEGATE for op, _ in members):
        return False
    return any(op is _c.CATEGORY and av in _NO_WORD_CLASSES for op, av in members)


def _one_of(items: Any) -> _Words:
    """A set of a few literal characters ("[üu]")."""
    chars = set()
    for op, av in items:
        if op is not _c.LITERAL:
            return None
        chars.add(chr(av))
    return chars if len(chars) <= 4 else None


def _branch(alternatives: Any) -> tuple[_Words, _Words]:
    exacts, needs = [], []
    for alternative in alternatives:
        exact, needed = _sequence(alternative)
        exacts.append(exact)
        needs.append(_best([exact, needed]))
    exact_all = None if any(e is None for e in exacts) else set().union(*exacts)  # type: ignore[arg-type]
    if exact_all is not None and len(exact_all) > _MAX_WORDS:
        exact_all = None
    # every alternative must give a run, or a match may hold none
    need_all = None if any(n is None for n in needs) else set().union(*needs)  # type: ignore[arg-type]
    return exact_all, need_all


def _repeat(least: int, most: int, item: Any) -> tuple[_Words, _Words]:
    if least == 0:
        return None, None
    exact, needed = _sequence(item)
    runs = _best([exact, needed])
    if least == most and exact is not None and len(exact) ** least <= _MAX_WORDS:
        whole: _Words = {""}
        for _ in range(least):
            whole = _joined(whole, exact)
        return whole, runs
    return None, runs


def _ignores_case_inside(items: Any) -> bool:
    """An inline ``(?i:...)`` anywhere in the pattern."""
    for op, av in items:
        if op is _c.SUBPATTERN and av[1] & _c.SRE_FLAG_IGNORECASE:
            return True
        if any(_ignores_case_inside(part) for part in _parts(op, av)):
            return True
    return False


def _parts(op: Any, av: Any) -> list[Any]:
    """The sequences inside a node."""
    if op is _c.SUBPATTERN:
        return [av[3]]
    if op is _c.BRANCH:
        return list(av[1])
    if op is _c.ASSERT or op is _c.ASSERT_NOT:
        return [av[1]]
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        return [av[2]]
    if op is _c.ATOMIC_GROUP:
        return [av]
    if op is _c.GROUPREF_EXISTS:
        return [part for part in av[1:] if part is not None]
    return []
