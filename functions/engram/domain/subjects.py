"""Keys that embed close together but name different things.

Semantic dedup (``service/dedup.py``) judges a new key against the user's entries by
embedding similarity. Short keys are dominated by their shared words, so a sentence
embedder scores "least favorite food" against "favorite food" at about 0.90 and "sister
name" against "brother name" at about 0.89: above the thresholds, though merging them
would invert or misattribute a fact. No threshold separates these minimal pairs from
true paraphrases ("favorite meal" / "favourite food"), so they are told apart by their
words: a key that adds a negation or qualifier the other lacks, or that names another
member of the same closed class (another relative, the other end of a scale, another
place of life), is another subject.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Words that turn a subject into its opposite or into a past one.
_QUALIFIERS = frozenset(
    {"least", "not", "no", "non", "never", "ex", "former", "previous", "past", "old", "un", "dis", "anti", "except"}
)

# Spellings and forms of one word, so that a variant is not mistaken for a contrast.
_CANONICAL = {
    "favourite": "favorite",
    "fave": "favorite",
    "colour": "color",
    "mom": "mother",
    "mum": "mother",
    "mommy": "mother",
    "mama": "mother",
    "dad": "father",
    "daddy": "father",
    "papa": "father",
    "grandma": "grandmother",
    "granny": "grandmother",
    "grandpa": "grandfather",
    "bro": "brother",
    "sis": "sister",
    "hubby": "husband",
    "gf": "girlfriend",
    "bf": "boyfriend",
    "children": "child",
    "kid": "child",
    "latest": "last",
    "present": "current",
    "upcoming": "next",
    "future": "next",
    "office": "work",
    "job": "work",
    "business": "work",
    "personal": "home",
    "private": "home",
    "worst": "hate",
    "dislike": "hate",
    "loathe": "hate",
    "best": "favorite",
    "love": "like",
    "enjoy": "like",
    "prefer": "like",
    "preferred": "like",
}

# Closed classes whose members name different subjects: each inner set is one meaning.
_CLASSES: tuple[tuple[frozenset[str], ...], ...] = (
    tuple(
        frozenset({w})
        for w in (
            "mother",
            "father",
            "sister",
            "brother",
            "son",
            "daughter",
            "wife",
            "husband",
            "boyfriend",
            "girlfriend",
            "aunt",
            "uncle",
            "cousin",
            "niece",
            "nephew",
            "grandmother",
            "grandfather",
            "grandson",
            "granddaughter",
            "boss",
            "manager",
            "colleague",
            "roommate",
            "neighbor",
            "teacher",
            "doctor",
        )
    ),
    (frozenset({"favorite", "like", "most"}), frozenset({"hate"})),
    (frozenset({"first"}), frozenset({"last"}), frozenset({"next"}), frozenset({"current"})),
    (frozenset({"home"}), frozenset({"work"}), frozenset({"school"})),
    (frozenset({"morning"}), frozenset({"evening", "night"})),
    (frozenset({"weekday"}), frozenset({"weekend"})),
    (frozenset({"summer"}), frozenset({"winter"}), frozenset({"spring"}), frozenset({"autumn", "fall"})),
)

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=8192)
def subject_words(key: str) -> frozenset[str]:
    """A key's words, lower-cased, singular, with spelling variants made one (kept for
    the keys seen lately: every compared write asks again for its candidates' keys)."""
    words = set()
    for raw in _WORD.findall(_CAMEL.sub(" ", key).lower()):
        word = _CANONICAL.get(raw, raw)
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = _CANONICAL.get(word[:-1], word[:-1])
        words.add(word)
    return frozenset(words)


def distinct_subjects(a: str, b: str) -> bool:
    """Whether two keys name different subjects however similar they embed."""
    wa, wb = subject_words(a), subject_words(b)
    only_a, only_b = wa - wb, wb - wa
    if (only_a | only_b) & _QUALIFIERS:
        return True
    for classes in _CLASSES:
        in_a = {i for i, c in enumerate(classes) if only_a & c}
        in_b = {i for i, c in enumerate(classes) if only_b & c}
        if in_a and in_b and in_a != in_b:
            return True
    return False
