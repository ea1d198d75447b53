"""The learned stage's feature groups: one definition for training (which reads the strings)
and inference (which sums, and caches, each group's weights).

A token's own features (its word or shape, a word's character n-grams), the words around a
candidate (a value, or a word set off as one), and a word's shape with its neighbours.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

# How far a value looks for the words that name it, before and after.
_BEFORE = 6
_AFTER = 5


class Token(NamedTuple):
    norm: str  # what n-grams see: a lower-case word, a punctuation mark, or a value's class
    extras: tuple[str, ...]  # unigram-only features (a value's shape)
    word: bool
    value: bool
    shape: str = ""  # a word's case and length (learned_shapes.word_shape), paired with its neighbours


@lru_cache(maxsize=8192)
def char_grams(word: str) -> tuple[str, ...]:
    padded = f"<{word}>"
    grams = {padded[i : i + n] for n in (3, 4, 5) for i in range(len(padded) - n + 1)}
    return tuple(sorted(grams))


def own(t: Token) -> list[str]:
    f = [f"u:{t.norm}", *t.extras]
    if t.word and len(t.norm) >= 3:
        f.extend(f"c:{g}" for g in char_grams(t.norm))
    return f


def named_before(word: str, near: bool) -> list[str]:
    """A word a few tokens before a value ("password for the router is X")."""
    f = [f"kv:{word}"]
    if near and len(word) >= 3:
        f.extend(f"kc:{g}" for g in char_grams(word) if len(g) == 5)
    return f


def named_after(word: str, near: bool) -> list[str]:
    """A word a few tokens after a value ("X — that's the netflix password")."""
    f = [f"vk:{word}"]
    if near and len(word) >= 3:
        f.extend(f"vc:{g}" for g in char_grams(word) if len(g) == 5)
    return f


Near = tuple[str, bool, bool, bool]  # (word, near, before, nearest)


def named(k: Near, value: bool) -> list[str]:
    """The features of a word near a candidate: a value's (above, and the closest word on
    each side apart: "password: X", "X (wifi)"), or a set-off word's ("is \"Coco\"")."""
    word, near, before, nearest = k
    if not value:
        side = "wkv" if before else "wvk"
        return [f"{side}:{word}", f"{side}1:{word}"] if nearest else [f"{side}:{word}"]
    f = named_before(word, near) if before else named_after(word, near)
    if nearest:
        f.append(f"kn:{word}" if before else f"vn:{word}")
    return f


def context(toks: list[Token], i: int) -> list[Near]:
    """The words around a candidate at ``i``, nearest first on each side."""
    out: list[Near] = []
    first = True
    for j in range(i - 1, max(0, i - _BEFORE) - 1, -1):
        if toks[j].word:
            out.append((toks[j].norm, i - j <= 3, True, first and i - j <= 3))
            first = False
    first = True
    for j in range(i + 1, min(len(toks), i + 1 + _AFTER)):
        if toks[j].word:
            out.append((toks[j].norm, j - i <= 4, False, first and j - i <= 2))
            first = False
    return out


# A value is a candidate, and so is a word set off as one: quoted, or right after ':' or '='.
SET_OFF = frozenset([":", "="])


def neighbours(prev: str, shape: str, nxt: str) -> list[str]:
    """A word's shape with the tokens right before and after it ("is" + a capitalised word)."""
    return [f"pv:{prev}|{shape}", f"nx:{shape}|{nxt}"] if shape else []
