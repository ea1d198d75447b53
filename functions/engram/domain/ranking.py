"""Score fusion for search and recall: pure, deterministic, tested on its own."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache

from engram.domain.values import quick_init

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
# Function words carry no topic: on short conversational turns "what did you do" would
# otherwise rank "So what is new?" above the turn that answers (BM25 favours short
# documents). Dropped from keyword queries only; documents keep every word.
STOPWORDS = frozenset(
    word
    for line in (
        "a about above after again all am an and any are as at be been before being below between both but by",
        "can could did do does doing down during each few for from further had has have having he her here hers",
        "herself him himself his how i if in into is it its itself just let me more most my myself no nor not now",
        "of off on once only or other our ours out over own same she should so some such than that the their",
        "theirs them then there these they this those through to too under until up us very was we were what",
        "when where which while who whom why will with would you your yours yourself",
    )
    for word in line.split()
)


def query_terms(text: str, limit: int = 32) -> list[str]:
    """The words of a keyword query, casefolded, deduplicated, function words dropped
    (all of them kept when the query has nothing else)."""
    words = list(dict.fromkeys(_TOKEN.findall(text.casefold())))
    content = [w for w in words if w not in STOPWORDS]
    return (content or words)[:limit]


def semantic_query(text: str, names: Sequence[str]) -> str:
    """The question as the embedder should see it: without the names of the people in the
    conversation. People do not say their own name ("I adopted a puppy"), so "What did
    Maya adopt?" is about Maya's turns, not about the word "Maya": the name pulls the
    vector towards every text that mentions a name and away from the turn that answers
    (on the conversation evaluation, dropping it lifted MiniLM's R@10 by about 0.1,
    docs/recall.md). The keyword query keeps the name (it matches the speaker). When
    nothing but names and function words would be left, the question stays as it was."""
    words = {w.casefold() for n in names for w in _TOKEN.findall(n) if len(w) > 1}
    if not words:
        return text
    pattern = re.compile(
        r"\b(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")(?:['’]s)?\b",
        re.IGNORECASE,
    )
    stripped = " ".join(pattern.sub(" ", text).split())
    rest = [w for w in _TOKEN.findall(stripped.casefold()) if w not in STOPWORDS]
    return stripped if rest else text


@dataclass(frozen=True, slots=True)
class FusionWeights:
    keyword: float = 0.5
    semantic: float = 0.5


def normalise_keyword(scores: Sequence[float]) -> list[float]:
    """BM25 scores are unbounded; scale by the best score of this query to 0..1."""
    top = max(scores, default=0.0)
    return [s / top if top > 0 else 0.0 for s in scores]


def fuse(keyword: Sequence[float], semantic: Sequence[float], weights: FusionWeights) -> list[float]:
    kw = normalise_keyword(keyword)
    return [weights.keyword * k + weights.semantic * max(0.0, s) for k, s in zip(kw, semantic, strict=True)]


# -- recall: the hybrid score (design, behaviour item 12) ---------------------------------


@dataclass(frozen=True, slots=True)
class HybridWeights:
    """How recall fuses its five signals; tuned on bench/eval_data.py (see docs/recall.md).

    relevance = semantic * s + keyword * (1 - s), from the query alone, where keyword is
                BM25 over the larger of this query's best BM25 and ``keyword_floor``
                (scale-free on a real corpus, and a weak best match stays weak);
    prior     = importance, recency and confidence, mixed by their weights;
    total     = relevance * ((1 - prior_share) + prior_share * prior).

    The prior multiplies: it reorders what is relevant and never makes an unrelated
    memory relevant, so ``min_score`` keeps meaning "at least this relevant".
    """

    semantic: float = 0.5
    keyword_floor: float = 4.0
    prior_share: float = 0.2
    importance: float = 0.4
    recency: float = 0.2
    confidence: float = 0.4
    recency_half_life_days: float = 30.0
    # The least total a tier-2 memory needs unless the request names its own.
    min_score: float = 0.15
    # How much a question's time span ("in June 2023") lifts what falls inside it:
    # relevance x (1 + time_boost x time match). It multiplies, as the prior does.
    time_boost: float = 0.5
    # How much a past message said by a person the question names ("What did Maya
    # adopt?": Maya's turns) is lifted: relevance x (1 + speaker_boost). The other
    # speaker shares the words (a friend's "my neighbor's dog"), not the event.
    speaker_boost: float = 0.0
    # How much a past message is lifted by the best total of the same speaker's messages
    # said just before or after it in the same thread (``rank``'s ``neighbours``): news
    # told over a few turns ("I adopted a puppy!" ... "I named it Biscuit") is found as a
    # whole, though the second turn shares no word with "What did Maya name the puppy?".
    context_boost: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.semantic <= 1.0 or not 0.0 <= self.prior_share <= 1.0:
            raise ValueError("semantic and prior_share are shares between 0 and 1")
        if self.keyword_floor <= 0 or self.recency_half_life_days <= 0:
            raise ValueError("keyword_floor and recency_half_life_days must be positive")
        boosts = (self.time_boost, self.speaker_boost, self.context_boost)
        if min(self.importance, self.recency, self.confidence, *boosts) < 0:
            raise ValueError("prior weights and boosts must not be negative")


# What bench/conv_tune.py chose on the TRAIN conversations of bench/conv_data.py (the
# natural path: threads, /recall with topK 20), one set per embedder family; anything
# else gets the defaults above. MiniLM's (data version 2; messages embedded as their
# content, questions without the speakers' names): meaning 0.8, the most the tuner may
# give it (BM25 is the stronger signal on real conversations, the weaker on this data),
# no prior, a message said by whom the question names counted double, and the lowest
# minimum that leaves every off-topic train question with nothing (0.24; it costs 0.005
# of train R@20). On data version 3 the tuner prefers meaning 0.7 with a keyword floor of
# 64 (train R@10 0.713 -> 0.735), but on the test split that moved the natural path by
# only 0.007 of R@10 and cost message search and the entry paths 0.017 to 0.033, so it
# is not taken (docs/recall.md). ``context_boost`` 0.2 (third session) was chosen on the
# train split with ``python -m bench.conv_refs --neighbours`` (a plain hybrid of this
# shape: R@10 0.714 -> 0.744; 0.3 gives 0.747, within the tuner's 0.003), because the
# tuner's gathered candidates do not carry who said what when. The hash embedder's are the first session's (data
# version 1): later tuner choices gain at most 0.019 of train R@10 over them and would
# move every suite test's scores, and its minimum stays 0.10, what meaning alone
# reaches for a related text on a new user's few memories (docs/recall.md).
TUNED_WEIGHTS: dict[str, HybridWeights] = {
    "engram-hash-v1-": HybridWeights(
        semantic=0.3,
        keyword_floor=1.0,
        prior_share=0.0,
        importance=1.0,
        recency=0.0,
        confidence=0.0,
        recency_half_life_days=30.0,
        min_score=0.1,
        time_boost=1.5,
    ),
    "all-MiniLM-L6-v2": HybridWeights(
        semantic=0.8,
        keyword_floor=16.0,
        prior_share=0.0,
        importance=0.4,
        recency=0.2,
        confidence=0.4,
        recency_half_life_days=90.0,
        min_score=0.24,
        time_boost=1.5,
        speaker_boost=1.0,
        context_boost=0.2,
    ),
}


def weights_for(model_id: str) -> HybridWeights:
    for prefix, weights in TUNED_WEIGHTS.items():
        if model_id.startswith(prefix):
            return weights
    return HybridWeights()


@quick_init  # built a hundred times or more per recall
@dataclass(frozen=True, slots=True)
class Signals:
    """The raw inputs of one candidate's score."""

    keyword: float  # BM25, unbounded, 0 when no query word matched
    semantic: float  # cosine similarity, -1..1
    importance: int  # 0..100
    confidence: float  # 0..1
    freshness: datetime  # the latest of written, reinforced or used
    time_match: float = 0.0  # 0..1: inside the time span the question names (domain.temporal)
    speaker_match: float = 0.0  # 1: a message said by a person the question names (``speaker_named``)


@quick_init  # built a hundred times or more per recall
@dataclass(frozen=True, slots=True)
class ScoreParts:
    """Every component on 0..1, and the total they make (what an item reports)."""

    semantic: float
    keyword: float
    importance: float
    recency: float
    confidence: float
    relevance: float
    prior: float
    total: float
    time: float = 0.0
    speaker: float = 0.0
    context: float = 0.0  # what the neighbours added to ``total`` (``lift_by_context``)


def question_words(text: str) -> frozenset[str]:
    """The words of a question, casefolded (what ``speaker_named`` looks names up in)."""
    return frozenset(_TOKEN.findall(text.casefold()))


def speaker_named(speaker: str, words: frozenset[str]) -> float:
    """1.0 when the question (its ``question_words``) names who said a message: any word
    of the speaker's name ("Maya" of "Maya Lopez"), or the role ("user") when no name
    was given; else 0."""
    return 0.0 if words.isdisjoint(_name_words(speaker)) else 1.0


@lru_cache(maxsize=4096)
def _name_words(speaker: str) -> tuple[str, ...]:
    # A user's turns have few speakers: split each name once, not once per candidate.
    return tuple(w for w in _TOKEN.findall(speaker.casefold()) if len(w) > 1)


def keyword_scale(bm25: float, best: float, floor: float) -> float:
    """BM25 to 0..1: a share of the query's best match, or of ``floor`` if that is higher."""
    return min(1.0, bm25 / max(best, floor)) if bm25 > 0 else 0.0


def recency(freshness: datetime, now: datetime, half_life_days: float) -> float:
    age_days = max(0.0, (now - freshness).total_seconds() / 86400.0)
    return float(0.5 ** (age_days / half_life_days))


def score(signals: Signals, weights: HybridWeights, now: datetime, best_keyword: float) -> ScoreParts:
    sem = max(0.0, min(1.0, signals.semantic))
    kw = keyword_scale(signals.keyword, best_keyword, weights.keyword_floor)
    imp = max(0, min(100, signals.importance)) / 100.0
    rec = recency(signals.freshness, now, weights.recency_half_life_days)
    conf = max(0.0, min(1.0, signals.confidence))
    relevance = weights.semantic * sem + (1.0 - weights.semantic) * kw
    tm = max(0.0, min(1.0, signals.time_match))
    # The time and speaker boosts are not clipped at 1: with MiniLM's (x2.5 and x2) most
    # of a named speaker's turns about the subject went past it, tied at 1.0, and the
    # tie went by id, whatever the meaning and the words said (the better match lost its
    # place in the top 10). Unclipped, they keep their order; the minimum score still
    # means the same (what passed it passes it, only higher).
    if tm > 0:
        relevance = relevance * (1.0 + weights.time_boost * tm)
    sm = max(0.0, min(1.0, signals.speaker_match))
    if sm > 0:
        relevance = relevance * (1.0 + weights.speaker_boost * sm)
    mix = weights.importance + weights.recency + weights.confidence
    prior = (weights.importance * imp + weights.recency * rec + weights.confidence * conf) / mix if mix else 0.0
    total = relevance * ((1.0 - weights.prior_share) + weights.prior_share * prior)
    return ScoreParts(sem, kw, imp, rec, conf, relevance, prior, total, tm, sm)


def lift_by_context(
    scored: Sequence[tuple[str, ScoreParts]],
    neighbours: Mapping[str, Sequence[str]],
    boost: float,
    floor: float = 0.0,
    memo: dict[str, tuple[ScoreParts, float, ScoreParts]] | None = None,
) -> list[tuple[str, ScoreParts]]:
    """Each candidate's total plus ``boost`` times the best total among its neighbours
    (candidates only; the lift is reported as ``context``). Only a neighbour at or above
    ``floor`` (the minimum score) lifts: a turn is lifted by one relevant enough to be
    shown itself, so a question nothing answers still gets nothing. A neighbour's own
    lift does not count, so the order of candidates does not matter. ``memo`` (``rank``'s):
    a candidate lifted as much as last round from the same parts keeps its lifted parts."""
    if boost <= 0 or not neighbours:
        return list(scored)
    # Neighbours are mutual (``said_around``): walk out from the few that pass the floor.
    best: dict[str, float] = {}
    for cid, parts in scored:
        if parts.total >= floor and parts.total > 0:
            for n in neighbours.get(cid, ()):
                if parts.total > best.get(n, 0.0):
                    best[n] = parts.total
    if not best:
        return list(scored)
    out = []
    for cid, parts in scored:
        lift = boost * best.get(cid, 0.0)
        # A lift that leaves a turn below the floor changes nothing shown: skip its copy.
        if lift > 0 and parts.total + lift >= floor:
            seen = memo.get(cid) if memo is not None else None
            if seen is not None and seen[0] is parts and seen[1] == lift:
                parts = seen[2]
            else:
                lifted = _lifted(parts, lift)
                if memo is not None:
                    memo[cid] = (parts, lift, lifted)
                parts = lifted
        out.append((cid, parts))
    return out


def _lifted(parts: ScoreParts, lift: float) -> ScoreParts:
    """``replace(parts, total=parts.total + lift, context=lift)``, spelt out: on a frozen
    dataclass ``replace`` costs twice the construction (recall lifts dozens a call)."""
    return ScoreParts(
        parts.semantic,
        parts.keyword,
        parts.importance,
        parts.recency,
        parts.confidence,
        parts.relevance,
        parts.prior,
        parts.total + lift,
        parts.time,
        parts.speaker,
        lift,
    )


# How close in time two messages of one speaker in one thread must be to count as one
# telling (``said_around``): a person's consecutive turns about one thing.
CONTEXT_WINDOW = timedelta(minutes=3)


def said_around(
    messages: Sequence[tuple[str, str, str, datetime]], window: timedelta = CONTEXT_WINDOW
) -> dict[str, list[str]]:
    """For each ``(id, thread, speaker, said at)``, the other messages of the same thread
    and speaker said within ``window`` of it (``rank``'s ``neighbours``; mutual)."""
    groups: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for mid, thread, speaker, at in messages:
        groups.setdefault((thread, speaker), []).append((at.timestamp(), mid))
    span = window.total_seconds()
    out: dict[str, list[str]] = {}
    for said in groups.values():
        if len(said) < 2:
            continue
        said.sort()
        first = 0
        for i, (when, mid) in enumerate(said):
            while said[first][0] < when - span:
                first += 1
            near = []
            j = first
            while j < len(said) and said[j][0] <= when + span:
                if j != i:
                    near.append(said[j][1])
                j += 1
            if near:
                out[mid] = near
    return out


@dataclass(slots=True)
class RankMemo:
    """What one ranking keeps across its rounds (``rank``'s ``memo``): each candidate's
    parts with the signals and best keyword score they came from, and its lifted parts
    with the parts and lift they came from."""

    scored: dict[str, tuple[Signals, float, ScoreParts]] = field(default_factory=dict)
    lifted: dict[str, tuple[ScoreParts, float, ScoreParts]] = field(default_factory=dict)


def rank(
    candidates: Sequence[tuple[str, Signals]],
    weights: HybridWeights,
    now: datetime,
    memo: RankMemo | None = None,
    neighbours: Mapping[str, Sequence[str]] | None = None,
    lift_floor: float = 0.0,
) -> list[tuple[str, ScoreParts]]:
    """Best first; equal totals by id, so the order is the same on every run.

    ``memo`` (one per ranking, across its rounds): a candidate whose signals are the same
    object as last round, against the same best keyword score, keeps the parts it scored
    then instead of being scored again, and one lifted as much from the same parts keeps
    its lifted parts (the result is the same either way).
    ``neighbours``: past messages said around each candidate by the same speaker in the
    same thread (``lift_by_context``, weighted by ``context_boost``; only neighbours at or
    above ``lift_floor`` lift)."""
    best = max((s.keyword for _, s in candidates), default=0.0)
    if memo is None:
        scored = [(cid, score(s, weights, now, best)) for cid, s in candidates]
    else:
        scored = []
        for cid, s in candidates:
            seen = memo.scored.get(cid)
            if seen is not None and seen[0] is s and seen[1] == best:
                parts = seen[2]
            else:
                parts = score(s, weights, now, best)
                memo.scored[cid] = (s, best, parts)
            scored.append((cid, parts))
    if neighbours:
        lifts = memo.lifted if memo is not None else None
        scored = lift_by_context(scored, neighbours, weights.context_boost, lift_floor, lifts)
    scored.sort(key=lambda p: (-p[1].total, p[0]))
    return scored


def matched_by(keyword_raw: float, parts: ScoreParts) -> tuple[str, ...]:
    """How the candidate was found: ``bm25`` (shares words), ``vector`` (close in meaning),
    ``time`` (said within the span the question names)."""
    found = (("bm25", keyword_raw > 0), ("vector", parts.semantic > 0), ("time", parts.time > 0))
    return tuple(name for name, hit in found if hit)


_HOW = {"bm25": "shares words with {to}", "vector": "is close in meaning", "time": "falls in the time asked about"}


def explain(parts: ScoreParts, matched: tuple[str, ...], to: str = "the query") -> str:
    """Why a hit was chosen, in words, with every score part (what each result reports)."""
    how = " and ".join(_HOW[m].format(to=to) for m in matched) or "passes the minimum score"
    when = f", time {parts.time:.2f}" if parts.time > 0 else ""
    when += ", said by whom it names" if parts.speaker > 0 else ""
    return (
        f"relevant to {to} ({how}): relevance {parts.relevance:.3f} "
        f"(semantic {parts.semantic:.3f}, keyword {parts.keyword:.3f}{when}), "
        f"prior {parts.prior:.3f} (importance {parts.importance:.2f}, recency {parts.recency:.2f}, "
        f"confidence {parts.confidence:.2f}), "
        + (f"lifted {parts.context:.3f} by the same speaker's turns around it, " if parts.context > 0 else "")
        + f"score {parts.total:.3f}"
    )


@dataclass(frozen=True, slots=True)
class Ranked:
    """One hit of any search, as every search reports it: its parts and why."""

    id: str
    parts: ScoreParts
    matched_by: tuple[str, ...]
    why: str

    @property
    def score(self) -> float:
        return self.parts.total


def rank_above(
    candidates: Sequence[tuple[str, Signals]],
    weights: HybridWeights,
    now: datetime,
    min_score: float,
) -> tuple[list[Ranked], int]:
    """The one ranking of recall, search, message search, archival and long-term search:
    candidates at or above ``min_score``, best first, each explained; and how many fell
    below it."""
    scored = rank(candidates, weights, now)
    raw = {cid: s.keyword for cid, s in candidates}
    out = []
    for cid, parts in scored:
        if parts.total < min_score:
            continue
        matched = matched_by(raw[cid], parts)
        out.append(Ranked(cid, parts, matched, explain(parts, matched)))
    return out, len(scored) - len(out)
