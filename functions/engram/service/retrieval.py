"""One retrieval path: every search and recall finds its candidates and ranks them here.

Retrieval is three steps, the same for memories, archival records, messages and
summaries:
1. ``Retriever.hits``: embed the text (unless the caller already did, or asked for words
   only), query the index for each kind asked, and, when the text names a span of time,
   once more for what was said within it; the hits are merged by id.
2. Confirm against the source of truth: the index only proposes. The caller reads the
   hits' items from its repository and keeps those the reader may see (each feature
   knows its own rules), or, for entries whose index copy carries their ranking
   signals, ranks first and reads only the ones about to be shown (``confirm_top``).
3. Rank them all with the one ranking (``domain/ranking.py``) and explain each.

What the index holds is written the same way: ``IndexWriter.write`` embeds every
document's text in one call to the one embedder and stamps its model, so a vector and
the query that meets it always come from the same model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Generic, TypeVar

from engram.domain.policies import VisibilityScope
from engram.domain.ranking import HybridWeights, ScoreParts, Signals, explain, matched_by, rank
from engram.domain.temporal import TimeWindow
from engram.ports import DocKind, Embedder, IndexDocument, SearchHit, SearchIndex, SearchQuery

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Ask:
    """What to look for, for whom, and how many candidates to take."""

    tenant_id: str
    user_id: str
    now: datetime
    text: str
    scope: VisibilityScope
    kinds: tuple[DocKind, ...]
    candidates: int
    # Already embedded by the caller (recall embeds once for several uses); else embedded here.
    vector: Sequence[float] | None = None
    categories: tuple[str, ...] | None = None
    exclude_thread_ids: tuple[str, ...] = ()
    # The span of time the text names: its hits are added to the rest.
    window: TimeWindow | None = None
    # Words only (no vector), or meaning only (no words).
    keyword: bool = True
    semantic: bool = True
    # Each kind its own candidate list, so hundreds of messages never crowd the few
    # entries out of the candidates (or the other way round).
    per_kind: bool = False


@dataclass(frozen=True, slots=True)
class Found(Generic[T]):
    """A confirmed, ranked candidate: the item, its index hit and its score, explained."""

    id: str
    item: T
    hit: SearchHit
    parts: ScoreParts
    matched_by: tuple[str, ...]
    why: str

    @property
    def score(self) -> float:
        return self.parts.total


def candidates_for(limit: int) -> int:
    """How many candidates a search of ``limit`` results takes from the index."""
    return max(limit * 4, 20)


class Retriever:
    def __init__(self, index: SearchIndex, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder

    def hits(self, ask: Ask) -> dict[str, SearchHit]:
        """The index's candidates for ``ask`` by id (the first hit of an id wins)."""
        vector = ask.vector
        if vector is None and ask.semantic:
            vector = self.embedder.embed([ask.text])[0]
        base = SearchQuery(
            tenant_id=ask.tenant_id,
            user_id=ask.user_id,
            now=ask.now,
            text=ask.text if ask.keyword else "",
            vector=vector if ask.semantic else None,
            scope=ask.scope,
            kinds=ask.kinds,
            categories=ask.categories,
            exclude_thread_ids=ask.exclude_thread_ids,
            k=ask.candidates,
            model_id=self.embedder.model_id,
        )
        queries = [replace(base, kinds=(kind,)) for kind in ask.kinds] if ask.per_kind else [base]
        if ask.window is not None:
            # What was said in the span asked about, however it is worded.
            queries.append(replace(base, occurred_from=ask.window.start, occurred_to=ask.window.end))
        found: dict[str, SearchHit] = {}
        for query in queries:
            for h in self.index.search(query):
                found.setdefault(h.id, h)
        return found


def rank_found(
    hits: Mapping[str, SearchHit],
    items: Mapping[str, T],
    signals: Callable[[T, SearchHit], Signals],
    weights: HybridWeights,
    now: datetime,
    floor: float,
    *,
    to: str = "the query",
) -> list[Found[T]]:
    """Confirmed ``items`` (by hit id) ranked at or above ``floor``, best first, explained."""
    scored = rank([(i, signals(item, hits[i])) for i, item in items.items()], weights, now)
    return [_found(i, items[i], hits[i], parts, to) for i, parts in scored if parts.total >= floor]


def confirm_top(
    candidates: Sequence[tuple[str, Signals]],
    known: dict[str, T],
    read: Callable[[list[str]], Mapping[str, T]],
    stored: Callable[[str, T], Signals],
    weights: HybridWeights,
    now: datetime,
    floor: float,
    limit: int,
    *,
    dropped: Iterable[str] = (),
) -> tuple[list[tuple[str, ScoreParts]], int]:
    """Rank on what the index knows of each candidate and read from the store only the
    best ``limit`` (and the next ones for any that drop out): usually one read of
    ``limit`` items instead of one of every candidate (docs/dynamodb.md).

    The store is the truth: ``read`` answers, by id, only the items the reader may still
    see, so an index lagging behind a supersede or delete never brings an old value back;
    a read item ranks on its ``stored`` signals. ``known`` holds the items read already
    (filled in here); ``dropped`` are left out. Answers the candidates at or above
    ``floor``, best first, and how many were ranked in the last round.
    """
    gone = set(dropped)
    signals = dict(candidates)
    for cid, item in known.items():
        if cid in signals:
            signals[cid] = stored(cid, item)
    # The same Signals object from round to round, so a round scores only what changed.
    memo: dict[str, tuple[Signals, float, ScoreParts]] = {}
    while True:
        ranked = rank([(cid, signals[cid]) for cid, _ in candidates if cid not in gone], weights, now, memo)
        passing = [(cid, parts) for cid, parts in ranked if parts.total >= floor]
        missing = [cid for cid, _ in passing[:limit] if cid not in known]
        if not missing:
            return passing, len(ranked)
        for cid, item in read(missing).items():
            known[cid] = item
            signals[cid] = stored(cid, item)
        # Every round reads or drops each id it asks for, so this ends.
        gone.update(cid for cid in missing if cid not in known)


def explained(cid: str, item: T, hit: SearchHit, parts: ScoreParts, to: str = "the query") -> Found[T]:
    return _found(cid, item, hit, parts, to)


def _found(cid: str, item: T, hit: SearchHit, parts: ScoreParts, to: str) -> Found[T]:
    matched = matched_by(hit.keyword, parts)
    return Found(cid, item, hit, parts, matched, explain(parts, matched, to=to))


class IndexWriter:
    """The one writer of search documents (entries, archival records, messages, summaries)."""

    def __init__(self, index: SearchIndex, embedder: Embedder) -> None:
        self.index = index
        self.embedder = embedder

    def write(self, docs: Sequence[IndexDocument], texts: Sequence[str] | None = None) -> None:
        """Embed ``texts`` (by default each document's own text; a message embeds its
        content alone) in one call and upsert the documents with their vectors."""
        if not docs:
            return
        vectors = self.embedder.embed(list(texts) if texts is not None else [d.text for d in docs])
        model = self.embedder.model_id
        self.index.upsert([replace(d, vector=v, model_id=model) for d, v in zip(docs, vectors, strict=True)])
