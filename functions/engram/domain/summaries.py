"""Extractive summaries: dream's summariser without a model (issue #17, item 10).

EDDI's "interaction summarization" compresses many related facts of a user into one
consolidated entry. Without an LLM the summary is built from the facts themselves:
every item of it is one source fact, verbatim, so nothing is invented and each item
traces to the entry it came from. Near-identical facts ("favorite food: pizza",
"Favourite foods: Pizza!") become one item; the most informative facts come first (the
ones whose words the summary does not hold yet, rare words weighing more), and facts
that do not fit in ``max_chars`` are left out of the summary and *not covered*: the
service supersedes only the entries a summary covers, so no fact leaves the user's
live memory without being in a summary.

A previous summary of the partition is an input too (so a new summary replaces it
instead of piling up): its items are kept first and in their order, and new facts fill
the room left. Deterministic: the same facts give the same summary on every run.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engram.domain.dream import summary_key
from engram.domain.subjects import subject_words

SEPARATOR = "; "
_WORD = re.compile(r"[^\W_]+")
# Words that carry no information of their own in a fact line.
_STOPWORD_TEXT = (
    "a an the and or of to in on at for with by from is are was were be been am i me my mine "
    "user their they them he she his her its it this that these those has have had do does did as so"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True, slots=True)
class Extract:
    text: str
    # Indexes of the facts the text accounts for: kept verbatim, or folded into a kept
    # near-identical one. The others are not in the summary.
    covered: tuple[int, ...]


def summary_prefix(category: str) -> str:
    """How a previous summary of ``category`` reads as a fact line (``fact_line``)."""
    return summary_key(category).replace("_", " ") + ": "


def _summary_item_text(fact: str, category: str) -> str | None:
    """The items of a previous summary of ``category`` (its own facts' partition: the
    agent's own, or a group's, whose key names the groups), or None for another fact."""
    prefix = summary_prefix(category)
    if fact.startswith(prefix):
        return fact[len(prefix) :]
    head, sep, rest = fact.partition(": ")
    if sep and head.startswith(prefix[: -len(": ")] + ".group-"):
        return rest
    return None


def _word(raw: str) -> str:
    # One word's canonical form (singular, one spelling: "favourite" is "favorite").
    return next(iter(subject_words(raw)), raw) if raw.isascii() else raw


def canonical(text: str) -> tuple[str, ...]:
    return tuple(_word(w) for w in _WORD.findall(text.casefold()))


def near_identical(a: str, b: str) -> bool:
    """Two fact lines with the same words in the same order, up to case, punctuation,
    plurals and spelling variants. Anything looser folds different facts: a one-letter
    edit turns "likes: cats" into "likes: bats", and a number "child 1" into "child 2"."""
    return canonical(a) == canonical(b)


def _content_words(text: str) -> frozenset[str]:
    return frozenset(w for w in canonical(text) if w not in _STOPWORDS)


def extract(facts: Sequence[str], category: str, max_chars: int) -> Extract:
    """Choose, order and join the facts of one partition into at most ``max_chars``."""
    covered: set[int] = set()
    items, candidates = _carried(facts, category, covered)
    fitted = _fitting(items, max_chars)
    if len(fitted) < len(items):
        # The previous summary no longer fits (the agent lowered maxValueLength): a new
        # one under its key would supersede it and drop the items left out, whose source
        # entries it superseded before. No summary: the partition stays as it is.
        return Extract("", ())
    items = fitted
    length = len(SEPARATOR.join(items))
    leaders, followers = _leaders(facts, candidates, items, covered)

    # Rare words weigh more: a word every fact shares says little about any one of them.
    words = {i: _content_words(facts[i]) for i in leaders}
    weight = _rarity(words.values())
    seen: set[str] = set()
    for item in items:
        seen |= _content_words(item)

    remaining = list(leaders)
    while remaining:
        # The fact adding the most words the summary lacks; the earliest on a tie.
        best = max(remaining, key=lambda i: (sum(weight[w] for w in words[i] - seen), -i))
        remaining.remove(best)
        fact = " ".join(facts[best].split())
        added = len(fact) + (len(SEPARATOR) if items else 0)
        if length + added > max_chars:
            continue  # it stays as it is; a shorter one may still fit
        items.append(fact)
        length += added
        seen |= words[best]
        covered.add(best)
        covered.update(followers[best])
    return Extract(SEPARATOR.join(items), tuple(sorted(covered)))


def _carried(facts: Sequence[str], category: str, covered: set[int]) -> tuple[list[str], list[int]]:
    """The previous summary's items, each once, and the other facts (by index). The
    previous summary is superseded by the new one whatever happens, so its items are
    carried first, as far as they fit."""
    items: list[str] = []
    candidates: list[int] = []
    for i, fact in enumerate(facts):
        previous = _summary_item_text(fact, category)
        if previous is None:
            candidates.append(i)
            continue
        covered.add(i)
        for item in previous.split(SEPARATOR):
            item = item.strip()
            if item and not any(near_identical(item, kept) for kept in items):
                items.append(item)
    return items, candidates


def _fitting(items: list[str], max_chars: int) -> list[str]:
    """The first items that fit in ``max_chars`` once joined."""
    length = 0
    kept: list[str] = []
    for item in items:
        added = len(item) + (len(SEPARATOR) if kept else 0)
        if length + added > max_chars:
            break
        kept.append(item)
        length += added
    return kept


def _leaders(
    facts: Sequence[str], candidates: list[int], items: list[str], covered: set[int]
) -> tuple[list[int], dict[int, list[int]]]:
    """Near-identical new facts: the first stands for the rest (or an item already kept
    does, and they are covered)."""
    leaders: list[int] = []
    followers: dict[int, list[int]] = {}
    for i in candidates:
        fact = facts[i].strip()
        if not fact or any(near_identical(fact, item) for item in items):
            covered.add(i)
            continue
        lead = next((j for j in leaders if near_identical(fact, facts[j])), None)
        if lead is None:
            leaders.append(i)
            followers[i] = []
        else:
            followers[lead].append(i)
    return leaders, followers


def _rarity(word_sets: Iterable[frozenset[str]]) -> dict[str, float]:
    """Each word's weight: the fewer facts hold it, the more it says (an idf)."""
    sets = list(word_sets)
    df: dict[str, int] = {}
    for ws in sets:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    n = len(sets)
    return {w: math.log((1 + n) / (1 + d)) + 1.0 for w, d in df.items()}
