"""Semantic dedup and supersede on every write path (design, behaviour item 6; Oasis).

Before a write under a new key (explicit ``PUT``, batch, ``rememberFact``, MCP, or a fact
extracted from a message) ``MemoryService`` asks ``SemanticDedup.match`` whether the user
already has it in other words:

- ``duplicate``: the whole fact ("subject: value") is more similar than the embedder's
  ``dedup_threshold`` (0.85 for sentence embeddings) to a live entry. The caller
  reinforces that entry by writing the entry's own key and value (the same-key,
  same-value path: confidence +0.1, no new entry).
- ``contradiction``: the subjects (the keys, as words) are at least as similar as the
  supersede threshold (0.80 for sentence embeddings) and the values differ. The caller
  writes the new value under the matched entry's key, so the ordinary same-key
  supersede happens and the history links old and new.

The index only proposes candidates (BM25 and vector, in the caller's scope); the
similarities are computed here from fresh embeddings of the store's entries, so a
candidate indexed by an older model (while a re-embed runs) is still judged fairly.
The index runs behind the store (the stream's lag in the cloud, another writer's
commit locally), so the user's most recently written entries are read from the store
and compared too: a restatement that arrives before the indexer caught up with the
first statement still finds it.
Only entries the caller's write can actually reach are candidates: global ones and
the calling agent's own. Another agent's group entry lives under another identity, and
writing its key would create a second entry rather than reinforce or supersede it.
The caller's own entries count only for the same audience (self, or the same groups):
its self and group entries under one key are one identity, so a match across them would
move the entry from one audience to the other.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Lock
from typing import Literal

from aws_lambda_powertools import Logger

from engram.domain.agent_config import RecallOrder
from engram.domain.errors import StoreUnavailable
from engram.domain.models import MemoryEntry, Status, Visibility
from engram.domain.policies import VisibilityScope, same_value
from engram.domain.subjects import distinct_subjects
from engram.ports import Clock, DocKind, Embedder, EntryQuery, MemoryRepository, SearchIndex, SearchQuery

logger = Logger(service="engram", child=True)

MatchKind = Literal["duplicate", "contradiction"]

# Oasis' supersede threshold for sentence embeddings.
SUPERSEDE_THRESHOLD = 0.80
# Feature hashing scores paraphrased subjects low (see tests/unit/test_dedup.py): only
# near-identical key words ("favorite_foods" / "favorite-food") may count as one subject.
SUPERSEDE_THRESHOLDS: Mapping[str, float] = {
    "engram-hash-v1-": 0.90,
}
CANDIDATES = 8
# The user's latest entries, read from the store on every compared write, whether or not
# the index has them yet: more than the writes that land within the index's lag.
RECENT = 10
# Texts whose vectors are kept between writes: a user's candidates come back write after
# write, and embedding them again made a MiniLM write ten times slower (docs/recall.md).
EMBEDDING_CACHE = 4096


@dataclass(frozen=True, slots=True)
class DedupMatch:
    entry: MemoryEntry
    similarity: float
    kind: MatchKind


@dataclass(frozen=True, slots=True)
class DedupThresholds:
    duplicate: float
    contradiction: float


def thresholds_for(embedder: Embedder) -> DedupThresholds:
    """Duplicate from the embedder itself; supersede from the table, by model id prefix."""
    contradiction = SUPERSEDE_THRESHOLD
    for prefix, value in SUPERSEDE_THRESHOLDS.items():
        if embedder.model_id.startswith(prefix):
            contradiction = value
    return DedupThresholds(duplicate=embedder.dedup_threshold, contradiction=contradiction)


def subject_of(key: str) -> str:
    """A key as words: what the fact is about ("favorite_food" -> "favorite food")."""
    return " ".join(key.replace("_", " ").replace("-", " ").replace(":", " ").replace(".", " ").split())


def fact_text(key: str, value: str) -> str:
    return f"{subject_of(key)}: {value}"


def _similarities(query: list[float], vectors: list[list[float]]) -> list[float]:
    """Dot products of unit vectors: one matrix product with numpy (the laptop), pure
    Python otherwise (numpy is not in the Lambda layer). The pure loop was a third of
    a hashing-embedder write's dedup time."""
    if not vectors:
        return []
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - the dev environment has numpy
        return [float(sum(x * y for x, y in zip(query, v, strict=True))) for v in vectors]
    # einsum, not matmul: BLAS would start a thread pool for a product this small.
    products = np.einsum("ij,j->i", np.asarray(vectors, dtype=np.float64), np.asarray(query, dtype=np.float64))
    return [float(x) for x in products]


class SemanticDedup:
    def __init__(
        self,
        store: MemoryRepository,
        index: SearchIndex,
        embedder: Embedder,
        clock: Clock,
        thresholds: DedupThresholds | None = None,
    ) -> None:
        self._store = store
        self._index = index
        self._embedder = embedder
        self._clock = clock
        self.thresholds = thresholds or thresholds_for(embedder)
        self._cache: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = Lock()

    def _embed(self, texts: list[str]) -> list[list[float]]:
        """The embedder's vectors, the ones seen lately from memory (the same model and text
        give the same vector)."""
        with self._lock:
            known = {t: self._cache[t] for t in texts if t in self._cache}
            for t in known:
                self._cache.move_to_end(t)
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            fresh = dict(zip(missing, self._embedder.embed(missing), strict=True))
            known.update(fresh)
            with self._lock:
                self._cache.update(fresh)
                while len(self._cache) > EMBEDDING_CACHE:
                    self._cache.popitem(last=False)
        return [known[t] for t in texts]

    def match(
        self,
        tenant_id: str,
        user_id: str,
        key: str,
        value: str,
        category: str,
        scope: VisibilityScope,
        *,
        shared: bool | None = None,
        thresholds: DedupThresholds | None = None,
        visibility: Visibility | None = None,
        group_ids: tuple[str, ...] = (),
    ) -> DedupMatch | None:
        """The live entry this fact duplicates or contradicts, or ``None`` for a new fact.

        ``category`` does not narrow the search: "I love sushi" extracted as a fact
        duplicates the same preference. It breaks ties between equally similar entries.
        ``shared``: True only global entries, False only the agent's own (an explicit
        write keeps the visibility it asked for); None both. ``thresholds`` replace the
        embedder's calibrated ones (an agent's configuration). ``visibility`` (and, for a
        group write, ``group_ids``): only entries of exactly that visibility are candidates.
        An agent's self and group entries under one key are one identity, so a group
        write aimed at the agent's self entry would move that private fact to the group
        (and a self write would take a group's fact away from its members).
        """
        limits = thresholds or self.thresholds
        now = self._clock.now()
        text, subject = fact_text(key, value), subject_of(key)
        q_text, q_subject = self._embed([text, subject])
        entries = self._candidates(tenant_id, user_id, now, text, q_text, scope, shared)
        if visibility is not None:
            entries = [e for e in entries if _same_audience(e, visibility, group_ids)]
        if not entries:
            return None
        entries.sort(key=lambda e: e.id)
        vectors = self._embed([t for e in entries for t in (fact_text(e.key, e.value), subject_of(e.key))])
        wholes, abouts = _similarities(q_text, vectors[0::2]), _similarities(q_subject, vectors[1::2])
        best: tuple[int, float, int, str, DedupMatch] | None = None
        for i, entry in enumerate(entries):
            whole, about = wholes[i], abouts[i]
            found = _classify(entry, key, value, whole, about, limits)
            if found is None:
                continue
            # Duplicates beat contradictions, then similarity, then the same category.
            rank = (
                1 if found.kind == "duplicate" else 0,
                found.similarity,
                1 if entry.category == category else 0,
                entry.id,
                found,
            )
            if best is None or rank[:4] > best[:4]:
                best = rank
        if best is None:
            return None
        match = best[4]
        logger.debug(
            "semantic match",
            extra={"kind": match.kind, "similarity": round(match.similarity, 4), "entry_id": match.entry.id},
        )
        return match

    def _candidates(
        self,
        tenant_id: str,
        user_id: str,
        now: datetime,
        text: str,
        vector: Sequence[float],
        scope: VisibilityScope,
        shared: bool | None,
    ) -> list[MemoryEntry]:
        """Live entries near ``text`` that this writer could reinforce or supersede: what
        the index proposes, and the user's latest entries, which it may not hold yet."""
        recent = self._store.list_entries(
            tenant_id,
            user_id,
            EntryQuery(now=now, scope=scope, statuses=(Status.ACTIVE,), order=RecallOrder.MOST_RECENT, limit=RECENT),
        ).items
        try:
            hits = self._index.search(
                SearchQuery(
                    tenant_id=tenant_id,
                    user_id=user_id,
                    now=now,
                    text=text,
                    vector=vector,
                    scope=scope,
                    kinds=(DocKind.MEMORY,),
                    k=CANDIDATES,
                )
            )
        except StoreUnavailable as exc:
            # The search index is down: the store still takes writes, so the write is
            # compared with the latest entries alone rather than refused.
            logger.warning("dedup without the search index", extra={"tenant_id": tenant_id, "error": exc.code})
            hits = []
        known = {e.id for e in recent}
        proposed = [h.id for h in hits if h.id not in known]
        found = [*recent, *(self._store.get_entries(tenant_id, user_id, proposed) if proposed else [])]
        return [
            e
            for e in found
            if e.is_live(now)
            and scope.allows(e)
            and _writable(e, scope)
            and (shared is None or (e.visibility is Visibility.GLOBAL) == shared)
        ]


def _classify(
    entry: MemoryEntry, key: str, value: str, whole: float, about: float, limits: DedupThresholds
) -> DedupMatch | None:
    found = classify(key, value, entry.key, entry.value, whole, about, limits)
    if found is None:
        return None
    return DedupMatch(entry, whole if found == "duplicate" else about, found)


def classify(
    key: str, value: str, other_key: str, other_value: str, whole: float, about: float, limits: DedupThresholds
) -> MatchKind | None:
    """A write next to a stored fact: a duplicate (the whole fact is the same), a
    contradiction (the same subject with another value), or neither.

    Keys that differ by a negation, a qualifier or another member of a closed class
    ("least favorite food", "sister name") are another subject whatever the similarity:
    merging them would invert or misattribute the fact. Numbers name things too:
    "child_1" and "child_2", "note 4" and "note 5" are different facts however alike their
    words, and both embedders score such pairs as near-identical (issue #17: a batch of
    keys r495, r496 was folded into one). So keys with other numbers are never one
    subject, and values with other numbers never one fact.
    """
    if whole <= limits.duplicate and about < limits.contradiction:
        return None  # neither, whatever the words say (most candidates: checked first, it is cheap)
    if distinct_subjects(other_key, key) or _numbers(key) != _numbers(other_key):
        return None
    if whole > limits.duplicate and _numbers(value) == _numbers(other_value):
        return "duplicate"
    if about >= limits.contradiction and not same_value(value, other_value):
        return "contradiction"
    return None


_NUMBER = re.compile(r"\d+")


def _numbers(text: str) -> tuple[str, ...]:
    # In order: "own-1-12" and "own-12-1" are different slots too.
    return tuple(n.lstrip("0") or "0" for n in _NUMBER.findall(text))


def _writable(entry: MemoryEntry, scope: VisibilityScope) -> bool:
    return scope.everything or entry.visibility is Visibility.GLOBAL or entry.source_agent_id == scope.agent_id


def _same_audience(entry: MemoryEntry, visibility: Visibility, group_ids: tuple[str, ...]) -> bool:
    if entry.visibility is not visibility:
        return False
    return visibility is not Visibility.GROUP or set(entry.group_ids) == set(group_ids)
